#include "importers/chrome_json/chrome_trace_builder.h"

#include <malloc.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "core/model/error.h"
#include "importers/chrome_json/event_pairing.h"
#include "importers/chrome_json/export_topology_reader.h"
#include "importers/chrome_json/kineto_gpu_mapping.h"
#include "importers/chrome_json/mtia_gpu_mapping.h"
#include "importers/common/record_sink.h"
#include "importers/chrome_json/string_roles.h"
#include "importers/chrome_json/xla_trace_events.h"
#include "importers/common/xla_stream_name.h"
#include "importers/common/release_pages.h"

namespace importers::chrome_json {
namespace {

using core::model::EventKind;
using core::model::FlowKind;
using core::model::QueueId;
using core::model::Severity;
using core::model::ThreadId;
using core::store::EventRecord;
namespace events = core::model::events;

struct OpenSlice {
  TimeNs end = 0;
  uint32_t record = kNone;  // record flows bind to (cpu_slice, or packet_started); kNone: a sync
  uint32_t packet = kNone;  // index into CudaCollected::packets
};

struct FlowStart {
  uint32_t record = kNone;
  TimeNs ts = 0;
  ThreadId thread = 0;
  StringId name = 0;
};

class Builder {
 public:
  Builder(ParsedTrace& trace, core::store::TraceWriter& writer) : m_trace(trace), m_writer(writer) {
    m_roles.resize(trace.writer_strings.size());
    for (size_t i = 0; i < trace.writer_strings.size(); ++i) {
      m_roles[i] = RoleOf(trace.writer_strings[i]);
    }
    ResizeTrackTables();
    m_process_ids.assign(trace.processes.size(), 0);
    m_adapters.assign(trace.processes.size(), 0);
    m_is_export = trace.top_level.count("fencescopeExport") != 0;
    if (m_is_export && !trace.fencescope_topology.empty()) {
      try {
        m_topology = ReadExportTopology(trace.fencescope_topology);
        m_has_topology = true;
      } catch (const core::Error& e) {
        Count("json_export_topology_unreadable", Severity::kError,
              fmt::format("fencescope export whose fencescopeTopology could not be read ({}): "
                          "queues and threads named from the tracks instead",
                          e.what()),
              0);
      }
    }
  }

  void Run(const std::function<void(double)>& progress, bool helper_thread) {
    auto report = [&](double f) {
      if (progress) progress(f);
    };
    if (m_has_topology) WriteExportTopology();
    m_trace_end = PairBeginEnd(m_trace, m_problems);
    report(0.05);
    SortByTime(m_trace);
    report(0.15);
    PairAsync(m_trace, m_problems, m_trace_end);
    report(0.2);
    Emit(report);
    // What only the emission reads goes back before the GPU mapping builds its tables: the
    // events (their pages mostly released already) and the arguments (a Kineto trace has
    // them for each runtime call and kernel, the biggest table left).
    // (Swapped with empty vectors: assigning {} would keep their storage.)
    std::vector<ParsedEvent>().swap(m_trace.events);
    std::vector<KinetoArgs>().swap(m_trace.kineto_args);
    std::vector<ExportArgs>().swap(m_trace.export_args);
    std::vector<CounterValue>().swap(m_trace.counter_values);
    malloc_trim(0);
    FinishFlows();
    const auto queue_name = [this](QueueId queue) { return m_queue_names[queue]; };
    FenceOpIds op_ids;
    MapKinetoSynchronisation(
        m_kineto, m_sink, m_writer,
        [this](uint32_t process, int64_t stream) {
          return QueueOf(TrackOfStream(process, stream));
        },
        queue_name, op_ids);
    MapMtiaSynchronisation(
        m_mtia, m_mtia_syncs, m_kineto.packets, m_kineto.runtime_by_correlation, m_sink, m_writer,
        [this](uint32_t process, int64_t stream) -> QueueId {
          auto it = m_mtia_stream_tracks.find({process, stream});
          return it == m_mtia_stream_tracks.end() ? 0 : QueueOf(it->second);
        },
        queue_name, op_ids);
    report(0.6);
    WriteProblems();
    WriteMeta();
    // The events and the lookup tables are not needed any more. The big vectors go at once
    // (each is one mapping, unmapped in no time), before the records' sort takes its keys; the
    // tables of many small nodes are freed on another thread while the records are written
    // (hundreds of thousands of map nodes take ~10 ms), and the heap pages they leave free are
    // given back.
    std::vector<CudaPacket>().swap(m_kineto.packets);
    std::vector<CudaSync>().swap(m_kineto.syncs);
    std::vector<MtiaStreamEvent>().swap(m_mtia);
    std::vector<MtiaStreamSync>().swap(m_mtia_syncs);
    malloc_trim(0);
    struct Spent {
      std::vector<ParsedEvent> events;
      CudaCollected kineto;
      std::unordered_map<std::string, FlowStart> flows_v1;
      std::unordered_map<uint32_t, FlowStart> flows_v2;
    };
    auto spent = std::make_unique<Spent>(Spent{std::move(m_trace.events), std::move(m_kineto),
                                               std::move(m_flows_v1), std::move(m_flows_v2)});
    m_trace.events = {};
    auto free_spent = [spent = std::move(spent)]() mutable {
      spent.reset();
      malloc_trim(0);
    };
    std::jthread release;
    if (helper_thread) {
      release = std::jthread(std::move(free_spent));
    } else {
      free_spent();
    }
    m_sink.WriteTo(m_writer, m_trace.base_time_ns, m_trace.writer_strings,
                   [&](double f) { report(0.6 + 0.4 * f); });
  }

