#include "importers/nsys/nsys_trace_builder.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "core/model/event_fields.h"
#include "importers/common/cuda_packet_records.h"
#include "importers/common/cuda_sync_mapping.h"
#include "importers/common/import_counters.h"
#include "importers/common/nested_cpu_slices.h"
#include "importers/common/record_sink.h"
#include "importers/common/step_ranges.h"
#include "importers/nsys/nsys_sync_kind.h"

namespace importers::nsys {
namespace {

using core::model::QueueId;
using core::model::StringId;
using core::model::ThreadId;
using core::model::TimeNs;
using cuda::CudaSyncKind;
using cuda::kNone;
namespace events = core::model::events;

// CUpti_ActivityMemcpyKind, as Kineto names memcpys ("Memcpy HtoD").
const char* CopyKindName(int64_t kind) {
  static const char* const kNames[] = {"",     "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                       "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"};
  return kind > 0 && kind < 11 ? kNames[kind] : "";
}

class Builder {
 public:
  Builder(NsysCapture& c, const std::string& label, core::store::TraceWriter& writer)
      : m_c(c), m_label(label), m_w(writer) {}

  void Run(const std::function<void(double)>& progress) {
    auto report = [&](double f) {
      if (progress) progress(f);
    };
    NumberProcesses();
    KeepRecordTimestamps();
    EmitCpuSlices();
    std::vector<NsysCall>().swap(m_c.calls);
    EmitPackets();
    std::vector<NsysActivity>().swap(m_c.activities);
    CollectSyncs();
    LinkNullStreams();
    std::vector<NsysSyncRow>().swap(m_c.syncs);
    std::vector<NsysEventRecord>().swap(m_c.event_records);
    report(0.2);
    cuda::FenceOpIds ids;
    const auto queue_name = [this](QueueId q) { return m_queue_names[q]; };
    const cuda::CudaSyncCounts n = cuda::MapCudaSynchronisation(
        m_cuda, m_sink, m_w,
        [this](uint32_t device, int64_t stream) { return QueueOf(device, stream, false); },
        queue_name, ids);
    WriteCounts(n);
    WriteMeta();
    // The mapping's tables go back before the records are sorted and written (the peak).
    m_cuda = {};
    m_call_names = {};
    report(0.4);
    // The session's start (UTC) is the clock's origin: the ranks of a job, each exported on its
    // own, line up in a fleet.
    m_sink.WriteTo(m_w, m_c.session_start_utc_ns, {}, [&](double f) { report(0.4 + 0.6 * f); });
  }

 private:
  // ---- topology ------------------------------------------------------------------------
  // Processes are numbered as they are met, so that correlation ids (per process) stay apart.
  void NumberProcesses() {
    auto add = [&](int64_t pid) { m_process_index.try_emplace(pid, m_process_index.size()); };
    for (const NsysActivity& a : m_c.activities) add(PidOf(a.global_pid));
    for (const NsysCall& call : m_c.calls) add(PidOf(call.global_tid));
    for (const NsysSyncRow& s : m_c.syncs) add(PidOf(s.global_pid));
    // (an event record of a process nothing else names too: found by fuzz_nsys_sqlite)
    for (const NsysEventRecord& e : m_c.event_records) add(PidOf(e.global_pid));
    std::set<int64_t> gpu_pids;
    for (const NsysActivity& a : m_c.activities) gpu_pids.insert(PidOf(a.global_pid));
    m_several_gpu_processes = gpu_pids.size() > 1;
  }

  // A correlation id made unique across the processes of the file (-1 stays -1).
  int64_t Correlation(int64_t pid, int64_t correlation) const {
    if (correlation < 0) return -1;
    return (static_cast<int64_t>(m_process_index.at(pid)) << 40) | (correlation & 0xFFFFFFFFFF);
  }

  core::model::ProcessId ProcessOf(int64_t pid) {
    auto [it, added] = m_processes.try_emplace(pid, 0);
    if (added) {
      auto name = m_c.process_names.find(pid);
      core::model::Process info;
      info.pid = pid;
      info.name = name != m_c.process_names.end() && !name->second.empty()
                      ? name->second
                      : core::model::UnnamedProcessName(pid);
      it->second = m_w.AddProcess(info);
    }
    return it->second;
  }

  ThreadId ThreadOf(int64_t global_tid) {
    auto [it, added] = m_threads.try_emplace(global_tid, 0);
    if (added) {
      core::model::Thread info;
      info.process = ProcessOf(PidOf(global_tid));
      info.tid = TidOf(global_tid);
      auto name = m_c.thread_names.find(global_tid);
      const std::string* text = name == m_c.thread_names.end() ? nullptr : m_c.String(name->second);
      info.name = text && !text->empty() ? *text : fmt::format("thread {}", info.tid);
      info.sort_index = static_cast<int32_t>(info.tid);
      it->second = m_w.AddThread(info);
    }
    return it->second;
  }

  core::model::AdapterId AdapterOf(int64_t device) {
    auto [it, added] = m_adapters.try_emplace(device, 0);
    if (added) {
      core::model::Adapter info;
      auto name = m_c.gpu_names.find(device);
      info.name = name != m_c.gpu_names.end() && !name->second.empty()
                      ? fmt::format("GPU {} ({})", device, name->second)
                      : fmt::format("GPU {}", device);
      it->second = m_w.AddAdapter(info);
    }
    return it->second;
  }

  // The mapping's "device": one per (process, GPU), so that a context sync of one process
  // waits for that process's streams only.
  uint32_t DeviceIndex(int64_t pid, int64_t device) {
    auto [it, added] = m_device_index.try_emplace({pid, device}, m_devices.size());
    if (added) m_devices.push_back({pid, device});
    return it->second;
  }

  QueueId QueueOf(uint32_t device_index, int64_t stream, bool has_kernel) {
    auto [it, added] = m_queues.try_emplace({device_index, stream}, 0);
    if (!added) return it->second;
    const auto [pid, device] = m_devices[device_index];
    core::model::Queue info;
    info.adapter = AdapterOf(device);
    info.process = ProcessOf(pid);
    info.type = has_kernel ? core::model::QueueType::kCompute : core::model::QueueType::kCopy;
    info.name = fmt::format("GPU {} stream {}", device, stream);
    auto s = m_c.streams.find({pid, stream});
    if (s != m_c.streams.end()) {
      // CUDA stores priorities as int; the export writes them as unsigned 32-bit values.
      info.priority = static_cast<int32_t>(static_cast<uint32_t>(s->second.priority));
      if (s->second.flag == 3) info.name += " (NULL stream)";
      if (s->second.flag == 2) info.name += " (non-blocking)";
    }
    if (m_several_gpu_processes) info.name += fmt::format(" pid {}", pid);
    info.sort_index = static_cast<int32_t>(device * 100000 + stream);
    it->second = m_w.AddQueue(info);
    m_queue_names[it->second] = info.name;
    return it->second;
  }

  StringId Name(int64_t id) {
    auto [it, added] = m_string_ids.try_emplace(id, 0);
    if (added) {
      const std::string* text = m_c.String(id);
      if (!text) ++m_missing_strings;
      it->second = m_w.Intern(text ? *text : fmt::format("(string {} missing)", id));
    }
    return it->second;
  }

  // Device completion times of event records, where the export collected them (timestamp 0:
  // not collected; the record then executes by stream order).
  void KeepRecordTimestamps() {
    for (const NsysEventRecord& e : m_c.event_records) {
      if (e.timestamp > 0) {
        m_record_timestamps[Correlation(PidOf(e.global_pid), e.correlation)] = e.timestamp;
      }
    }
  }

  // CUpti_ActivityStreamFlag of a stream (0 when the export does not list it).
  int64_t StreamFlag(uint32_t device_index, int64_t stream) const {
    auto s = m_c.streams.find({m_devices[device_index].first, stream});
    return s == m_c.streams.end() ? 0 : s->second.flag;
  }

  // The legacy NULL stream waits for the earlier work of every blocking stream of its device
  // (CUDA's implicit synchronisation): each NULL stream with work or a record is told the
  // blocking (default-flag) streams of its device.
  void LinkNullStreams() {
    for (const NsysEventRecord& e : m_c.event_records) {
      const uint32_t device = DeviceIndex(PidOf(e.global_pid), e.device);
      if (StreamFlag(device, e.stream) == 3) QueueOf(device, e.stream, false);
    }
    for (const auto& [null_key, null_queue] : m_queues) {
      if (StreamFlag(null_key.first, null_key.second) != 3) continue;
      for (const auto& [key, queue] : m_queues) {
        if (key.first == null_key.first && StreamFlag(key.first, key.second) == 1) {
          m_cuda.null_stream_waits_for[null_queue].push_back(queue);
        }
      }
    }
  }

  // ---- CPU side ------------------------------------------------------------------------
  // The tag of an NVTX range of a domain other than the default one: kDomainTag | the
  // domain's index in m_domains (a runtime / driver call's tag is its index, below 2^31).
  static constexpr uint32_t kDomainTag = 0x80000000u;

  uint32_t DomainTag(int64_t global_tid, int64_t domain) {
    if (domain == 0) return kNone;
    auto [it, added] = m_domain_index.try_emplace({PidOf(global_tid), domain}, m_domains.size());
    if (added) m_domains.push_back(it->first);
    return kDomainTag | it->second;
  }

  // The domain of an NVTX range or mark, as its args: its name (NvtxDomainCreate) where the
  // export has it, else its id.
  void AddDomainArg(uint32_t record, uint32_t tag) {
    const std::pair<int64_t, int64_t>& key = m_domains[tag & ~kDomainTag];
    auto name = m_c.domain_names.find(key);
    if (name != m_c.domain_names.end() && !name->second.empty()) {
      m_sink.AddTextArg(record, "domain", name->second);
    } else {
      m_sink.AddArg(record, "domain_id", key.second);
    }
  }

  // NVTX marks: instants on their thread.
  void EmitMarks(StringId nvtx, const std::vector<StringId>& range_names) {
    for (const NsysRange& m : m_c.marks) {
      const uint32_t record = m_sink.Add(events::Instant{.ts_ns = m.start,
                                                         .thread_id = ThreadOf(m.global_tid),
                                                         .name_sid = range_names[m.text],
                                                         .category_sid = nvtx});
      const uint32_t tag = DomainTag(m.global_tid, m.domain);
      if (tag != kNone) AddDomainArg(record, tag);
    }
    m_marks = m_c.marks.size();
    std::vector<NsysRange>().swap(m_c.marks);
  }

  // Runtime / driver calls, OS runtime calls and NVTX ranges, nested per thread by time; NVTX
  // marks as instants.
  void EmitCpuSlices() {
    // PendingCpuSlice::tag: the index into the capture's calls of a runtime / driver call, an
    // NVTX range's domain (DomainTag), else kNone.
    std::vector<PendingCpuSlice> slices;
    slices.reserve(m_c.calls.size() + m_c.os_calls.size() + m_c.ranges.size());
    const StringId runtime = m_w.Intern("cuda_runtime");
    const StringId osrt = m_w.Intern("osrt");
    const StringId nvtx = m_w.Intern("nvtx");
    for (const NsysCall& call : m_c.os_calls) {
      slices.push_back({call.start, std::max(call.start, call.end), ThreadOf(call.global_tid),
                        Name(call.name_id), osrt, kNone});
    }
    for (uint32_t i = 0; i < m_c.calls.size(); ++i) {
      const NsysCall& call = m_c.calls[i];
      slices.push_back({call.start, std::max(call.start, call.end), ThreadOf(call.global_tid),
                        Name(call.name_id), runtime, i});
    }
    std::vector<StringId> range_names(m_c.range_texts.size());
    for (size_t i = 0; i < range_names.size(); ++i) range_names[i] = m_w.Intern(m_c.range_texts[i]);
    // Which texts may mark an iteration, each asked once (a program has a few texts).
    std::vector<bool> may_mark_step(m_c.range_texts.size());
    for (size_t i = 0; i < may_mark_step.size(); ++i) {
      may_mark_step[i] = MayMarkStep(m_c.range_texts[i]);
    }
    std::vector<MarkerRange> step_candidates;
    int64_t step_pid = 0;
    for (const NsysRange& r : m_c.ranges) {
      slices.push_back({r.start, std::max(r.start, r.end), ThreadOf(r.global_tid),
                        range_names[r.text], nvtx, DomainTag(r.global_tid, r.domain)});
      if (may_mark_step[r.text]) {
        if (step_candidates.empty()) step_pid = PidOf(r.global_tid);
        step_candidates.push_back({r.start, r.end, m_c.range_texts[r.text]});
      }
    }
    // NVTX ranges that mark iterations become the ProfilerStep#N slices per-step figures,
    // fleets and replays look for (importers/common/step_ranges.h).
    const std::vector<StepRange> steps = StepRanges(std::move(step_candidates));
    if (!steps.empty()) {
      m_steps = AddStepSlices(steps, ProcessOf(step_pid), "Steps (NVTX)", "nvtx step", m_sink, m_w);
    }
    // What only the CPU slices read goes back before the records are sorted and written.
    std::vector<NsysRange>().swap(m_c.ranges);
    std::vector<NsysCall>().swap(m_c.os_calls);
    EmitMarks(nvtx, range_names);
    AddNestedCpuSlices(slices, m_sink, [&](const PendingCpuSlice& s, uint32_t record) {
      if (s.tag == kNone) return;
      if (s.tag & kDomainTag) {
        AddDomainArg(record, s.tag);
      } else {
        AddRuntimeCall(m_c.calls[s.tag], s.thread, record);
      }
    });
  }

  void AddRuntimeCall(const NsysCall& call, ThreadId thread, uint32_t record) {
    const int64_t correlation = Correlation(PidOf(call.global_tid), call.correlation);
    if (correlation < 0) return;
    const std::string* name = m_c.String(call.name_id);
    cuda::CudaRuntimeCall c;
    c.ts = call.start;
    c.end = std::max(call.start, call.end);
    c.thread = thread;
    c.record = record;
    c.event_record = name && IsEventRecordCall(*name);
    c.stream_wait = name && IsStreamWaitCall(*name);
    auto executed = m_record_timestamps.find(correlation);
    if (executed != m_record_timestamps.end()) c.executed = executed->second;
    m_cuda.runtime_by_correlation[correlation] = c;
    if (name) m_call_names[correlation] = name;
  }

  // ---- GPU side ------------------------------------------------------------------------
  void EmitPackets() {
    // Kernel queues are compute queues: know them before the queues are made.
    std::set<std::pair<uint32_t, int64_t>> kernel_streams;
    for (const NsysActivity& a : m_c.activities) {
      if (a.kind == ActivityKind::kKernel) {
        kernel_streams.insert({DeviceIndex(PidOf(a.global_pid), a.device), a.stream});
      }
    }
    const StringId memset_name = m_w.Intern("Memset");
    int64_t next_packet = 1;
    for (const NsysActivity& a : m_c.activities) {
      const int64_t pid = PidOf(a.global_pid);
      const uint32_t device = DeviceIndex(pid, a.device);
      const QueueId queue = QueueOf(device, a.stream, kernel_streams.count({device, a.stream}));
      StringId name = memset_name;
      if (a.kind == ActivityKind::kKernel) name = Name(a.name_id);
      if (a.kind == ActivityKind::kMemcpy) {
        name = m_w.Intern(fmt::format("Memcpy {}", CopyKindName(a.copy_kind)));
      }
      // Submitted at its start until its launch call is found (cuda_sync_mapping links it).
      m_cuda.packets.push_back(cuda::AddCudaPacket(m_sink, queue, device, name, next_packet++,
                                                   a.start, std::max(a.start, a.end),
                                                   Correlation(pid, a.correlation)));
      // What a copy or a memset moved, in the packet's args (as the rocprof importer has them).
      const uint32_t record = m_cuda.packets.back().submitted_record;
      if (a.kind != ActivityKind::kKernel && a.bytes >= 0) m_sink.AddArg(record, "bytes", a.bytes);
      if (a.kind == ActivityKind::kMemcpy && *CopyKindName(a.copy_kind)) {
        m_sink.AddTextArg(record, "direction", CopyKindName(a.copy_kind));
      }
    }
  }

  // ---- synchronisation -----------------------------------------------------------------
  void CollectSyncs() {
    // The record each eventSyncId names (per process): eventIds are reused handles, the
    // eventSyncId is the one link the export gives between a sync and its record.
    std::map<std::pair<int64_t, int64_t>, const NsysEventRecord*> record_of_sync_id;
    for (const NsysEventRecord& e : m_c.event_records) {
      if (e.event_sync_id >= 0) record_of_sync_id[{PidOf(e.global_pid), e.event_sync_id}] = &e;
    }
    for (const NsysSyncRow& row : m_c.syncs) {
      const int64_t pid = PidOf(row.global_pid);
      cuda::CudaSync sync;
      sync.args.correlation = Correlation(pid, row.correlation);
      auto name = m_call_names.find(sync.args.correlation);
      const auto by_call =
          name == m_call_names.end() ? std::nullopt : SyncKindOfCall(*name->second);
      sync.kind = by_call ? *by_call : SyncKindOfShape(row.event_id, row.stream);
      if (!by_call) ++m_kind_by_shape;
      sync.ts = row.start;
      sync.end = std::max(row.start, row.end);
      sync.process = DeviceIndex(pid, row.device);
      sync.stream = row.stream;
      sync.args.stream = row.stream;
      sync.offset = static_cast<uint64_t>(row.row);
      const bool on_event =
          sync.kind == CudaSyncKind::kStreamWait || sync.kind == CudaSyncKind::kEventSync;
      if (on_event) {
        sync.args.wait_on_event_id = row.event_id;
        if (sync.kind == CudaSyncKind::kEventSync) sync.stream = -1;
        auto record = row.event_sync_id >= 0 ? record_of_sync_id.find({pid, row.event_sync_id})
                                             : record_of_sync_id.end();
        if (record != record_of_sync_id.end()) {
          sync.args.wait_on_record_correlation = Correlation(pid, record->second->correlation);
          sync.args.wait_on_stream = record->second->stream;
          ++m_linked_by_sync_id;
        } else {
          ++m_not_linked_by_sync_id;
        }
      }
      m_cuda.syncs.push_back(sync);
    }
  }

  void WriteCounts(const cuda::CudaSyncCounts& n) {
    const importers::ImportCounter rows[] = {
        {"nsys_sync_linked_by_event_sync_id", m_linked_by_sync_id,
         "event syncs and stream waits joined to their event record by eventSyncId "
         "(CUPTI_ACTIVITY_KIND_CUDA_EVENT): the record is the capture's"},
        {"nsys_sync_without_event_sync_id", m_not_linked_by_sync_id,
         "event syncs and stream waits with no record of the same eventSyncId in the file (an "
         "older schema, a capture without the CUDA_EVENT table, or a record before the "
         "capture): the record is inferred (schemas/kineto_inference.md)"},
        {"nsys_sync_kind_from_columns", m_kind_by_shape,
         "SYNCHRONIZATION rows whose API call is not in the file: what they are was read from "
         "their event and stream columns (syncType's numbering differs between nsys versions)"},
        {"nsys_string_missing", m_missing_strings,
         "string ids that point at no StringIds row: named '(string N missing)'"},
        {"nsys_steps_from_nvtx", m_steps,
         "NVTX ranges named step N / iteration N / iter N (or, where none is numbered, a "
         "repeated train_step-like name), written as ProfilerStep#N steps"},
        {"nsys_nvtx_marks", m_marks, "NVTX marks, written as instants on their thread"},
        {"nsys_nvtx_range_unended", m_c.ranges_unended,
         "NVTX ranges with no end (the capture stopped inside them): left out"},
        {"nsys_stream_wait_without_sync", n.stream_wait_calls_without_sync,
         "cudaStreamWaitEvent calls with no SYNCHRONIZATION row: no wait was placed"},
        {"nsys_launch_by_correlation", n.launches_by_correlation,
         "kernels, memcpys and memsets linked to the API call of their correlationId"},
        {"nsys_wait_link_inferred", n.gpu_waits_inferred,
         "GPU waits (stream wait event) linked to their record by inference"},
        {"nsys_cpu_wait_link_inferred", n.cpu_waits_inferred,
         "CPU waits (event sync) linked to their record by inference"},
        {"nsys_record_stream_by_launch", n.streams_by_launch,
         "event records placed on the stream of the last launch of their thread (inferred)"},
        {"nsys_record_stream_by_gpu_timing", n.streams_by_timing,
         "event records placed on a stream by GPU timing (inferred)"},
        {"nsys_record_implied", n.records_implied + n.records_implied_from_later,
         "waits whose event record is not in the file: a record is implied just before the "
         "wait's call (inferred)"},
        {"nsys_record_stream_unknown", n.streams_unknown,
         "event records waited for whose stream could not be found: their waits are unlinked"},
        {"nsys_wait_unlinked", n.waits_without_record,
         "stream waits with no record of their event before them: placed unlinked"},
        {"nsys_wait_without_stream", n.waits_without_stream,
         "stream waits naming no stream: no wait was placed"},
        {"nsys_sync_without_call", n.syncs_without_call,
         "event / stream / context syncs whose API call is not in the file: the waiting thread "
         "is unknown, no CPU wait was made"},
        {"nsys_event_record_unlinked", n.records_unclaimed,
         "cudaEventRecord calls no sync waited for: no fence signal was made for them"},
        {"nsys_wait_released_before_signal", n.released_before_signal,
         "GPU waits whose stream went on before the record executed by the GPU timestamps"},
        {"nsys_sync_before_work_end", n.syncs_before_work_end,
         "syncs that returned before the GPU timestamps of the work they waited for ended; "
         "the signal is placed at the return"},
        {"nsys_record_against_timing", n.records_against_timing,
         "waits every candidate record of which executed after the wait went on (inferred)"},
    };
    importers::CountNonZero(m_w, rows);
  }

  void WriteMeta() {
    m_w.SetMeta("source_file", m_label);
    m_w.SetMeta("clock", m_c.session_start_utc_ns
                             ? "UTC (ns since the epoch; the export's session times shifted by "
                               "TARGET_INFO_SESSION_START_TIME)"
                             : "nsys session (ns since the capture's start)");
    if (!m_c.product_version.empty()) m_w.SetMeta("nsys_version", m_c.product_version);
    if (!m_c.schema_version.empty()) m_w.SetMeta("nsys_schema_version", m_c.schema_version);
    if (m_c.session_start_utc_ns) {
      m_w.SetMeta("session_start_utc_ns", std::to_string(m_c.session_start_utc_ns));
    }
    if (!m_cuda.packets.empty() || !m_cuda.syncs.empty()) m_w.SetMeta("gpu_mapping", "nsys");
  }

  NsysCapture& m_c;
  const std::string& m_label;
  core::store::TraceWriter& m_w;
  RecordSink m_sink;
  cuda::CudaCollected m_cuda;
  std::map<int64_t, uint32_t> m_process_index;
  bool m_several_gpu_processes = false;
  std::map<int64_t, core::model::ProcessId> m_processes;
  std::map<int64_t, ThreadId> m_threads;
  std::map<int64_t, core::model::AdapterId> m_adapters;
  std::map<std::pair<int64_t, int64_t>, uint32_t> m_device_index;
  std::vector<std::pair<int64_t, int64_t>> m_devices;  // (pid, GPU) per device index
  std::map<std::pair<uint32_t, int64_t>, QueueId> m_queues;
  std::map<QueueId, std::string> m_queue_names;
  std::unordered_map<int64_t, StringId> m_string_ids;
  std::unordered_map<int64_t, const std::string*> m_call_names;  // by correlation key
  std::unordered_map<int64_t, TimeNs> m_record_timestamps;        // by correlation key
  uint64_t m_missing_strings = 0, m_kind_by_shape = 0, m_steps = 0, m_marks = 0;
  std::map<std::pair<int64_t, int64_t>, uint32_t> m_domain_index;  // (pid, domainId)
  std::vector<std::pair<int64_t, int64_t>> m_domains;
  uint64_t m_linked_by_sync_id = 0, m_not_linked_by_sync_id = 0;
};

}  // namespace

void BuildTrace(NsysCapture& capture, const std::string& label, core::store::TraceWriter& writer,
                const std::function<void(double)>& progress) {
  Builder(capture, label, writer).Run(progress);
}

}  // namespace importers::nsys
