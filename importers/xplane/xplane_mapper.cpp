#include "importers/xplane/xplane_mapper.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "core/model/event_types.h"
#include "importers/common/import_counters.h"
#include "importers/common/xla_stream_name.h"

namespace importers::xplane {

namespace events = core::model::events;
using core::model::TimeNs;

namespace {

// floor(a / 1000) for picoseconds to nanoseconds, negative values too.
__int128 FloorToNs(__int128 ps) { return ps >= 0 ? ps / 1000 : -((-ps + 999) / 1000); }

bool FitsTime(__int128 v) {
  return v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max();
}

std::string_view StatName(const XPlane& plane, const XStat& stat) {
  auto it = plane.stat_names.find(stat.metadata_id);
  return it == plane.stat_names.end() ? std::string_view() : it->second;
}

// A stat's value as text for meta: numbers as written, refs as the stat name they point to.
std::string StatText(const XPlane& plane, const XStat& stat) {
  switch (stat.kind) {
    case XStat::Kind::kDouble: return fmt::format("{}", stat.number);
    case XStat::Kind::kUint64: return fmt::format("{}", stat.bits);
    case XStat::Kind::kInt64: return fmt::format("{}", static_cast<int64_t>(stat.bits));
    case XStat::Kind::kString: return std::string(stat.text);
    case XStat::Kind::kBytes: return fmt::format("({} bytes)", stat.text.size());
    case XStat::Kind::kRef: {
      auto it = plane.stat_names.find(static_cast<int64_t>(stat.bits));
      return it == plane.stat_names.end() ? std::string() : std::string(it->second);
    }
    case XStat::Kind::kNone: break;
  }
  return {};
}

}  // namespace

XplaneMapper::XplaneMapper(core::store::TraceWriter& writer, const XSpaceHeader& header,
                           std::string_view label)
    : m_writer(writer), m_header(header), m_label(label) {}

core::model::StringId XplaneMapper::Intern(std::string_view text) {
  const core::model::StringId sid = m_writer.Intern(text);
  if (sid >= m_names.size()) m_names.resize(sid + 1);
  if (m_names[sid].empty()) m_names[sid] = text;
  return sid;
}

core::model::ProcessId XplaneMapper::HostProcess() {
  if (m_host_process) return m_host_process;
  std::string name;
  for (std::string_view host : m_header.hostnames) {
    name += (name.empty() ? "" : ", ") + std::string(host);
  }
  if (name.empty()) name = "host";
  return m_host_process = m_writer.AddProcess({0, name});
}

void XplaneMapper::Widen(std::map<int64_t, Span>& spans, int64_t key, Span span) {
  auto [it, added] = spans.try_emplace(key, span);
  if (!added) {
    it->second.start = std::min(it->second.start, span.start);
    it->second.end = std::max(it->second.end, span.end);
  }
}

bool XplaneMapper::Facts(const XPlane& plane, const XLine& line, const XEvent& event,
                         EventFacts& out) {
  if (event.aggregate) {
    // An aggregate (num_occurrences): a count over the profile, no time of its own.
    if (m_counts.aggregate_events++ == 0) m_first_aggregate_offset = event.offset;
    m_counts.aggregate_occurrences += static_cast<uint64_t>(std::max<int64_t>(0, event.num_occurrences));
    return false;
  }
  // The profiler subtracts profile_start_time from each line's timestamp it was not below
  // (TSL's NormalizeTimestamps); added back, every line is on the UNIX epoch again.
  __int128 base = line.timestamp_ns;
  if (m_header.has_profile_start && line.timestamp_ns < m_header.profile_start_ns) {
    base += m_header.profile_start_ns;
  }
  const __int128 start = base + FloorToNs(event.offset_ps);
  const __int128 end = base + FloorToNs(static_cast<__int128>(event.offset_ps) + event.duration_ps);
  if (event.duration_ps < 0 || !FitsTime(start) || !FitsTime(end)) {
    if (m_counts.bad_times++ == 0) m_first_bad_time_offset = event.offset;
    return false;
  }
  out.span = {static_cast<TimeNs>(start), static_cast<TimeNs>(end)};
  out.name = {};
  out.has_correlation = out.has_group = out.has_step = false;
  auto meta = plane.event_metadata.find(event.metadata_id);
  auto read_stat = [&](const XStat& stat) {
    const std::string_view name = StatName(plane, stat);
    int64_t value = 0;
    if (name == "correlation_id" && StatInteger(stat, &value)) {
      out.has_correlation = true;
      out.correlation = value;
    } else if (name == "group_id" && StatInteger(stat, &value)) {
      out.has_group = true;
      out.group = value;
    } else if (name == "step_num" && StatInteger(stat, &value)) {
      out.has_step = true;
      out.step = value;
    }
  };
  if (meta != plane.event_metadata.end()) {
    out.name = !meta->second.name.empty() ? meta->second.name : meta->second.display_name;
    for (const XStat& stat : meta->second.stats) read_stat(stat);
  } else if (m_counts.unknown_metadata++ == 0) {
    m_first_unknown_metadata_offset = event.offset;
  }
  for (uint32_t i = 0; i < event.stat_count; ++i) read_stat(plane.event_stats[event.first_stat + i]);
  if (out.has_group) Widen(m_groups, out.group, out.span);
  if (out.has_step) Widen(m_step_marks, out.step, out.span);
  return true;
}

void XplaneMapper::PlaneStatsAsMeta(const XPlane& plane) {
  for (const XStat& stat : plane.stats) {
    const std::string_view name = StatName(plane, stat);
    if (name.empty()) continue;
    m_writer.SetMeta(fmt::format("xplane.{}.{}", plane.name, name), StatText(plane, stat));
  }
}

void XplaneMapper::AddPlane(const XPlane& plane) {
  PlaneStatsAsMeta(plane);
  if (std::string_view(plane.name).starts_with(xla::kDevicePrefix)) {
    AddDevicePlane(plane);
  } else if (!plane.lines.empty()) {
    AddHostPlane(plane);
  }
}

void XplaneMapper::AddDevicePlane(const XPlane& plane) {
  ++m_counts.device_planes;
  std::string adapter_name(plane.name);
  for (const XStat& stat : plane.stats) {
    if (StatName(plane, stat) == "device_vendor" && stat.kind == XStat::Kind::kString) {
      adapter_name += fmt::format(" ({})", stat.text);
    }
  }
  const core::model::AdapterId adapter = m_writer.AddAdapter({adapter_name});
  core::model::ProcessId device_process = 0;  // for the device's rows, made when one is needed
  std::unordered_map<int64_t, core::model::QueueId> queues;      // line id -> queue
  std::unordered_map<int64_t, core::model::ThreadId> rows;       // line id -> thread
  EventFacts facts;
  for (const XLine& line : plane.lines) {
    if (!line.name.starts_with(xla::kStreamPrefix)) {
      // XLA Ops, XLA Modules, Steps, ...: what the device ran, told over its streams; rows of
      // their own, never queues (their time is already in the streams').
      auto [row, added] = rows.try_emplace(line.id, 0);
      if (added) {
        if (!device_process) device_process = m_writer.AddProcess({plane.id, adapter_name});
        row->second = m_writer.AddThread({device_process, line.id,
                                          core::model::ThreadKind::kRuntimeBackground,
                                          std::string(line.display_name.empty() ? line.name
                                                                                : line.display_name)});
      }
      const uint64_t before = m_counts.host_slices;
      AddSlices(plane, line, row->second, /*launches=*/false);
      m_counts.device_row_slices += m_counts.host_slices - before;
      m_counts.host_slices = before;
      continue;
    }
    // Lines with the same id are one timeline: one queue.
    auto [queue, added] = queues.try_emplace(line.id, 0);
    if (added) {
      core::model::Queue info;
      info.adapter = adapter;
      info.process = HostProcess();
      info.type = xla::StreamType(line.name);
      info.name = fmt::format("{} {}", adapter_name, line.name);
      const int64_t number = xla::StreamNumber(line.name);
      info.sort_index = static_cast<int32_t>(number >= 0 ? number : line.id);
      queue->second = m_writer.AddQueue(info);
    }
    for (const XEvent& event : line.events) {
      if (!Facts(plane, line, event, facts)) continue;
      const core::model::StringId name =
          Intern(!facts.name.empty() ? facts.name
                                     : std::string_view(fmt::format("event metadata {}",
                                                                    event.metadata_id)));
      const int64_t id = m_next_packet++;
      Packet packet;
      packet.submitted = m_sink.Add(events::PacketSubmitted{
          .ts_ns = facts.span.start, .queue_id = queue->second, .packet_id = id, .name_sid = name});
      packet.started = m_sink.Add(
          events::PacketStarted{.ts_ns = facts.span.start, .queue_id = queue->second, .packet_id = id});
      m_sink.Add(
          events::PacketCompleted{.ts_ns = facts.span.end, .queue_id = queue->second, .packet_id = id});
      packet.has_correlation = facts.has_correlation;
      packet.correlation = facts.correlation;
      m_packets.push_back(packet);
      ++m_counts.packets;
    }
  }
}

void XplaneMapper::AddHostPlane(const XPlane& plane) {
  ++m_counts.host_planes;
  const core::model::ProcessId process = HostProcess();
  std::unordered_map<int64_t, core::model::ThreadId> threads;  // line id -> thread
  for (const XLine& line : plane.lines) {
    // A host line is a thread (its id the thread id); lines with the same id are one thread.
    auto [thread, added] = threads.try_emplace(line.id, 0);
    if (added) {
      const std::string_view name = line.display_name.empty() ? line.name : line.display_name;
      thread->second = m_writer.AddThread(
          {process, line.id, core::model::ThreadKind::kApplication,
           plane.name == "/host:CPU" ? std::string(name)
                                     : fmt::format("{} {}", plane.name, name)});
    }
    AddSlices(plane, line, thread->second, /*launches=*/true);
  }
}

void XplaneMapper::AddSlices(const XPlane& plane, const XLine& line,
                             core::model::ThreadId thread, bool launches) {
  struct Slice {
    Span span;
    core::model::StringId name;
    bool has_correlation;
    int64_t correlation;
  };
  std::vector<Slice> slices;
  slices.reserve(line.events.size());
  EventFacts facts;
  for (const XEvent& event : line.events) {
    if (!Facts(plane, line, event, facts)) continue;
    const core::model::StringId name =
        Intern(!facts.name.empty()
                   ? facts.name
                   : std::string_view(fmt::format("event metadata {}", event.metadata_id)));
    slices.push_back({facts.span, name, facts.has_correlation, facts.correlation});
  }
  // Nesting depth: by start, the longer first; a slice is inside every open one that has not
  // ended by its start.
  std::vector<uint32_t> order(slices.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    if (slices[a].span.start != slices[b].span.start) {
      return slices[a].span.start < slices[b].span.start;
    }
    return slices[a].span.end > slices[b].span.end;
  });
  std::vector<TimeNs> open_ends;
  const core::model::StringId category = Intern(plane.name);
  for (uint32_t i : order) {
    const Slice& s = slices[i];
    while (!open_ends.empty() && open_ends.back() <= s.span.start) open_ends.pop_back();
    const uint32_t record = m_sink.Add(events::CpuSlice{
        .ts_ns = s.span.start,
        .thread_id = thread,
        .duration_ns = s.span.end - s.span.start,
        .name_sid = s.name,
        .category_sid = category,
        .depth = static_cast<int64_t>(open_ends.size())});
    open_ends.push_back(s.span.end);
    ++m_counts.host_slices;
    if (launches && s.has_correlation) {
      // The host call that launched the device work of this correlation: the earliest one
      // when several carry it (a runtime call around its driver call).
      auto [it, added] = m_launches.try_emplace(s.correlation, Launch{record, thread, s.span.start, s.name});
      if (!added && s.span.start < it->second.start) it->second = {record, thread, s.span.start, s.name};
    }
  }
}