 private:
  uint16_t Role(StringId sid) const { return sid < m_roles.size() ? m_roles[sid] : 0; }

  // The export arguments of the event whose Kineto arguments are kineto_args[extra] (all
  // absent when it has none).
  const ExportArgs& ExportArgsOf(uint32_t extra) const {
    static const ExportArgs kAbsent;
    const uint32_t index = m_trace.kineto_args[extra].exported;
    return index == kNone ? kAbsent : m_trace.export_args[index];
  }

  void Count(const std::string& name, Severity severity, std::string_view description,
             uint64_t offset, uint64_t count = 1) {
    m_problems.Count(name, severity, description, offset, count);
  }

  void ResizeTrackTables() {
    const size_t n = m_trace.tracks.size();
    m_threads.resize(n, 0);
    m_queues.resize(n, 0);
    m_stacks.resize(n);
    m_pending.resize(n);
    m_has_kernel.resize(n, false);
  }

  // ---- topology -------------------------------------------------------------------------
  std::string KeyText(const IdKey& key) const {
    return key.is_string ? m_trace.local_strings[key.value] : std::to_string(key.value);
  }

  core::model::ProcessId ProcessIdOf(uint32_t process) {
    if (m_process_ids[process]) return m_process_ids[process];
    const ProcessEntry& entry = m_trace.processes[process];
    if (auto it = m_export_processes.find(entry.pid.value);
        !entry.pid.is_string && it != m_export_processes.end()) {
      return m_process_ids[process] = it->second;
    }
    core::model::Process info;
    info.pid = entry.pid.is_string ? 0 : entry.pid.value;
    info.name = entry.name;
    if (!entry.labels.empty()) {
      info.name = info.name.empty() ? entry.labels : fmt::format("{} ({})", entry.labels, info.name);
    }
    // A pid written as a string ("Spans") names the process itself, as a string tid names its
    // thread; a numeric one is only a number.
    if (info.name.empty()) {
      info.name = entry.pid.is_string ? KeyText(entry.pid)
                                      : core::model::UnnamedProcessName(entry.pid.value);
    }
    return m_process_ids[process] = m_writer.AddProcess(info);
  }

  ThreadId ThreadOf(uint32_t track_index) {
    if (m_threads[track_index]) return m_threads[track_index];
    const Track& track = m_trace.tracks[track_index];
    if (auto it = m_export_threads.find(ExportKey(track)); it != m_export_threads.end()) {
      return m_threads[track_index] = it->second;
    }
    core::model::Thread info;
    info.process = ProcessIdOf(track.process);
    info.tid = track.tid.is_string ? 0 : track.tid.value;
    info.name = track.name;
    if (info.name.empty()) {
      info.name = track.tid.is_string ? KeyText(track.tid)
                                      : fmt::format("thread {}", track.tid.value);
    }
    info.sort_index = track.sort_index;
    return m_threads[track_index] = m_writer.AddThread(info);
  }

  core::model::AdapterId AdapterOf(uint32_t process) {
    if (m_adapters[process]) return m_adapters[process];
    const ProcessEntry& entry = m_trace.processes[process];
    core::model::Adapter info;
    info.name = !entry.labels.empty()        ? entry.labels
                : xla::IsDeviceName(entry.name) ? entry.name  // "/device:GPU:0", as XSpace's
                                                : fmt::format("GPU {}", KeyText(entry.pid));
    return m_adapters[process] = m_writer.AddAdapter(info);
  }

  // Each device stream (GPU pid, tid = stream) is one queue (issue 7).
  QueueId QueueOf(uint32_t track_index) {
    if (m_queues[track_index]) return m_queues[track_index];
    const Track& track = m_trace.tracks[track_index];
    if (auto it = m_export_queues.find(ExportKey(track)); it != m_export_queues.end()) {
      return m_queues[track_index] = it->second;
    }
    const ProcessEntry& process = m_trace.processes[track.process];
    core::model::Queue info;
    info.adapter = AdapterOf(track.process);
    info.process = ProcessIdOf(track.process);
    info.type = m_has_kernel[track_index] ? core::model::QueueType::kCompute
                                          : core::model::QueueType::kOther;
    // Device, stream id, then the stream's own name when the trace gives one (thread_name
    // metadata other than Kineto's "stream N").
    std::string name = track.name;
    while (!name.empty() && name.back() == ' ') name.pop_back();
    const std::string tid = KeyText(track.tid);
    const std::string stream =
        track.tid.is_string && tid.rfind("stream ", 0) == 0 ? tid : fmt::format("stream {}", tid);
    const std::string device = !process.labels.empty() ? process.labels
                               : !process.name.empty()
                                   ? process.name
                                   : fmt::format("GPU {}", KeyText(process.pid));
    if (auto mtia = m_mtia_stream_of_track.find(track_index);
        mtia != m_mtia_stream_of_track.end()) {
      // An MTIA stream's track has an id of its own; the stream is args.stream, which its
      // thread_name ("Stream 108") already says when it has one.
      info.name = name.empty() ? fmt::format("{} Stream {}", device, mtia->second)
                               : fmt::format("{} {}", device, name);
    } else if (xla::IsDeviceName(process.name) && xla::IsStreamName(name)) {
      // The XLA profiler's stream, named as the XSpace importer names it.
      info.name = fmt::format("{} {}", device, name);
      info.type = xla::StreamType(name);
    } else {
      info.name = name.empty() || name == stream || name == tid
                      ? fmt::format("{} {}", device, stream)
                      : fmt::format("{} {} ({})", device, stream, name);
    }
    info.sort_index = track.has_sort_index ? track.sort_index
                                           : static_cast<int32_t>(track.tid.value);
    m_queues[track_index] = m_writer.AddQueue(info);
    m_queue_names[m_queues[track_index]] = info.name;
    return m_queues[track_index];
  }

