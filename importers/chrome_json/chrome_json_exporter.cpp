#include "importers/chrome_json/chrome_json_exporter.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>

#include "core/model/error.h"
#include "core/model/event_types.h"
#include "core/report/json.h"
#include "core/store/output_file.h"
#include "core/store/trace_store.h"
#include "importers/chrome_json/export_topology.h"

namespace importers::chrome_json {
namespace {

using core::model::EventKind;
using core::store::TraceStore;
namespace events = core::model::events;

// Track ids in the exported file: threads keep (process id, thread id); queues go into one
// "process" per adapter, offset so they never collide with CPU processes.
constexpr int64_t kAdapterPidBase = 1'000'000;

void AppendEscaped(std::string& out, std::string_view text) {
  out.push_back('"');
  out += core::report::JsonEscape(text);
  out.push_back('"');
}

// ns -> µs with three decimals, exactly.
std::string Micros(int64_t ns) {
  const char* sign = ns < 0 ? "-" : "";
  const uint64_t a = ns < 0 ? static_cast<uint64_t>(-ns) : static_cast<uint64_t>(ns);
  return fmt::format("{}{}.{:03d}", sign, a / 1000, a % 1000);
}

struct Box {
  int64_t op = 0;
  uint32_t queue = 0;
  uint32_t thread = 0;
  uint32_t fence = 0;
  uint64_t value = 0;
  int64_t begin = INT64_MIN;
  int64_t end = INT64_MIN;
  int64_t name = 0;
  int64_t released_by = 0;  // waits: signal op id
  int64_t submit = INT64_MIN;  // packets: packet_submitted time
  bool cpu = false;
  uint32_t begin_event = UINT32_MAX;  // event index of the record the box starts with
};

class Exporter {
 public:
  explicit Exporter(const TraceStore& store) : m_store(store) {}

  std::string Run(uint64_t* count, const std::function<void(double)>& progress) {
    m_out.reserve(1 << 20);
    // fencescopeExport tells the importer that "fence" flows mirror the waits' signal_id args;
    // fencescopeTopology gives it back the trace's topology and span (export_topology.h).
    m_out += "{\"displayTimeUnit\":\"ns\",\"fencescopeExport\":1,\"fencescopeTopology\":";
    m_out += ExportTopologyJson(
        m_store, [](const core::store::Process& p) { return int64_t{p.id}; },
        [this](const core::store::Queue& q) { return ExportTrack{QueuePid(q.id), q.id}; },
        [this](const core::store::Thread& t) {
          const auto [pid, tid] = ThreadTrack(t.id);
          return ExportTrack{pid, tid};
        });
    m_out += ",\n\"traceEvents\":[\n";
    WriteTracks();
    Pair();
    if (progress) progress(0.3);
    WriteSlices();
    WriteBoxes();
    WriteTasks();
    WriteArrows();
    WriteFlows();
    WriteCounters();
    if (progress) progress(0.9);
    if (m_events > 0) m_out.resize(m_out.size() - 2);  // the last ",\n"
    m_out += "\n]}\n";
    *count = m_events;
    return std::move(m_out);
  }

 private:
  const std::string& Str(int64_t sid) const {
    return m_store.String(static_cast<core::model::StringId>(sid));
  }

  // Opens one event object with the common fields; the caller adds fields and calls Close().
  void Open(char ph, std::string_view name, std::string_view cat, int64_t pid, int64_t tid,
            int64_t ts) {
    m_out += "{\"ph\":\"";
    m_out.push_back(ph);
    m_out += "\",\"name\":";
    AppendEscaped(m_out, name);
    if (!cat.empty()) {
      m_out += ",\"cat\":";
      AppendEscaped(m_out, cat);
    }
    m_out += fmt::format(",\"pid\":{},\"tid\":{},\"ts\":{}", pid, tid, Micros(ts));
  }
  void Close() {
    m_out += "},\n";
    ++m_events;
  }