void XplaneMapper::Finish() {
  // Each packet is submitted by the host call with its correlation_id (never after it started:
  // a host clock ahead of the device's keeps the packet's own start).
  for (const Packet& packet : m_packets) {
    if (!packet.has_correlation) continue;
    ++m_counts.packets_with_correlation;
    auto it = m_launches.find(packet.correlation);
    if (it == m_launches.end()) continue;
    core::store::EventRecord& submitted = m_sink.at(packet.submitted);
    submitted.ts = std::min(submitted.ts, it->second.start);
    submitted.thread = it->second.thread;
    m_sink.AddFlow(it->second.record, packet.started, core::model::FlowKind::kCpuLaunch,
                   it->second.name);
    ++m_counts.packets_linked;
  }
  // Steps: the step markers (events with step_num, as jax.profiler.StepTraceAnnotation writes
  // them), else the events of each group_id (the profiler's step grouping), each written as the
  // ProfilerStep#N slice that per-step figures, fleets and replays look for.
  const bool marked = !m_step_marks.empty();
  const std::map<int64_t, Span>& by_step = marked ? m_step_marks : m_groups;
  if (!by_step.empty()) {
    const char* from = marked ? "step_num" : "group_id";
    const core::model::ThreadId steps = m_writer.AddThread(
        {HostProcess(), -1, core::model::ThreadKind::kRuntimeBackground,
         fmt::format("Steps ({})", from)});
    const core::model::StringId category = Intern(fmt::format("xplane {}", from));
    std::vector<TimeNs> open_ends;
    std::vector<std::pair<Span, int64_t>> spans;
    for (const auto& [group, span] : by_step) spans.push_back({span, group});
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) {
      return std::tie(a.first.start, b.first.end, a.second) <
             std::tie(b.first.start, a.first.end, b.second);
    });
    for (const auto& [span, group] : spans) {
      while (!open_ends.empty() && open_ends.back() <= span.start) open_ends.pop_back();
      m_sink.Add(events::CpuSlice{.ts_ns = span.start,
                                  .thread_id = steps,
                                  .duration_ns = span.end - span.start,
                                  .name_sid = Intern(fmt::format("ProfilerStep#{}", group)),
                                  .category_sid = category,
                                  .depth = static_cast<int64_t>(open_ends.size())});
      open_ends.push_back(span.end);
      ++m_counts.steps;
    }
  }

  const XplaneCounts& c = m_counts;
  if (c.aggregate_events) {
    m_writer.CountProblem(
        "xplane_aggregate_events", core::model::Severity::kInfo,
        fmt::format("events that count occurrences (num_occurrences, {} in all) instead of "
                    "giving a time: kept out of the timeline",
                    c.aggregate_occurrences),
        c.aggregate_events, fmt::format("byte {}", m_first_aggregate_offset));
  }
  if (c.unknown_metadata) {
    m_writer.CountProblem("xplane_unknown_event_metadata", core::model::Severity::kError,
                          "events whose metadata_id names no event metadata of their plane: "
                          "kept, named 'event metadata N'",
                          c.unknown_metadata,
                          fmt::format("byte {}", m_first_unknown_metadata_offset));
  }
  if (c.bad_times) {
    m_writer.CountProblem("xplane_bad_event_times", core::model::Severity::kDataLoss,
                          "events with a negative duration or a time beyond 64-bit "
                          "nanoseconds: skipped",
                          c.bad_times, fmt::format("byte {}", m_first_bad_time_offset));
  }
  const ImportCounter counters[] = {
      {"xplane_packets_linked", c.packets_linked,
       "device kernels and copies linked to the host call with their correlation_id"},
      {"xplane_packets_not_linked", c.packets_with_correlation - c.packets_linked,
       "device kernels and copies with a correlation_id no host event carries"},
      {"xplane_device_row_slices", c.device_row_slices,
       "events of device lines other than streams (XLA Ops, XLA Modules, Steps): rows of the "
       "device's process"},
      {"xplane_steps", c.steps,
       "steps made from the step markers' step_num, else the events' group_id (ProfilerStep#N "
       "slices)"},
  };
  CountNonZero(m_writer, counters);
  m_sink.WriteTo(m_writer, 0, m_names, [](double) {});
}

}  // namespace importers::xplane