  // fencescope's own export: its track (pid, tid), or (-1, -1) for a track named by strings.
  static std::pair<int64_t, int64_t> ExportKey(const Track& track) {
    if (track.pid.is_string || track.tid.is_string) return {-1, -1};
    return {track.pid.value, track.tid.value};
  }

  // fencescope's own export: the exported trace's adapters, engines, processes, queues,
  // contexts, threads and fences as they were (names, types, pids, tids, handles), so that the
  // queue identities survive the round trip; the tracks and fence boxes of the file map to them.
  void WriteExportTopology() {
    const ExportTopology& t = m_topology;
    std::unordered_map<uint32_t, core::model::AdapterId> adapters;
    std::unordered_map<uint32_t, core::model::EngineId> engines;
    std::unordered_map<uint32_t, core::model::ProcessId> processes;
    std::unordered_map<uint32_t, QueueId> queues;
    auto id = [](const auto& map, uint32_t key) -> uint32_t {
      auto it = map.find(key);
      return it == map.end() ? 0 : it->second;
    };
    for (const auto& a : t.adapters) {
      adapters[a.id] = m_writer.AddAdapter({a.name, a.luid, a.native_fences, a.optimized_interrupts,
                                            a.preemption_graphics, a.preemption_compute});
    }
    for (const auto& e : t.engines) {
      engines[e.id] = m_writer.AddEngine({id(adapters, e.adapter), e.type, e.ordinal, e.name});
    }
    for (size_t i = 0; i < t.processes.size(); ++i) {
      const auto& p = t.processes[i];
      processes[p.id] = m_writer.AddProcess({p.pid, p.name});
      m_export_processes[t.process_track_pids[i]] = processes[p.id];
    }
    for (size_t i = 0; i < t.queues.size(); ++i) {
      const auto& q = t.queues[i];
      const QueueId queue =
          m_writer.AddQueue({id(engines, q.engine), id(adapters, q.adapter), q.type, q.priority,
                             id(processes, q.process), q.name, q.sort_index});
      queues[q.id] = queue;
      m_export_queues[{t.queue_tracks[i].pid, t.queue_tracks[i].tid}] = queue;
      m_queue_names[queue] = q.name;
    }
    for (const auto& c : t.contexts) {
      m_writer.AddContext({id(processes, c.process), id(queues, c.queue), c.handle, c.name});
    }
    for (size_t i = 0; i < t.threads.size(); ++i) {
      const auto& th = t.threads[i];
      m_export_threads[{t.thread_tracks[i].pid, t.thread_tracks[i].tid}] =
          m_writer.AddThread({id(processes, th.process), th.tid, th.kind, th.name, th.sort_index});
    }
    for (const auto& f : t.fences) {
      m_fences[f.id] = m_writer.AddFence({f.name, f.kind, f.shared, id(adapters, f.owner_adapter),
                                          f.adapter_mask, f.initial_value, f.handle});
    }
  }

  // The process of a numeric pid (an MTIA runtime call's args.device), kNone when none has it.
  uint32_t ProcessOfPid(int64_t pid) const {
    for (uint32_t i = 0; i < m_trace.processes.size(); ++i) {
      const IdKey& key = m_trace.processes[i].pid;
      if (!key.is_string && key.value == pid) return i;
    }
    return kNone;
  }

  uint32_t TrackOfStream(uint32_t process, int64_t stream) {
    if (m_stream_tracks.empty()) {
      for (uint32_t i = 0; i < m_trace.tracks.size(); ++i) {
        const Track& t = m_trace.tracks[i];
        if (!t.tid.is_string) m_stream_tracks.emplace(std::make_pair(t.process, t.tid.value), i);
      }
    }
    auto it = m_stream_tracks.find({process, stream});
    if (it != m_stream_tracks.end()) return it->second;
    Track track;
    track.pid = m_trace.processes[process].pid;
    track.tid = IdKey{stream, false};
    track.process = process;
    m_trace.tracks.push_back(track);
    ResizeTrackTables();
    const uint32_t index = static_cast<uint32_t>(m_trace.tracks.size() - 1);
    m_stream_tracks.emplace(std::make_pair(process, stream), index);
    return index;
  }

  // ---- emission -------------------------------------------------------------------------
  // The innermost slice on the track that contains ts.
  const OpenSlice* Enclosing(uint32_t track, TimeNs ts) const {
    const auto& stack = m_stacks[track];
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
      if (it->end >= ts) return &*it;
    }
    return nullptr;
  }

