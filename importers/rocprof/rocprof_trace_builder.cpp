#include "importers/rocprof/rocprof_trace_builder.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "core/model/event_fields.h"
#include "importers/common/cuda_packet_records.h"
#include "importers/common/cuda_sync_mapping.h"
#include "importers/common/import_counters.h"
#include "importers/common/nested_cpu_slices.h"
#include "importers/common/record_sink.h"
#include "importers/common/step_ranges.h"
#include "importers/rocprof/rocprof_hip_syncs.h"

namespace importers::rocprof {
namespace {

using core::model::QueueId;
using core::model::StringId;
using core::model::ThreadId;
namespace events = core::model::events;

bool IsLaunchingDomain(CallDomain d) { return d == CallDomain::kHip || d == CallDomain::kHsa; }

class Builder {
 public:
  Builder(RocCapture& c, const std::string& label, core::store::TraceWriter& writer)
      : m_c(c), m_label(label), m_w(writer) {}

  void Run(const std::function<void(double)>& progress) {
    auto report = [&](double f) {
      if (progress) progress(f);
    };
    NumberGpus();
    EmitCalls();
    EmitDispatches();
    EmitCopies();
    // What the dispatches and copies said is in the records now: their memory goes back before
    // the records are sorted and written, where the import's memory peaks.
    std::vector<RocDispatch>().swap(m_c.dispatches);
    std::vector<RocCopy>().swap(m_c.copies);
    PlaceStreamHandles();
    m_cuda.syncs = HipSyncs(
        m_c.calls,
        [this](int64_t stream) -> std::optional<uint32_t> {
          auto it = m_handle_queue.find(stream);
          if (it == m_handle_queue.end()) return std::nullopt;
          return it->second.first;
        },
        [this](int64_t thread, int64_t before) { return GpuOfLastLaunch(thread, before); },
        m_sync_counts);
    report(0.2);
    cuda::FenceOpIds ids;
    const auto queue_name = [this](QueueId q) { return m_queue_names[q]; };
    const cuda::CudaSyncCounts n = cuda::MapCudaSynchronisation(
        m_cuda, m_sink, m_w,
        [this](uint32_t device, int64_t stream) { return QueueOfStream(device, stream); },
        queue_name, ids);
    WriteCounts(n);
    WriteMeta();
    report(0.4);
    // The calls and what the CUDA mapping gathered are in the records too: freed before the
    // write, where the import's memory peaks (the records sorted, SQLite's cache growing).
    FreeWhatTheRecordsHold();
    m_sink.WriteTo(m_w, 0, {}, [&](double f) { report(0.4 + 0.6 * f); });
  }

 private:
  // ---- topology ------------------------------------------------------------------------
  // GPUs numbered 0, 1, ... in the order of their node ids (the HIP device order), each an
  // adapter: the capture's topology, whether or not it ran work.
  void NumberGpus() {
    std::vector<const RocAgent*> gpus;
    for (const auto& [handle, agent] : m_c.agents) {
      if (agent.gpu) gpus.push_back(&agent);
    }
    std::stable_sort(gpus.begin(), gpus.end(), [](const RocAgent* a, const RocAgent* b) {
      return a->node_id < b->node_id;
    });
    for (const RocAgent* agent : gpus) {
      const uint32_t index = static_cast<uint32_t>(m_gpu_index.size());
      m_gpu_index[agent->handle] = index;
      core::model::Adapter info;
      const std::string gfx = agent->gfx.empty() ? "" : ", " + agent->gfx;
      info.name = agent->product.empty()
                      ? fmt::format("GPU {}{}", index, gfx)
                      : fmt::format("{} (GPU {}{})", agent->product, index, gfx);
      m_adapters.push_back(m_w.AddAdapter(info));
    }
  }

  uint32_t GpuOf(int64_t agent) const { return m_gpu_index.at(agent); }

  // (each assigned an empty one: move assignment frees what the member held)
  void FreeWhatTheRecordsHold() {
    m_cuda = cuda::CudaCollected();
    m_c.calls = std::vector<RocCall>();
    m_call_of_correlation = {};
    m_handle_launches = {};
    m_thread_launches = {};
  }

