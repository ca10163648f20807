// print / tracing_mark_write events on the mapper's model: atrace markers (atrace_marker.h) as
// thread slices, async slices and process counters; any other text as a text marker.
#include <fmt/format.h>

#include "importers/ftrace/atrace_marker.h"
#include "importers/ftrace/ftrace_gpu_mapper.h"

namespace importers::ftrace {

using namespace core::model;  // NOLINT: the model's vocabulary

void FtraceGpuMapper::OnPrint(const FtraceEvent& e) {
  const auto m = ParseAtraceMarker(e.details);
  if (!m) {
    Emit(events::Marker{.ts_ns = e.ts_ns,
                        .thread_id = Thread(e.pid, e.tgid, e.comm),
                        .name_sid = Name(e.details),
                        .marker_type = 0});
    ++m_counts.text_markers;
    return;
  }
  // The marker's pid is the writer's process (its tgid); the line's pid is the thread.
  const int32_t tgid = e.tgid >= 0 ? e.tgid : m->pid >= 0 ? m->pid : e.pid;
  switch (m->type) {
    case 'B':
      Thread(e.pid, tgid, e.comm);
      m_atrace_stacks[e.pid].push_back({e.ts_ns, Name(m->name)});
      break;
    case 'E':
      OnAtraceSliceEnd(e, tgid);
      break;
    case 'C': {
      const auto key = std::make_pair(tgid, std::string(m->name));
      auto [it, fresh] = m_counter_index.try_emplace(key, m_counters.size());
      if (fresh) m_counters.push_back({tgid, key.second, {}});
      m_counters[it->second].samples.emplace_back(e.ts_ns, m->value);
      break;
    }
    case 'S':
      m_async_open[{tgid, std::string(m->name), m->cookie}] = {e.ts_ns, Thread(e.pid, tgid, e.comm)};
      break;
    case 'F': {
      auto it = m_async_open.find({tgid, std::string(m->name), m->cookie});
      if (it == m_async_open.end()) {
        ++m_counts.atrace_end_without_begin;
        break;
      }
      Emit(events::AsyncSlice{.ts_ns = it->second.first,
                              .thread_id = it->second.second,
                              .async_id = m->cookie,
                              .duration_ns = e.ts_ns - it->second.first,
                              .name_sid = Name(m->name),
                              .category_sid = Name("atrace"),
                              .process_id = Process(tgid)});
      ++m_counts.atrace_async_slices;
      m_async_open.erase(it);
      break;
    }
  }
}

// E ends the innermost slice the thread began (atrace slices nest per thread).
void FtraceGpuMapper::OnAtraceSliceEnd(const FtraceEvent& e, int32_t tgid) {
  auto& stack = m_atrace_stacks[e.pid];
  if (stack.empty()) {
    ++m_counts.atrace_end_without_begin;
    return;
  }
  const AtraceOpen open = stack.back();
  stack.pop_back();
  Emit(events::CpuSlice{.ts_ns = open.ts,
                        .thread_id = Thread(e.pid, tgid, e.comm),
                        .duration_ns = e.ts_ns - open.ts,
                        .name_sid = open.name,
                        .category_sid = Name("atrace"),
                        .depth = static_cast<int64_t>(stack.size())});
  ++m_counts.atrace_slices;
}

// Slices still open when the trace ends run to its end, and are counted.
void FtraceGpuMapper::CloseAtrace() {
  for (auto& [pid, stack] : m_atrace_stacks) {
    while (!stack.empty()) {
      const AtraceOpen open = stack.back();
      stack.pop_back();
      Emit(events::CpuSlice{.ts_ns = open.ts,
                            .thread_id = m_threads.at(pid),
                            .duration_ns = m_last_ts - open.ts,
                            .name_sid = open.name,
                            .category_sid = Name("atrace"),
                            .depth = static_cast<int64_t>(stack.size())});
      ++m_counts.atrace_open_at_end;
    }
  }
  for (const auto& [key, open] : m_async_open) {
    Emit(events::AsyncSlice{.ts_ns = open.first,
                            .thread_id = open.second,
                            .async_id = std::get<2>(key),
                            .duration_ns = m_last_ts - open.first,
                            .name_sid = Name(std::get<1>(key)),
                            .category_sid = Name("atrace"),
                            .process_id = Process(std::get<0>(key))});
    ++m_counts.atrace_open_at_end;
  }
  m_async_open.clear();
}

// Counter series per process and name; samples before the complete window are left out with
// the other records (ftrace_capture_window.h).
void FtraceGpuMapper::WriteCounters() {
  for (const CounterTrack& track : m_counters) {
    core::model::CounterSeries info;
    info.name = track.name;
    info.process = Process(track.tgid);
    CounterSeriesId series = 0;
    for (const auto& [ts, value] : track.samples) {
      if (m_counts.window_from && ts < m_counts.window_from) continue;
      if (!series) series = m_writer.AddCounterSeries(info);
      m_writer.AddCounterSample(series, ts, value);
      ++m_counts.atrace_counter_samples;
    }
  }
}

}  // namespace importers::ftrace