  void Connect(const FlowStart& from, const OpenSlice& to, const ParsedEvent& e) {
    FlowKind kind = FlowKind::kGeneric;
    if (to.packet != kNone) {
      // A flow into a device packet is its CPU launch (Kineto ac2g): the packet was submitted
      // when the runtime call ran.
      kind = FlowKind::kCpuLaunch;
      CudaPacket& packet = m_kineto.packets[to.packet];
      EventRecord& submitted = m_sink.at(packet.submitted_record);
      if (submitted.thread == 0 || from.ts < submitted.ts) {
        submitted.ts = std::min(from.ts, submitted.ts);
        submitted.thread = from.thread;
        packet.submit = submitted.ts;
        packet.thread = from.thread;
      }
    }
    m_sink.AddFlow(from.record, to.record, kind, e.name ? e.name : from.name);
  }

  // A device packet (a kernel, memcpy, memset, or an MTIA stream's work): submitted, started
  // and completed records; `open` becomes its slice for the flows that end on it. False when
  // the packet never started (fencescope's export), which leaves nothing open for flows.
  bool EmitPacket(const ParsedEvent& e, OpenSlice& open) {
    const Track& track = m_trace.tracks[e.track];
    const QueueId queue = QueueOf(e.track);
    const int64_t id = m_next_packet++;
    // fencescope's export marks packets the trace never started or completed.
    const ExportArgs* exported =
        m_is_export && e.extra != kNone ? &ExportArgsOf(e.extra) : nullptr;
    const events::PacketSubmitted submitted{
        .ts_ns = exported && exported->submitted_ns >= 0 ? exported->submitted_ns : e.ts,
        .queue_id = queue,
        .packet_id = id,
        .name_sid = e.name};
    CudaPacket packet;
    packet.queue = queue;
    packet.process = track.process;
    packet.submitted_record = m_sink.Add(submitted);
    packet.submit = submitted.ts_ns;
    packet.start = e.ts;
    packet.end = e.ts + e.dur;
    if (!m_is_export && e.extra != kNone) {
      packet.correlation = m_trace.kineto_args[e.extra].correlation;
    }
    if (exported && exported->not_started) {
      m_stacks[e.track].push_back({e.ts, kNone, kNone});
      return false;
    }
    open.record =
        m_sink.Add(events::PacketStarted{.ts_ns = e.ts, .queue_id = queue, .packet_id = id});
    if (!(exported && exported->open)) {
      m_sink.Add(
          events::PacketCompleted{.ts_ns = e.ts + e.dur, .queue_id = queue, .packet_id = id});
    }
    packet.started_record = open.record;
    open.packet = static_cast<uint32_t>(m_kineto.packets.size());
    m_kineto.packets.push_back(packet);
    return true;
  }

  // An MTIA stream's work other than its DMA, records and waits (pe_exe, and the executables
  // runFunction starts: merge, remote, ...): what makes it a compute queue.
  bool IsMtiaComputeJob(const ParsedEvent& e) const {
    return (Role(e.cat) & kMtiaDeviceCat) && !(Role(e.name) & (kMtiaRecordName | kMtiaWaitName)) &&
           m_trace.writer_strings[e.name] != "dma_request";
  }

  // An MTIA device event (mtia_gpu_mapping.h): event_record and event_wait are kept for the
  // mapping (no record of their own, like cuda_sync events), the rest are packets. The stream
  // (args.stream) names the track, for the waits that name it.
  bool EmitMtiaEvent(const ParsedEvent& e, OpenSlice& open) {
    const uint32_t process = m_trace.tracks[e.track].process;
    const KinetoArgs* args = e.extra != kNone ? &m_trace.kineto_args[e.extra] : nullptr;
    if (args && args->stream >= 0) {
      m_mtia_stream_tracks.try_emplace({process, args->stream}, e.track);
      m_mtia_stream_of_track.try_emplace(e.track, args->stream);
    }
    const uint16_t name_role = Role(e.name);
    if (!(name_role & (kMtiaRecordName | kMtiaWaitName))) return EmitPacket(e, open);
    MtiaStreamEvent event;
    event.wait = (name_role & kMtiaWaitName) != 0;
    event.ts = e.ts;
    event.end = e.ts + e.dur;
    event.process = process;
    if (args) {
      event.stream = args->stream;
      event.wait_on_stream = args->wait_on_stream;
      event.correlation = args->correlation;
    }
    event.queue = QueueOf(e.track);
    m_mtia.push_back(event);
    open.record = kNone;
    return true;
  }