  core::model::ProcessId Process() {
    if (!m_process) {
      core::model::Process info;
      info.pid = m_c.pid;
      info.name = !m_c.process_name.empty() ? m_c.process_name
                  : m_c.pid >= 0            ? core::model::UnnamedProcessName(m_c.pid)
                                            : std::string("process");
      m_process = m_w.AddProcess(info);
    }
    return m_process;
  }

  // The process of a dispatch's pid: the capture's own, or one more for each other pid of a
  // CSV that holds several (rocprof v1 / v2 write every process's rows into one file).
  core::model::ProcessId ProcessOf(int64_t pid) {
    if (pid < 0 || pid == m_c.pid) return Process();
    auto [it, added] = m_other_processes.try_emplace(pid, 0);
    if (added) {
      core::model::Process info;
      info.pid = pid;
      info.name = core::model::UnnamedProcessName(pid);
      it->second = m_w.AddProcess(info);
    }
    return it->second;
  }

  // Whether the dispatches name more than one process: their queues' names then say whose.
  bool SeveralProcesses() const {
    for (const RocDispatch& d : m_c.dispatches) {
      if (d.pid >= 0 && d.pid != m_c.pid) return true;
    }
    return false;
  }

  ThreadId ThreadOf(int64_t tid) {
    auto [it, added] = m_threads.try_emplace(tid, 0);
    if (added) {
      core::model::Thread info;
      info.process = Process();
      info.tid = tid;
      info.name = fmt::format("thread {}", tid);
      info.sort_index = static_cast<int32_t>(tid);
      it->second = m_w.AddThread(info);
    }
    return it->second;
  }

  // One hardware queue per (GPU, HSA queue id, process): an HSA queue belongs to the process
  // that created it. `queue` -1 is the GPU's copy (SDMA) queue.
  QueueId QueueOf(uint32_t gpu, int64_t queue, int64_t pid = -1) {
    const core::model::ProcessId process = ProcessOf(pid);
    auto [it, added] = m_queues.try_emplace({gpu, queue, process}, 0);
    if (!added) return it->second;
    core::model::Queue info;
    info.adapter = m_adapters[gpu];
    info.process = process;
    if (queue < 0) {
      info.type = core::model::QueueType::kCopy;
      info.name = fmt::format("GPU {} copies (SDMA)", gpu);
      info.sort_index = static_cast<int32_t>(gpu * 100000 + 99999);
    } else {
      info.type = core::model::QueueType::kCompute;
      info.name = fmt::format("GPU {} queue {}", gpu, queue);
      if (m_several_processes) info.name += fmt::format(" (pid {})", pid < 0 ? m_c.pid : pid);
      info.sort_index = static_cast<int32_t>(gpu * 100000 + std::min<int64_t>(queue, 99998));
    }
    it->second = m_w.AddQueue(info);
    m_queue_names[it->second] = info.name;
    return it->second;
  }

  // The hardware queue a HIP stream (a handle the API calls name) put its work on: where the
  // synchronisation mapping places what happens "on the stream". A stream no launch shows is a
  // queue of its own.
  QueueId QueueOfStream(uint32_t gpu, int64_t stream) {
    auto it = m_handle_queue.find(stream);
    if (it != m_handle_queue.end()) return it->second.second;
    auto [named, added] = m_unseen_streams.try_emplace({gpu, stream}, 0);
    if (added) {
      core::model::Queue info;
      info.adapter = m_adapters.empty() ? 0 : m_adapters[std::min<size_t>(gpu, m_adapters.size() - 1)];
      info.process = Process();
      info.type = core::model::QueueType::kCompute;
      info.name = fmt::format("GPU {} HIP stream {:#x}", gpu, stream);
      named->second = m_w.AddQueue(info);
      m_queue_names[named->second] = info.name;
    }
    return named->second;
  }