  int64_t QueuePid(uint32_t queue) const {
    const auto* q = m_store.FindQueue(queue);
    return kAdapterPidBase + (q ? q->adapter : 0);
  }
  // (pid, tid) of a thread or queue track.
  std::pair<int64_t, int64_t> ThreadTrack(uint32_t thread) const {
    const auto* t = m_store.FindThread(thread);
    return {t ? t->process : 0, thread};
  }

  void Metadata(std::string_view what, int64_t pid, int64_t tid, std::string_view key,
                const std::string& value_json) {
    m_out += "{\"ph\":\"M\",\"name\":";
    AppendEscaped(m_out, what);
    m_out += fmt::format(",\"pid\":{},\"tid\":{},\"ts\":0,\"args\":{{\"{}\":{}}}", pid, tid, key,
                         value_json);
    Close();
  }
  std::string Quoted(std::string_view text) {
    std::string s;
    AppendEscaped(s, text);
    return s;
  }

  void WriteTracks() {
    for (const auto& p : m_store.processes) {
      Metadata("process_name", p.id, 0, "name", Quoted(p.name));
    }
    for (const auto& t : m_store.threads) {
      Metadata("thread_name", t.process, t.id, "name", Quoted(t.name));
      Metadata("thread_sort_index", t.process, t.id, "sort_index", std::to_string(t.sort_index));
    }
    // One device "process" per adapter (0: queues without one), labelled "GPU n" like Kineto's
    // devices so the importer reads its tracks back as queues.
    std::map<uint32_t, bool> adapters;
    for (const auto& q : m_store.queues) adapters[q.adapter] = true;
    for (const auto& [adapter, unused] : adapters) {
      const auto* a = m_store.FindAdapter(adapter);
      const int64_t pid = kAdapterPidBase + adapter;
      Metadata("process_name", pid, 0, "name", Quoted(a ? a->name : "GPU"));
      Metadata("process_labels", pid, 0, "labels", Quoted(fmt::format("GPU {}", adapter)));
      Metadata("process_sort_index", pid, 0, "sort_index", std::to_string(pid));
    }
    for (const auto& q : m_store.queues) {
      Metadata("thread_name", QueuePid(q.id), q.id, "name", Quoted(q.name));
      Metadata("thread_sort_index", QueuePid(q.id), q.id, "sort_index",
               std::to_string(q.sort_index));
    }
  }