  void EmitSlice(const ParsedEvent& e) {
    auto& stack = m_stacks[e.track];
    while (!stack.empty() && stack.back().end <= e.ts) {
      stack.pop_back();
    }
    const Track& track = m_trace.tracks[e.track];
    const bool device = m_trace.processes[track.process].gpu_device;
    const uint16_t role = Role(e.cat);
    OpenSlice open;
    open.end = e.ts + e.dur;
    if (device && (role & kMtiaDeviceCat)) {
      if (!EmitMtiaEvent(e, open)) return;
    } else if (device && (role & kPacketCategory)) {
      if (!EmitPacket(e, open)) return;
    } else if (device && (role & kSyncCategory)) {
      AddSync(e);
      open.record = kNone;
    } else if (m_is_export && e.extra != kNone &&
               ((role & kExportSignalCat) || (device && (role & kExportWaitCat)) ||
                (!device && (role & kExportCpuWaitCat)))) {
      EmitExportedBox(e, device, role);
      open.record = kNone;
    } else {
      if (role & kUnmappedDeviceCat) CountUnmappedDeviceEvent(e);
      const events::CpuSlice slice{.ts_ns = e.ts,
                                   .thread_id = ThreadOf(e.track),
                                   .duration_ns = e.dur,
                                   .name_sid = e.name,
                                   .category_sid = e.cat,
                                   .depth = static_cast<int64_t>(stack.size())};
      open.record = m_sink.Add(slice);
      // Runtime calls are the host's (MTIA's device tracks repeat some, under the same
      // correlation ids).
      if ((role & kRuntimeCategory) && !device && e.extra != kNone) {
        const KinetoArgs& args = m_trace.kineto_args[e.extra];
        if (args.correlation >= 0) {
          CudaRuntimeCall call;
          call.ts = e.ts;
          call.end = e.ts + e.dur;
          call.thread = slice.thread_id;
          call.record = open.record;
          call.event_record = (Role(e.name) & kEventRecordName) != 0;
          call.stream_wait = (Role(e.name) & kStreamWaitName) != 0;
          m_kineto.runtime_by_correlation[args.correlation] = call;
        }
        if ((Role(e.name) & kMtiaStreamSyncName) && args.stream >= 0) {
          m_mtia_syncs.push_back({.ts = e.ts,
                                  .end = e.ts + e.dur,
                                  .thread = slice.thread_id,
                                  .process = ProcessOfPid(args.device),
                                  .stream = args.stream});
        }
      }
    }
    stack.push_back(open);
    if (open.record == kNone) return;
    // Flow ends waiting for "the next slice" on this thread (flow v1 'f' without bp:"e").
    for (const FlowStart& from : m_pending[e.track]) Connect(from, open, e);
    m_pending[e.track].clear();
    // Flow v2 (trace-formats §1.6): bind_id with flow_in (consumer) / flow_out (producer).
    if (e.bind_id != kNone) {
      if (e.bits & kFlowIn) {
        auto it = m_flows_v2.find(e.bind_id);
        if (it != m_flows_v2.end()) {
          Connect(it->second, open, e);
        } else {
          Count("json_flow_v2_no_producer", Severity::kInfo,
                "flow v2 consumers (flow_in) whose bind_id has no earlier producer", e.offset);
        }
      }
      if (e.bits & kFlowOut) {
        // For an X producer the arrow leaves at its end.
        m_flows_v2[e.bind_id] =
            FlowStart{open.record, open.end, m_threads[e.track], e.name};
      }
    }
  }

  core::model::FenceId FenceOf(int64_t key, StringId name) {
    auto it = m_fences.find(key);
    if (it != m_fences.end()) return it->second;
    core::model::Fence info;
    info.name = name ? m_trace.writer_strings[name] : fmt::format("fence {}", key);
    return m_fences[key] = m_writer.AddFence(info);
  }

  // A signal / wait / CPU-wait box of fencescope's export becomes the records it was made from.
  void EmitExportedBox(const ParsedEvent& e, bool device, uint16_t role) {
    const ExportArgs& args = ExportArgsOf(e.extra);
    const core::model::FenceId fence = args.fence > 0 ? FenceOf(args.fence, e.name) : 0;
    const TimeNs end = e.ts + e.dur;
    const core::model::FenceValue value = args.fence_value;
    auto add = [&](const auto& first, const auto& second) {
      m_sink.Add(first);
      if (!args.open) m_sink.Add(second);
    };
    if (role & kExportSignalCat) {
      const int64_t op = args.signal_id > 0 ? args.signal_id : m_next_signal_op++;
      if (!device) {
        m_sink.Add(events::FenceCpuSignal{.ts_ns = e.ts,
                                          .thread_id = ThreadOf(e.track),
                                          .fence_id = fence,
                                          .fence_value = value,
                                          .signal_id = op});
        return;
      }
      const QueueId queue = QueueOf(e.track);
      add(events::FenceSignalQueued{.ts_ns = e.ts,
                                    .queue_id = queue,
                                    .fence_id = fence,
                                    .fence_value = value,
                                    .signal_id = op},
          events::FenceSignalExecuted{.ts_ns = end,
                                      .queue_id = queue,
                                      .fence_id = fence,
                                      .fence_value = value,
                                      .signal_id = op});
    } else if (role & kExportWaitCat) {
      const int64_t op = m_next_wait_op++;
      const QueueId queue = QueueOf(e.track);
      add(events::FenceWaitQueued{.ts_ns = e.ts,
                                  .queue_id = queue,
                                  .fence_id = fence,
                                  .fence_value = value,
                                  .wait_id = op},
          events::FenceWaitUnblocked{
              .ts_ns = end,
              .queue_id = queue,
              .fence_id = fence,
              .fence_value = value,
              .wait_id = op,
              .released_by_signal_id = std::max<int64_t>(0, args.signal_id)});
    } else {
      const int64_t op = m_next_waiter_op++;
      const ThreadId thread = ThreadOf(e.track);
      add(events::CpuWaitBegin{.ts_ns = e.ts,
                               .thread_id = thread,
                               .fence_id = fence,
                               .fence_value = value,
                               .waiter_id = op},
          events::CpuWaitReleased{.ts_ns = end,
                                  .thread_id = thread,
                                  .fence_id = fence,
                                  .fence_value = value,
                                  .waiter_id = op});
    }
  }