  // ---- CPU side ------------------------------------------------------------------------
  // HIP / HSA calls and roctx ranges, nested per thread by time; roctx marks as instants.
  void EmitCalls() {
    std::vector<PendingCpuSlice> slices;
    std::vector<MarkerRange> marker_ranges;
    slices.reserve(m_c.calls.size());
    const StringId categories[] = {m_w.Intern("hip_api"), m_w.Intern("hsa_api"),
                                   m_w.Intern("roctx")};
    for (uint32_t i = 0; i < m_c.calls.size(); ++i) {
      const RocCall& call = m_c.calls[i];
      const StringId category = categories[static_cast<int>(call.domain)];
      const ThreadId thread = ThreadOf(call.thread);
      const StringId name = m_w.Intern(call.message.empty() ? call.name : call.message);
      if (call.domain == CallDomain::kMarker && call.end <= call.start) {
        m_sink.Add(events::Instant{.ts_ns = call.start,
                                   .thread_id = thread,
                                   .name_sid = name,
                                   .category_sid = category});
        continue;
      }
      slices.push_back({call.start, std::max(call.start, call.end), thread, name, category, i});
      if (call.domain == CallDomain::kMarker) {
        const std::string_view text = call.message.empty() ? call.name : call.message;
        if (MayMarkStep(text)) marker_ranges.push_back({call.start, call.end, text});
      }
    }
    AddNestedCpuSlices(slices, m_sink, [&](const PendingCpuSlice& s, uint32_t record) {
      AddRuntimeCall(m_c.calls[s.tag], s.thread, record);
    });
    // roctx ranges that mark iterations become the ProfilerStep#N slices per-step figures,
    // fleets and replays look for (importers/common/step_ranges.h).
    m_steps = AddStepSlices(StepRanges(std::move(marker_ranges)), Process(), "Steps (roctx)",
                            "roctx step", m_sink, m_w);
  }

  // A HIP call is the launch of the work of its correlation id; an HSA call only where no HIP
  // call has that id (HIP's own HSA calls run inside the HIP call).
  void AddRuntimeCall(const RocCall& call, ThreadId thread, uint32_t record) {
    if (!IsLaunchingDomain(call.domain) || call.correlation < 0) return;
    auto [it, added] = m_cuda.runtime_by_correlation.try_emplace(call.correlation);
    if (!added && call.domain == CallDomain::kHsa) return;
    if (!added) ++m_shared_correlations;
    cuda::CudaRuntimeCall& c = it->second;
    c.ts = call.start;
    c.end = std::max(call.start, call.end);
    c.thread = thread;
    c.record = record;
    c.event_record = IsEventRecord(call);
    m_call_of_correlation[call.correlation] = &call;
    c.stream_wait = call.name == "hipStreamWaitEvent";
  }

  // ---- GPU side ------------------------------------------------------------------------
  // The packet's submitted record, for its args.
  uint32_t AddPacket(QueueId queue, uint32_t gpu, StringId name, int64_t start, int64_t end,
                     int64_t correlation) {
    m_cuda.packets.push_back(
        cuda::AddCudaPacket(m_sink, queue, gpu, name, m_next_packet++, start, end, correlation));
    return m_cuda.packets.back().submitted_record;
  }

  void EmitDispatches() {
    // Which HIP streams (stream_id) each queue carried.
    for (const RocDispatch& d : m_c.dispatches) {
      const uint32_t gpu = GpuOf(d.agent);
      const QueueId queue = QueueOf(gpu, d.queue, d.pid);
      const uint32_t record = AddPacket(queue, gpu, m_w.Intern(d.name), d.start, d.end,
                                        d.correlation);
      CountLaunch(d.correlation, gpu, queue);
      if (d.stream >= 0) {
        m_sink.AddArg(record, "stream_id", d.stream);
        ++m_queue_streams[queue][d.stream];
      }
      if (d.dispatch_id >= 0) m_sink.AddArg(record, "dispatch_id", d.dispatch_id);
      if (d.correlation >= 0) m_sink.AddArg(record, "correlation_id", d.correlation);
      if (d.external != 0) m_sink.AddArg(record, "external_correlation_id", d.external);
      m_sink.AddArg(record, "grid_size_x", d.grid.x);
      m_sink.AddArg(record, "grid_size_y", d.grid.y);
      m_sink.AddArg(record, "grid_size_z", d.grid.z);
      m_sink.AddArg(record, "workgroup_size_x", d.workgroup.x);
      m_sink.AddArg(record, "workgroup_size_y", d.workgroup.y);
      m_sink.AddArg(record, "workgroup_size_z", d.workgroup.z);
    }
  }