  // Pairs the records of each box by its op id.
  void Pair() {
    const auto& ev = m_store.events;
    for (uint32_t i = 0; i < ev.size(); ++i) {
      switch (ev.kind[i]) {
        case EventKind::PacketSubmitted: {
          const auto e = events::PacketSubmitted::At(ev, i);
          Box& b = m_packets[e.packet_id];
          b.op = e.packet_id, b.queue = e.queue_id, b.thread = e.thread_id, b.name = e.name_sid;
          b.submit = e.ts_ns;
          break;
        }
        case EventKind::PacketStarted: {
          const auto e = events::PacketStarted::At(ev, i);
          Box& b = m_packets[e.packet_id];
          b.op = e.packet_id, b.queue = e.queue_id;
          if (b.begin == INT64_MIN) b.begin = e.ts_ns, b.begin_event = i;
          break;
        }
        case EventKind::PacketCompleted: {
          const auto e = events::PacketCompleted::At(ev, i);
          m_packets[e.packet_id].op = e.packet_id, m_packets[e.packet_id].end = e.ts_ns;
          break;
        }
        case EventKind::FenceSignalQueued: {
          const auto e = events::FenceSignalQueued::At(ev, i);
          Box& b = m_signals[e.signal_id];
          b.op = e.signal_id, b.queue = e.queue_id, b.thread = e.thread_id, b.fence = e.fence_id;
          b.value = e.fence_value, b.begin = e.ts_ns, b.begin_event = i;
          break;
        }
        case EventKind::FenceSignalExecuted: {
          const auto e = events::FenceSignalExecuted::At(ev, i);
          Box& b = m_signals[e.signal_id];
          b.op = e.signal_id, b.queue = e.queue_id, b.fence = e.fence_id, b.value = e.fence_value;
          b.end = e.ts_ns;
          if (b.begin == INT64_MIN) b.begin = e.ts_ns, b.begin_event = i;
          break;
        }
        case EventKind::FenceCpuSignal: {
          const auto e = events::FenceCpuSignal::At(ev, i);
          Box& b = m_signals[e.signal_id];
          b.op = e.signal_id, b.thread = e.thread_id, b.fence = e.fence_id, b.value = e.fence_value;
          b.begin = b.end = e.ts_ns, b.cpu = true, b.begin_event = i;
          break;
        }
        case EventKind::FenceWaitQueued: {
          const auto e = events::FenceWaitQueued::At(ev, i);
          Box& b = m_waits[e.wait_id];
          b.op = e.wait_id, b.queue = e.queue_id, b.thread = e.thread_id, b.fence = e.fence_id;
          b.value = e.fence_value, b.begin = e.ts_ns, b.begin_event = i;
          break;
        }
        case EventKind::FenceWaitUnblocked: {
          const auto e = events::FenceWaitUnblocked::At(ev, i);
          Box& b = m_waits[e.wait_id];
          b.op = e.wait_id, b.queue = e.queue_id, b.fence = e.fence_id, b.value = e.fence_value;
          b.end = e.ts_ns, b.released_by = e.released_by_signal_id;
          if (b.begin == INT64_MIN) b.begin = e.ts_ns, b.begin_event = i;
          break;
        }
        case EventKind::CpuWaitBegin: {
          const auto e = events::CpuWaitBegin::At(ev, i);
          Box& b = m_cpu_waits[e.waiter_id];
          b.op = e.waiter_id, b.thread = e.thread_id, b.fence = e.fence_id, b.value = e.fence_value;
          b.begin = e.ts_ns;
          break;
        }
        case EventKind::CpuWaitReleased: {
          const auto e = events::CpuWaitReleased::At(ev, i);
          Box& b = m_cpu_waits[e.waiter_id];
          b.op = e.waiter_id, b.thread = e.thread_id, b.fence = e.fence_id, b.value = e.fence_value;
          b.end = e.ts_ns;
          if (b.begin == INT64_MIN) b.begin = e.ts_ns;
          break;
        }
        case EventKind::TaskStarted: {
          const auto e = events::TaskStarted::At(ev, i);
          Box& b = m_tasks[e.task_id];
          b.op = e.task_id, b.thread = e.thread_id, b.begin = e.ts_ns;
          break;
        }
        case EventKind::TaskFinished:
          EndTask(events::TaskFinished::At(ev, i));
          break;
        case EventKind::TaskCancelled:
          EndTask(events::TaskCancelled::At(ev, i));
          break;
        case EventKind::TaskAbandoned:
          EndTask(events::TaskAbandoned::At(ev, i));
          break;
        default:
          break;
      }
    }
  }

  // task_finished, task_cancelled or task_abandoned.
  template <class E>
  void EndTask(const E& e) {
    if (m_tasks.count(e.task_id)) m_tasks[e.task_id].end = e.ts_ns;
  }

  // An instant or a marker, on its queue or else its thread.
  void WriteInstant(int64_t ts, uint32_t queue, uint32_t thread, std::string_view name,
                    std::string_view cat, uint32_t scope) {
    auto [pid, tid] =
        queue != 0 ? std::make_pair(QueuePid(queue), int64_t{queue}) : ThreadTrack(thread);
    Open('i', name, cat, pid, tid, ts);
    m_out += fmt::format(",\"s\":\"{}\"", scope == 2 ? "g" : scope == 1 ? "p" : "t");
    Close();
  }