  void AddSync(const ParsedEvent& e) {
    const std::string& name = m_trace.writer_strings[e.name];
    CudaSync sync;
    if (name == "Stream Wait Event") sync.kind = CudaSyncKind::kStreamWait;
    else if (name == "Event Sync") sync.kind = CudaSyncKind::kEventSync;
    else if (name == "Stream Sync") sync.kind = CudaSyncKind::kStreamSync;
    else if (name == "Context Sync") sync.kind = CudaSyncKind::kContextSync;
    else {
      Count("kineto_sync_unknown", Severity::kInfo,
            "cuda_sync events of a kind not mapped (not Stream Wait Event / Event Sync / Stream "
            "Sync / Context Sync)",
            e.offset);
      return;
    }
    if (e.extra == kNone) {
      Count("kineto_sync_without_args", Severity::kError,
            "cuda_sync events without the correlation / wait_on_* arguments (dropped)", e.offset);
      return;
    }
    const Track& track = m_trace.tracks[e.track];
    sync.ts = e.ts;
    sync.end = e.ts + e.dur;
    sync.process = track.process;
    sync.stream = track.tid.is_string ? -1 : track.tid.value;
    const KinetoArgs& args = m_trace.kineto_args[e.extra];
    sync.args = {.correlation = args.correlation,
                 .stream = args.stream,
                 .wait_on_stream = args.wait_on_stream,
                 .wait_on_record_correlation = args.wait_on_record_correlation,
                 .wait_on_event_id = args.wait_on_event_id};
    sync.offset = e.offset;
    m_kineto.syncs.push_back(sync);
  }

  std::string IdText(const ParsedEvent& e) const {
    if (!(e.bits & kIdIsString)) return std::to_string(e.id);
    const std::string& key = m_trace.local_strings[e.id];
    const size_t colon = key.find(':');  // "scope:id[:pid]"
    return colon == std::string::npos ? key : key.substr(colon + 1);
  }


  void EmitCounter(const ParsedEvent& e) {
    const Track& track = m_trace.tracks[e.track];
    const core::model::ProcessId process = ProcessIdOf(track.process);
    for (uint32_t i = 0; i < e.extra_count; ++i) {
      const CounterValue& v = m_trace.counter_values[e.extra + i];
      auto key = std::make_tuple(process, e.name, (e.bits & kHasId) ? IdText(e) : std::string(),
                                 v.key);
      auto it = m_series.find(key);
      if (it == m_series.end()) {
        core::model::CounterSeries info;
        info.process = process;
        // Series per args key; an id makes the counter "name[id]" (trace-formats §1.5).
        info.name = m_trace.writer_strings[e.name];
        // (Appended piece by piece: "[" + text makes GCC 12 warn of an overlapping copy that
        // cannot happen, -Wrestrict.)
        if (e.bits & kHasId) info.name.append("[").append(IdText(e)).append("]");
        info.name.append(".").append(m_trace.writer_strings[v.key]);
        it = m_series.emplace(key, m_writer.AddCounterSeries(info)).first;
      }
      m_writer.AddCounterSample(it->second, e.ts + m_trace.base_time_ns, v.value);
    }
    if (e.extra_count == 0) {
      Count("json_counter_without_values", Severity::kInfo,
            "'C' events whose args hold no numeric value", e.offset);
    }
  }

  void EmitFlowV1(const ParsedEvent& e) {
    if (m_is_export && (Role(e.cat) & kExportArrowCat)) return;  // mirrored by signal_id args
    if (!(e.bits & kHasId)) {
      Count("json_flow_without_id", Severity::kError, "flow events without an 'id' (dropped)",
            e.offset);
      return;
    }
    // Flow v1 identity: category + name + id (catapult fullFlowId).
    const std::string key = PairingKey(e.cat, e.name, e);
    const OpenSlice* enclosing = Enclosing(e.track, e.ts);
    const bool bindable = enclosing && enclosing->record != kNone;
    if (enclosing && enclosing->record == kNone) {
      Count("kineto_sync_flow", Severity::kInfo,
            "flow events on cuda_sync events or MTIA event records and waits (they became fence "
            "records; the arrow is not kept)",
            e.offset);
    }
    if (e.ph == 's') {
      if (!bindable) {
        if (!enclosing) {
          Count("json_flow_unbound", Severity::kInfo,
                "flow events with no slice to bind to at their time and thread (dropped)",
                e.offset);
        }
        return;
      }
      m_flows_v1[key] = FlowStart{enclosing->record, e.ts, ThreadOf(e.track), e.name};
      return;
    }
    auto it = m_flows_v1.find(key);
    if (it == m_flows_v1.end()) {
      if (e.ph == 'f' && enclosing && enclosing->packet != kNone &&
          m_kineto.packets[enclosing->packet].correlation >= 0) {
        // A second end of one launch flow: the nodes of a cudaGraphLaunch share its correlation
        // id. The kernel is linked to the call by that id (kineto_gpu_mapping.h).
        Count("kineto_launch_flow_shared", Severity::kInfo,
              "launch flow ends on kernels whose flow already ended on another kernel (graph "
              "nodes of one launch): linked to the launch call by correlation id",
              e.offset);
        return;
      }
      Count("json_flow_unmatched_end", Severity::kInfo,
            "flow 't'/'f' events with no earlier 's' of the same category, name and id", e.offset);
      return;
    }
    if (e.ph == 't') {
      if (bindable) {
        Connect(it->second, *enclosing, e);
        it->second.record = enclosing->record;
        it->second.ts = e.ts;
        it->second.thread = ThreadOf(e.track);
      }
      return;
    }
    // 'f': bp "e" (and the input / ipc.flow categories) bind to the enclosing slice; otherwise
    // to the next slice that starts on the thread (catapult's rule).
    const FlowStart from = it->second;
    m_flows_v1.erase(it);
    if ((e.bits & kBindEnclosing) || (Role(e.cat) & kEnclosingFlowCat)) {
      if (bindable) {
        Connect(from, *enclosing, e);
      } else if (!enclosing) {
        Count("json_flow_unbound", Severity::kInfo,
              "flow events with no slice to bind to at their time and thread (dropped)", e.offset);
      }
      return;
    }
    m_pending[e.track].push_back(from);
  }