  // What a launch call says of its stream: the stream handle of its arguments ran on this GPU
  // and queue; its thread launched on this GPU at the call.
  void CountLaunch(int64_t correlation, uint32_t gpu, QueueId queue) {
    auto it = m_call_of_correlation.find(correlation);
    if (it == m_call_of_correlation.end()) return;
    const RocCall& call = *it->second;
    if (call.stream >= 0) ++m_handle_launches[call.stream][{gpu, queue}];
    m_thread_launches.push_back({call.thread, call.start, gpu});
  }

  // Each stream handle's queue: the one that carried most of its launches.
  void PlaceStreamHandles() {
    for (const auto& [handle, places] : m_handle_launches) {
      m_handle_queue[handle] =
          std::max_element(places.begin(), places.end(), [](const auto& a, const auto& b) {
            return a.second < b.second;
          })->first;
    }
    std::sort(m_thread_launches.begin(), m_thread_launches.end());
  }

  std::optional<uint32_t> GpuOfLastLaunch(int64_t thread, int64_t before) const {
    auto it = std::lower_bound(m_thread_launches.begin(), m_thread_launches.end(),
                               std::make_tuple(thread, before, uint32_t{0}));
    if (it == m_thread_launches.begin()) return std::nullopt;
    --it;
    if (std::get<0>(*it) != thread) return std::nullopt;
    return std::get<2>(*it);
  }

  void EmitCopies() {
    for (const RocCopy& c : m_c.copies) {
      // The GPU that ran it: the destination when it is a GPU, else the source.
      const bool dst_gpu = m_gpu_index.count(c.dst_agent) > 0;
      if (!dst_gpu && !m_gpu_index.count(c.src_agent)) {
        ++m_copies_without_gpu;
        continue;
      }
      const uint32_t gpu = GpuOf(dst_gpu ? c.dst_agent : c.src_agent);
      const QueueId queue = QueueOf(gpu, -1);
      const uint32_t record =
          AddPacket(queue, gpu, m_w.Intern(fmt::format("Memcpy {}", c.direction)), c.start, c.end,
                    c.correlation);
      CountLaunch(c.correlation, gpu, queue);
      m_sink.AddArg(record, "bytes", c.bytes);
      if (c.stream >= 0) {
        m_sink.AddArg(record, "stream_id", c.stream);
        ++m_queue_streams[queue][c.stream];
      }
      if (c.correlation >= 0) m_sink.AddArg(record, "correlation_id", c.correlation);
      if (c.external != 0) m_sink.AddArg(record, "external_correlation_id", c.external);
    }
  }

  void WriteCounts(const cuda::CudaSyncCounts& n) {
    const importers::ImportCounter rows[] = {
        {"rocprof_launch_by_correlation", n.launches_by_correlation,
         "kernels and copies linked to the HIP / HSA call of their correlation id"},
        {"rocprof_steps_from_roctx", m_steps,
         "roctx ranges named step N / iteration N / iter N (or, where none is numbered, a "
         "repeated train_step-like name), written as ProfilerStep#N steps"},
        {"rocprof_copy_without_gpu", m_copies_without_gpu,
         "memory copies between two CPU agents: no GPU queue ran them, left out"},
        {"rocprof_correlation_shared", m_shared_correlations,
         "HIP calls sharing a correlation id with an earlier one: the later is the launch"},
        {"rocprof_sync_without_arguments", m_sync_counts.syncs_without_arguments,
         "HIP sync calls (hipStreamWaitEvent, hipEventSynchronize, hipStreamSynchronize) whose "
         "stream or event the file does not keep (no arguments): no wait was placed"},
        {"rocprof_wait_on_unrecorded_event", m_sync_counts.waits_on_unrecorded_event,
         "waits on a HIP event with no hipEventRecord of it before them in the file"},
        {"rocprof_wait_unlinked", n.waits_without_record,
         "GPU waits with no record of their event: placed unlinked"},
        {"rocprof_wait_link_inferred", n.gpu_waits_inferred + n.cpu_waits_inferred,
         "waits whose record was inferred (schemas/kineto_inference.md)"},
        {"rocprof_event_record_unlinked", n.records_unclaimed,
         "hipEventRecord calls that no wait or sync waited for: no fence signal was made"},
        {"rocprof_record_stream_unknown", n.streams_unknown,
         "event records waited for whose stream could not be found: their waits are unlinked"},
        {"rocprof_sync_before_work_end", n.syncs_before_work_end,
         "syncs that returned before the GPU timestamps of the work they waited for ended; the "
         "signal is placed at the return"},
        {"rocprof_wait_released_before_signal", n.released_before_signal,
         "GPU waits whose queue went on before the record executed by the GPU timestamps"},
    };
    importers::CountNonZero(m_w, rows);
    if (m_c.skipped) {
      m_w.CountProblem("rocprof_record_skipped", core::model::Severity::kDataLoss,
                       "malformed records left out (--lenient); first_place names the first",
                       m_c.skipped, m_c.first_skipped);
    }
  }