  void WriteSlices() {
    const auto& ev = m_store.events;
    const int64_t trace_end = m_store.end_ns();
    for (uint32_t i = 0; i < ev.size(); ++i) {
      switch (ev.kind[i]) {
        case EventKind::CpuSlice: {
          const auto e = events::CpuSlice::At(ev, i);
          auto [pid, tid] = ThreadTrack(e.thread_id);
          Open('X', Str(e.name_sid), Str(e.category_sid), pid, tid, e.ts_ns);
          m_out += fmt::format(",\"dur\":{}", Micros(e.duration_ns));
          Close();
          break;
        }
        case EventKind::Instant: {
          const auto e = events::Instant::At(ev, i);
          WriteInstant(e.ts_ns, e.queue_id, e.thread_id, Str(e.name_sid), Str(e.category_sid),
                       e.scope);
          break;
        }
        case EventKind::Marker: {
          const auto e = events::Marker::At(ev, i);
          WriteInstant(e.ts_ns, e.queue_id, e.thread_id, Str(e.name_sid), "marker", 0);
          break;
        }
        case EventKind::Interrupt: {
          const auto e = events::Interrupt::At(ev, i);
          const bool on_queue = e.queue_id != 0;
          const int64_t pid = on_queue ? QueuePid(e.queue_id) : kAdapterPidBase + e.adapter_id;
          Open('i', "interrupt", "interrupt", pid, on_queue ? e.queue_id : 0, e.ts_ns);
          m_out += fmt::format(
              ",\"s\":\"{}\",\"args\":{{\"fence\":{},\"value\":{},"
              "\"signal_id\":{},\"waiters_released\":{}}}",
              on_queue ? "t" : "p", e.fence_id, e.fence_value, e.signal_id, e.waiters_released);
          Close();
          break;
        }
        case EventKind::AsyncSlice: {
          const auto e = events::AsyncSlice::At(ev, i);
          auto [pid, tid] = ThreadTrack(e.thread_id);
          const std::string id = fmt::format(",\"id\":\"{}\"", e.async_id);
          Open('b', Str(e.name_sid), Str(e.category_sid), pid, tid, e.ts_ns);
          m_out += id;
          Close();
          const int64_t end =
              std::min<int64_t>(e.ts_ns + e.duration_ns, std::max(trace_end, e.ts_ns));
          Open('e', Str(e.name_sid), Str(e.category_sid), pid, tid, end);
          m_out += id;
          Close();
          break;
        }
        default:
          break;
      }
    }
  }

  std::string FenceName(uint32_t fence) const {
    const auto* f = m_store.FindFence(fence);
    return f && !f->name.empty() ? f->name : fmt::format("fence {}", fence);
  }