  void Emit(const std::function<void(double)>& report) {
    size_t runtime_calls = 0, device_packets = 0, device_syncs = 0;
    for (const ParsedEvent& e : m_trace.events) {
      const bool slice = (e.ph == 'X' || e.ph == 'B') && !(e.bits & kConsumed);
      if (slice && (e.bits & kHasDuration) &&
          ((Role(e.cat) & kKernelCategory) || IsMtiaComputeJob(e))) {
        m_has_kernel[e.track] = true;
      }
      if (slice && m_trace.processes[m_trace.tracks[e.track].process].gpu_device) {
        if (Role(e.cat) & kPacketCategory) ++device_packets;
        else if (Role(e.cat) & kSyncCategory) ++device_syncs;
      }
      if (e.extra != kNone && (Role(e.cat) & kRuntimeCategory)) ++runtime_calls;
    }
    // Sized once: growing it call by call rehashes it a dozen times on a big Kineto trace.
    m_kineto.runtime_by_correlation.reserve(runtime_calls);
    // Likewise the packets and syncs (at most one each per such slice): a vector that grows
    // holds its old and new storage at once, at the import's busiest moment.
    m_kineto.packets.reserve(device_packets);
    m_kineto.syncs.reserve(device_syncs);
    const size_t n = m_trace.events.size();
    const void* released = m_trace.events.data();  // the memory before it was given back
    for (size_t i = 0; i < n; ++i) {
      if ((i & 0x1FFF) == 0) {
        if ((i & 0xFFFF) == 0) report(0.2 + 0.3 * static_cast<double>(i) / std::max<size_t>(n, 1));
        // Events are read once, in order: those before i are records now, and their memory
        // goes back while the records grow (the two together were the import's peak). Looked
        // at every 8192 events (576 KB); what was given back is not asked again.
        released = ReleaseFinishedPages(released, m_trace.events.data() + i);
      }
      const ParsedEvent& e = m_trace.events[i];
      if (e.bits & kConsumed) continue;
      switch (e.ph) {
        case 'X':
        case 'B':
          EmitSlice(e);
          break;
        case 'i':
        case 'I':
        case 'R': {
          events::Instant instant{
              .ts_ns = e.ts, .name_sid = e.name, .category_sid = e.cat, .scope = e.scope};
          const auto key = ExportKey(m_trace.tracks[e.track]);
          if (auto queue = m_export_queues.find(key); queue != m_export_queues.end()) {
            instant.queue_id = queue->second;  // fencescope's export: an instant on a queue
          } else if (!m_has_topology || m_export_threads.count(key)) {
            instant.thread_id = e.scope == 2 ? 0 : ThreadOf(e.track);
          }  // else an adapter-wide instant of the export (an interrupt no queue raised)
          m_sink.Add(instant);
          break;
        }
        case 'C':
          EmitCounter(e);
          break;
        case 'b':
        case 'n':
        case 'S': {
          m_sink.Add(events::AsyncSlice{
              .ts_ns = e.ts,
              .thread_id = ThreadOf(e.track),
              // Numeric ids as they are; string ids as negative local indices.
              .async_id = (e.bits & kIdIsString) ? -static_cast<int64_t>(e.id) - 1
                                                 : static_cast<int64_t>(e.id),
              .duration_ns = std::max<TimeNs>(0, e.dur),
              .name_sid = e.name,
              .category_sid = e.cat,
              .process_id = ProcessIdOf(m_trace.tracks[e.track].process)});
          break;
        }
        case 's':
        case 't':
        case 'f':
          EmitFlowV1(e);
          break;
        case 'N':
        case 'O':
        case 'D':
          Count("json_object_events", Severity::kInfo,
                "object created / snapshot / destroyed events (N/O/D): counted, not kept",
                e.offset);
          break;
        case 'P':
          Count("json_sample_events", Severity::kInfo, "stack sample events (P): counted, not kept",
                e.offset);
          break;
        case 'c':
          Count("json_clock_sync_events", Severity::kInfo,
                "clock sync events (c): counted, not used (one clock domain per trace)", e.offset);
          break;
        default:
          Count(fmt::format("json_unknown_phase_{}", e.ph), Severity::kInfo,
                fmt::format("events with the phase '{}', which fencescope does not read (skipped)",
                            e.ph),
                e.offset);
          break;
      }
    }
  }