  // Which HIP streams each queue carried: `queue_streams.<queue>` = "stream (packets), ...",
  // the most used first.
  void WriteMeta() {
    m_w.SetMeta("source_file", m_label);
    m_w.SetMeta("clock", "rocprofiler (ns, the host's monotonic clock)");
    m_w.SetMeta("rocprof_format", m_c.format);
    if (!m_cuda.packets.empty()) m_w.SetMeta("gpu_mapping", "rocprof");
    for (const auto& [key, value] : m_c.meta) m_w.SetMeta(key, value);
    for (const auto& [queue, streams] : m_queue_streams) {
      std::vector<std::pair<int64_t, uint64_t>> sorted(streams.begin(), streams.end());
      std::stable_sort(sorted.begin(), sorted.end(),
                       [](auto& a, auto& b) { return a.second > b.second; });
      std::string text;
      for (const auto& [stream, count] : sorted) {
        text += fmt::format("{}{} ({})", text.empty() ? "" : ", ", stream, count);
      }
      m_w.SetMeta("queue_streams." + m_queue_names[queue], text);
    }
  }

  RocCapture& m_c;
  const std::string& m_label;
  core::store::TraceWriter& m_w;
  RecordSink m_sink;
  cuda::CudaCollected m_cuda;
  std::map<int64_t, uint32_t> m_gpu_index;  // agent handle -> GPU number
  std::vector<core::model::AdapterId> m_adapters;
  core::model::ProcessId m_process = 0;
  std::map<int64_t, ThreadId> m_threads;
  std::map<std::tuple<uint32_t, int64_t, core::model::ProcessId>, QueueId> m_queues;
  std::map<int64_t, core::model::ProcessId> m_other_processes;  // by pid
  const bool m_several_processes = SeveralProcesses();
  std::map<QueueId, std::string> m_queue_names;
  std::unordered_map<int64_t, const RocCall*> m_call_of_correlation;  // HIP / HSA launches
  std::map<int64_t, std::map<std::pair<uint32_t, QueueId>, uint64_t>> m_handle_launches;
  std::map<int64_t, std::pair<uint32_t, QueueId>> m_handle_queue;  // stream handle -> GPU, queue
  std::map<std::pair<uint32_t, int64_t>, QueueId> m_unseen_streams;
  std::vector<std::tuple<int64_t, int64_t, uint32_t>> m_thread_launches;  // tid, call, GPU
  HipSyncCounts m_sync_counts;
  std::map<QueueId, std::map<int64_t, uint64_t>> m_queue_streams;
  int64_t m_next_packet = 1;
  uint64_t m_copies_without_gpu = 0, m_shared_correlations = 0, m_steps = 0;
};

}  // namespace

void BuildTrace(RocCapture& capture, const std::string& label, core::store::TraceWriter& writer,
                const std::function<void(double)>& progress) {
  Builder(capture, label, writer).Run(progress);
}

}  // namespace importers::rocprof