  void WriteBoxes() {
    const int64_t trace_end = m_store.end_ns();
    // Boxes the trace never ended are drawn to its end and marked "open":1 (a packet never
    // started: a zero-length box at its submit time, "not_started":1), so that the importer
    // recreates only the records that existed.
    for (const auto& [op, b] : m_packets) {
      const bool started = b.begin != INT64_MIN;
      const int64_t begin = started ? b.begin : b.submit;
      if (begin == INT64_MIN) continue;
      const auto* q = m_store.FindQueue(b.queue);
      const bool copy = q && q->type == core::model::QueueType::kCopy;
      const std::string name = b.name ? Str(b.name) : fmt::format("packet {}", op);
      Open('X', name, copy ? "gpu_memcpy" : "kernel", QueuePid(b.queue), b.queue, begin);
      const int64_t end = !started ? begin : b.end == INT64_MIN ? trace_end : b.end;
      m_out += fmt::format(",\"dur\":{},\"args\":{{\"packet_id\":{}", Micros(end - begin), op);
      if (b.submit != INT64_MIN) m_out += fmt::format(",\"submitted_ns\":{}", b.submit);
      if (!started) m_out += ",\"not_started\":1";
      else if (b.end == INT64_MIN) m_out += ",\"open\":1";
      m_out += "}";
      Close();
    }
    for (const auto& [op, b] : m_signals) {
      auto [pid, tid] = b.cpu ? ThreadTrack(b.thread)
                              : std::make_pair(QueuePid(b.queue), int64_t{b.queue});
      Open('X', FenceName(b.fence), "fence_signal", pid, tid, b.begin);
      const int64_t end = b.end == INT64_MIN ? trace_end : b.end;
      m_out += fmt::format(",\"dur\":{},\"args\":{{\"fence\":{},\"value\":{},\"signal_id\":{}{}}}",
                           Micros(std::max<int64_t>(0, end - b.begin)), b.fence, b.value, op,
                           b.end == INT64_MIN ? ",\"open\":1" : "");
      Close();
    }
    for (const auto& [op, b] : m_waits) {
      Open('X', FenceName(b.fence), "fence_wait", QueuePid(b.queue), b.queue, b.begin);
      const int64_t end = b.end == INT64_MIN ? trace_end : b.end;
      m_out += fmt::format(",\"dur\":{},\"args\":{{\"fence\":{},\"value\":{},\"wait_id\":{},"
                           "\"signal_id\":{}{}}}",
                           Micros(std::max<int64_t>(0, end - b.begin)), b.fence, b.value, op,
                           b.end == INT64_MIN ? 0 : ReleasingSignal(b),
                           b.end == INT64_MIN ? ",\"open\":1" : "");
      Close();
    }
    for (const auto& [op, b] : m_cpu_waits) {
      auto [pid, tid] = ThreadTrack(b.thread);
      Open('X', b.fence ? FenceName(b.fence) : "CPU wait", "cpu_wait", pid, tid, b.begin);
      const int64_t end = b.end == INT64_MIN ? trace_end : b.end;
      m_out += fmt::format(",\"dur\":{},\"args\":{{\"fence\":{},\"value\":{}{}}}",
                           Micros(std::max<int64_t>(0, end - b.begin)), b.fence, b.value,
                           b.end == INT64_MIN ? ",\"open\":1" : "");
      Close();
    }
  }

  // Driver background tasks (shader PGO) as slices on their runtime thread.
  void WriteTasks() {
    const int64_t trace_end = m_store.end_ns();
    for (const auto& [op, b] : m_tasks) {
      auto [pid, tid] = ThreadTrack(b.thread);
      Open('X', fmt::format("task {}", op), "background_task", pid, tid, b.begin);
      const int64_t end = b.end == INT64_MIN ? trace_end : b.end;
      m_out += fmt::format(",\"dur\":{}", Micros(std::max<int64_t>(0, end - b.begin)));
      Close();
    }
  }

  // The signal that released a wait: the one the trace names, else the first signal of the
  // fence reaching the wait's value.
  int64_t ReleasingSignal(const Box& wait) const {
    if (wait.released_by != 0 && m_signals.count(wait.released_by)) return wait.released_by;
    const Box* best = nullptr;
    for (const auto& [op, s] : m_signals) {
      if (s.fence != wait.fence || s.value < wait.value || s.end == INT64_MIN) continue;
      if (!best || s.end < best->end) best = &s;
    }
    return best ? best->op : 0;
  }

  void WriteArrows() {
    // Signal -> wait arrows as flow v1 pairs (cat "fence"). The importer relinks through the
    // wait's signal_id arg, so these are for the viewers.
    for (const auto& [op, w] : m_waits) {
      if (w.end == INT64_MIN) continue;  // never released
      const int64_t signal = ReleasingSignal(w);
      if (signal == 0) continue;
      const Box& s = m_signals.at(signal);
      auto [spid, stid] = s.cpu ? ThreadTrack(s.thread)
                                : std::make_pair(QueuePid(s.queue), int64_t{s.queue});
      const std::string id = fmt::format(",\"id\":\"fence-{}\"", ++m_flow_ids);
      Open('s', "fence", "fence", spid, stid, s.begin);
      m_out += id;
      Close();
      Open('f', "fence", "fence", QueuePid(w.queue), w.queue, w.begin);
      m_out += id + ",\"bp\":\"e\"";
      Close();
    }
  }