  void FinishFlows() {
    if (!m_flows_v1.empty()) {
      Count("json_flow_unmatched_start", Severity::kInfo,
            "flow 's' events never finished by an 'f'", 0, m_flows_v1.size());
    }
    uint64_t pending = 0;
    for (const auto& list : m_pending) pending += list.size();
    if (pending) {
      Count("json_flow_unbound", Severity::kInfo,
            "flow events with no slice to bind to at their time and thread (dropped)", 0, pending);
    }
  }

  // cuda_profiler_range, the only category of kUnmappedDeviceCat.
  void CountUnmappedDeviceEvent(const ParsedEvent& e) {
    Count("kineto_cupti_range_profiler", Severity::kInfo,
          "cuda_profiler_range events: CUPTI range-profiler counters per kernel (the kernels "
          "are replayed one at a time, so their times are no GPU timeline); kept as slices, "
          "no packets",
          e.offset);
  }

  void WriteProblems() {
    if (m_trace.bad_events_skipped) {
      Count("json_bad_event", Severity::kDataLoss,
            "malformed events skipped by --lenient (first one: " + m_trace.first_bad_event + ")", 0,
            m_trace.bad_events_skipped);
    }
    m_problems.WriteTo(m_writer);
  }

  void WriteMeta() {
    m_writer.SetMeta("clock", "chrome-trace-us");
    for (const auto& [key, value] : m_trace.top_level) m_writer.SetMeta("json." + key, value);
    if (!m_kineto.packets.empty() || !m_kineto.syncs.empty() || !m_mtia.empty() ||
        !m_mtia_syncs.empty()) {
      m_writer.SetMeta("gpu_mapping", "kineto");
    }
    if (m_has_topology) {
      // The exported trace's span, which may begin before its first record.
      m_writer.SetMeta("start_ns", std::to_string(m_topology.start_ns + m_trace.base_time_ns));
      m_writer.SetMeta("end_ns", std::to_string(m_topology.end_ns + m_trace.base_time_ns));
    }
  }

  ParsedTrace& m_trace;
  core::store::TraceWriter& m_writer;
  RecordSink m_sink;
  CudaCollected m_kineto;
  std::vector<MtiaStreamEvent> m_mtia;
  std::vector<MtiaStreamSync> m_mtia_syncs;
  // MTIA device streams: (device process, args.stream) -> track, and back.
  std::map<std::pair<uint32_t, int64_t>, uint32_t> m_mtia_stream_tracks;
  std::unordered_map<uint32_t, int64_t> m_mtia_stream_of_track;
  std::vector<uint16_t> m_roles;
  std::vector<ThreadId> m_threads;
  std::vector<QueueId> m_queues;
  std::unordered_map<QueueId, std::string> m_queue_names;
  std::vector<bool> m_has_kernel;
  std::vector<core::model::ProcessId> m_process_ids;
  std::vector<core::model::AdapterId> m_adapters;
  std::vector<std::vector<OpenSlice>> m_stacks;
  std::vector<std::vector<FlowStart>> m_pending;
  std::map<std::pair<uint32_t, int64_t>, uint32_t> m_stream_tracks;
  std::unordered_map<std::string, FlowStart> m_flows_v1;
  std::unordered_map<uint32_t, FlowStart> m_flows_v2;
  std::map<std::tuple<uint32_t, uint32_t, std::string, uint32_t>, core::model::CounterSeriesId>
      m_series;
  ProblemTally m_problems;
  std::unordered_map<int64_t, core::model::FenceId> m_fences;
  bool m_is_export = false;
  bool m_has_topology = false;
  ExportTopology m_topology;
  // fencescope's export: track (pid, tid) -> queue / thread, track pid -> process.
  std::map<std::pair<int64_t, int64_t>, QueueId> m_export_queues;
  std::map<std::pair<int64_t, int64_t>, ThreadId> m_export_threads;
  std::unordered_map<int64_t, core::model::ProcessId> m_export_processes;
  TimeNs m_trace_end = 0;
  int64_t m_next_packet = 1;
  int64_t m_next_signal_op = int64_t{1} << 40;  // above any exported signal_id
  int64_t m_next_wait_op = 1;
  int64_t m_next_waiter_op = 1;
};

}  // namespace

void BuildTrace(ParsedTrace& trace, core::store::TraceWriter& writer,
                const std::function<void(double)>& progress, bool helper_thread) {
  const XlaTraceCounts xla = MarkXlaDeviceStreams(trace, [&](std::string_view text) {
    const StringId id = writer.Intern(text);
    if (trace.writer_strings.size() <= id) trace.writer_strings.resize(id + 1);
    trace.writer_strings[id] = std::string(text);
    return id;
  });
  if (xla.device_processes) {
    writer.SetMeta("xla_device_processes", std::to_string(xla.device_processes));
    writer.SetMeta("xla_streams", std::to_string(xla.streams));
    writer.SetMeta("xla_stream_events", std::to_string(xla.packets));
    writer.SetMeta("xla_host_launches", std::to_string(xla.launches));
  }
  Builder builder(trace, writer);
  builder.Run(progress, helper_thread);
}

}  // namespace importers::chrome_json