  void WriteFlows() {
    const auto& ev = m_store.events;
    for (const auto& flow : m_store.flows) {
      const size_t from = m_store.IndexOfRowId(flow.from);
      const size_t to = m_store.IndexOfRowId(flow.to);
      if (from >= ev.size() || to >= ev.size()) continue;
      std::pair<int64_t, int64_t> from_track, to_track;
      if (ev.thread[from] != 0 && ev.queue[from] == 0) {
        from_track = ThreadTrack(ev.thread[from]);
      } else {
        from_track = {QueuePid(ev.queue[from]), ev.queue[from]};
      }
      if (ev.queue[to] != 0) {
        to_track = {QueuePid(ev.queue[to]), ev.queue[to]};
      } else {
        to_track = ThreadTrack(ev.thread[to]);
      }
      const bool launch = flow.kind == core::model::FlowKind::kCpuLaunch;
      const std::string name = flow.name ? Str(flow.name) : (launch ? "ac2g" : "flow");
      const std::string cat = launch ? "ac2g" : "flow";
      const std::string id = fmt::format(",\"id\":\"flow-{}\"", ++m_flow_ids);
      Open('s', name, cat, from_track.first, from_track.second, ev.ts[from]);
      m_out += id;
      Close();
      Open('f', name, cat, to_track.first, to_track.second, ev.ts[to]);
      m_out += id + ",\"bp\":\"e\"";
      Close();
    }
  }

  void WriteCounters() {
    for (const auto& series : m_store.counters) {
      for (size_t i = 0; i < series.ts.size(); ++i) {
        Open('C', series.name, "", series.process, 0, series.ts[i]);
        m_out += fmt::format(",\"args\":{{\"value\":{}}}", series.values[i]);
        Close();
      }
    }
  }

  const TraceStore& m_store;
  std::string m_out;
  uint64_t m_events = 0;
  uint64_t m_flow_ids = 0;
  std::map<int64_t, Box> m_packets, m_signals, m_waits, m_cpu_waits, m_tasks;
};

// A gzip stream when the name ends in .gz, else the text as it is; false on a write error.
bool WriteJsonFile(const std::filesystem::path& file, bool gzip, const std::string& text) {
  if (gzip) {
    gzFile out = gzopen(file.c_str(), "wb6");
    if (!out) return false;
    size_t done = 0;
    bool ok = true;
    while (ok && done < text.size()) {
      const unsigned n = static_cast<unsigned>(std::min<size_t>(text.size() - done, 1u << 30));
      ok = gzwrite(out, text.data() + done, n) == static_cast<int>(n);
      done += n;
    }
    return gzclose(out) == Z_OK && ok;
  }
  FILE* out = std::fopen(file.c_str(), "wb");
  if (!out) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  return std::fclose(out) == 0 && ok;
}

}  // namespace

ExportSummary ExportChromeJson(const std::filesystem::path& trace,
                               const std::filesystem::path& output,
                               const std::function<void(double)>& progress) {
  core::store::CheckOutputIsNotInput(trace, output, "input trace");
  core::store::ResolveOutputTarget(output);  // refuse a device or FIFO before the work
  const TraceStore store = core::store::LoadTrace(trace);
  ExportSummary summary;
  Exporter exporter(store);
  const std::string text = exporter.Run(&summary.json_events, progress);
  const bool gzip = output.extension() == ".gz";
  core::store::WriteFileAtomically(
      output, [&](const std::filesystem::path& temp) { return WriteJsonFile(temp, gzip, text); });
  if (progress) progress(1.0);
  return summary;
}

}  // namespace importers::chrome_json
