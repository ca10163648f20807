// Maps ftrace events (in time order) onto fencescope's model.
//
//   CPU thread   amdgpu_cs_ioctl ─┐                      (packet_submitted, with the thread)
//   ring gfx                       └─ amdgpu_sched_run_job ──────── dma_fence_signaled
//                                     (packet_started)              (finished fence: completed)
//
// * Each ring / timeline is a hardware queue on its driver's adapter, with an engine whose type
//   comes from the ring name: gfx -> 3d, comp -> compute, sdma/copy/bcs -> copy,
//   vcn/uvd/vce/vcs/vecs -> video, else other.
// * Jobs: amdgpu_cs_ioctl / drm_sched_job(_queue) / i915_request_add are submitted,
//   amdgpu_sched_run_job / drm_run_job / drm_sched_job_run / i915_request_in hand the job to
//   its ring, which starts it once the job handed before it has completed (a ring runs its jobs
//   in order),
//   the job's finished fence dma_fence_signaled / drm_sched_process_job / drm_sched_job_done /
//   i915_request_out (or _retire) are completed. An amdgpu job is keyed by its finished fence
//   (context, seqno); its scheduled fence is (context - 1, seqno), whose signal is queued when
//   the job runs. A job first seen running (kernel submissions) is submitted when it runs, with
//   no CPU thread.
// * Fences: one per dma_fence context (the kernel allocates contexts globally), named
//   "driver timeline context N", seqno as the value. dma_fence_emit / _init (or a job's
//   submission for its finished fence) queues a signal, dma_fence_signaled executes it on the
//   queue of the fence's timeline (a signal with nothing queued is queued at its execution).
// * xe: xe_sched_job_create / _run / _free (submitted / started / completed: the free follows
//   the completion) on a queue per GuC context ("guc N"), keyed by the job's fence pointer.
//   msm: msm_gpu_submit / _submit_flush / _submit_retired on "ring N", keyed by (ring, id).
// * drm_sched_job_wait_dep, drm_sched_job_add_dep (newer kernels; _unschedulable too): a GPU
//   wait of the job's ring on the dependency fence (context, seqno), one per job and fence,
//   unblocked by that fence's signal (released_by_signal_id) or, failing that, when the job
//   runs. The fence belongs to the ring whose jobs' fences share its context.
// * dma_fence_wait_start / _end, i915_request_wait_begin / _end: CPU waits of the line's task,
//   released by the fence's signal.
// * drm_vblank_event: a vsync marker per CRTC, on the GPU's adapter when the capture has one
//   GPU driver (the event names no device). print / tracing_mark_write: atrace markers
//   (atrace_marker.h) become slices of the thread (B/E), async slices (S/F) and counters of
//   the process (C); other text is a text marker on the thread. amdgpu_vm_flush,
//   amdgpu_bo_move (amdgpu_ttm_bo_move): instants.
// * Finish crops the records to where every CPU was recording (ftrace_capture_window.h).
// * sched_switch: per thread, a "running" slice while on a CPU and a "sleeping" /
//   "blocked (D)" / "preempted" slice until it runs again (or is woken: sched_wakeup).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <tuple>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/store/trace_writer.h"
#include "importers/ftrace/ftrace_capture_window.h"
#include "importers/ftrace/ftrace_event.h"

namespace importers::ftrace {

struct FtraceMapperCounts {
  uint64_t jobs_submitted = 0;
  uint64_t cpu_submits = 0;
  uint64_t cpu_submits_run = 0;         // CPU submits whose job was seen running
  uint64_t jobs_without_submit = 0;     // first seen running (kernel work or before the capture)
  uint64_t jobs_started = 0;
  uint64_t jobs_completed = 0;
  uint64_t completions_not_in_capture = 0;  // jobs a later job of their ring completed before
  uint64_t signals_executed = 0;
  uint64_t signals_without_emit = 0;
  uint64_t gpu_waits = 0;
  uint64_t gpu_waits_released_by_signal = 0;
  uint64_t dependencies_without_job = 0;  // add_dep / unschedulable of a job not seen queued
  uint64_t cpu_waits = 0;
  uint64_t cpu_waits_released = 0;
  uint64_t cpu_wait_end_without_start = 0;
  uint64_t vblanks = 0;
  uint64_t text_markers = 0;
  uint64_t atrace_slices = 0;          // B ... E
  uint64_t atrace_async_slices = 0;    // S ... F
  uint64_t atrace_counter_samples = 0; // C
  uint64_t atrace_end_without_begin = 0;
  uint64_t atrace_open_at_end = 0;     // B or S with no end: closed at the trace's end
  uint64_t thread_slices = 0;
  uint64_t unmapped_events = 0;
  uint64_t vblanks_without_adapter = 0;  // several GPU drivers: the event names no device
  // Where every CPU was recording (ftrace_capture_window.h); 0 when the capture is complete.
  int64_t window_from = 0;
  uint64_t window_dropped = 0;
  uint64_t window_moved = 0;
  std::string cpu_coverage;  // "CPU 3 from ... s, ..."
  std::map<std::string, uint64_t, std::less<>> unmapped_by_name;
  std::map<std::string, uint64_t, std::less<>> events_by_name;
};

class FtraceGpuMapper {
 public:
  explicit FtraceGpuMapper(core::store::TraceWriter& writer);

  // pid -> tgid known from elsewhere (the .dat's tgid table).
  void SetTgids(const std::unordered_map<int32_t, int32_t>& tgids) { m_tgids = tgids; }
  // Maps one event; call in non-decreasing ts_ns order.
  void Map(const FtraceEvent& e);
  // Closes what is still open at the last event's time, sorts the records by time, and appends
  // them to the writer with the import counters.
  void Finish();

  const FtraceMapperCounts& counts() const { return m_counts; }

 private:
  struct Queue {
    uint32_t id = 0;
    uint32_t adapter = 0;
  };
  struct Job {
    int64_t packet = 0;
    uint32_t queue = 0;
    bool handed = false;     // handed to its ring (run_job): dependencies met
    int64_t handed_ts = 0;
    bool started = false;    // running on the ring (packet_started emitted)
    bool completed = false;
    bool cpu_submit = false;
    std::vector<size_t> waits;  // indices into m_gpu_waits
  };
  struct FenceState {
    uint32_t id = 0;
    uint32_t queue = 0;        // queue of its timeline (0 until known)
    uint64_t current = 0;
    int64_t last_signal = 0;
    std::map<uint64_t, int64_t> queued;  // seqno -> signal op queued, not executed
    std::string name;
  };
  struct GpuWait {
    int64_t op = 0;
    uint32_t queue = 0;
    uint64_t context = 0;
    uint64_t seqno = 0;
    bool done = false;
  };
  struct CpuWait {
    int64_t waiter = 0;
    uint64_t context = 0;
    uint64_t seqno = 0;
  };
  struct ThreadState {
    uint32_t id = 0;
    int64_t since = 0;           // start of the current slice
    uint32_t slice_name = 0;     // 0: no slice open
  };

  uint32_t Adapter(std::string_view driver);
  Queue& QueueFor(std::string_view driver, std::string_view ring);
  uint32_t Thread(int32_t pid, int32_t tgid, std::string_view comm);
  ThreadState& ThreadStateFor(int32_t pid, std::string_view comm);
  FenceState& Fence(uint64_t context, std::string_view driver, std::string_view timeline);
  uint32_t Name(std::string_view text);
  int64_t QueueSignal(int64_t ts, FenceState& fence, uint64_t context, uint64_t seqno,
                      uint32_t thread);
  void SignalFence(int64_t ts, uint64_t context, uint64_t seqno, std::string_view driver,
                   std::string_view timeline);
  Job* SubmitJob(int64_t ts, uint64_t key_hi, uint64_t key_lo, Queue& q, uint32_t thread,
                 std::string_view name);
  void StartJob(int64_t ts, Job& job);
  void RunJob(int64_t ts, Job& job);
  void CompleteJob(int64_t ts, Job& job);
  void ReleaseGpuWait(int64_t ts, GpuWait& wait, int64_t signal);
  void CloseSlice(ThreadState& t, int64_t ts);
  void OpenSlice(ThreadState& t, int64_t ts, std::string_view name);

  void OnAmdgpuJob(const FtraceEvent& e, bool run);
  void OnDrmSchedJob(const FtraceEvent& e, int stage);
  void OnDependency(const FtraceEvent& e);
  void SignalByJob(const FtraceEvent& e, uint64_t context, uint64_t seqno,
                   std::string_view driver, std::string_view ring);
  void AddGpuWait(const FtraceEvent& e, Queue& q, Job* job, uint64_t context, uint64_t seqno);
  FenceState& DependencyFence(uint64_t context, uint64_t seqno, uint64_t pointer);
  void OnDmaFence(const FtraceEvent& e);
  void OnI915(const FtraceEvent& e);
  void OnDriverJob(const FtraceEvent& e, std::string_view driver, int stage);
  void OnSchedSwitch(const FtraceEvent& e);
  void OnPrint(const FtraceEvent& e);
  void OnAtraceSliceEnd(const FtraceEvent& e, int32_t tgid);
  void CloseAtrace();
  void WriteCounters();
  uint32_t Process(int32_t tgid, std::string_view leader_name = {});
  void PlaceVblanks();
  void CropToCompleteWindow();

  template <core::model::events::TypedEvent E>
  void Emit(const E& event) {
    m_records.push_back(event.Record());
  }

  core::store::TraceWriter& m_writer;
  std::unordered_map<int32_t, int32_t> m_tgids;
  std::map<std::string, uint32_t, std::less<>> m_adapters;
  std::map<std::pair<uint32_t, std::string>, Queue> m_queues;
  std::unordered_map<int32_t, uint32_t> m_processes;
  std::unordered_map<int32_t, uint32_t> m_threads;
  std::unordered_map<int32_t, ThreadState> m_thread_states;
  std::unordered_map<uint64_t, FenceState> m_fences;
  std::map<std::pair<uint64_t, uint64_t>, Job> m_jobs;   // (context or fence ptr, seqno or 0)
  std::map<std::pair<uint64_t, uint64_t>, std::vector<size_t>> m_waits_on;  // (ctx, seqno)
  std::map<std::pair<std::string, uint64_t>, std::pair<uint64_t, uint64_t>> m_job_by_id;  // (ring, id)
  // dma_fence context -> (driver, ring) of the scheduler entity whose jobs' fences it holds.
  std::unordered_map<uint64_t, std::pair<std::string, std::string>> m_context_ring;
  std::set<std::pair<uint64_t, uint64_t>> m_signalled_by_job;  // by drm_sched_job_done
  std::set<std::tuple<int64_t, uint64_t, uint64_t>> m_dependencies;  // (packet, context, seqno)
  std::vector<GpuWait> m_gpu_waits;
  std::unordered_map<uint32_t, std::deque<Job*>> m_on_ring;  // queue -> handed, not completed
  std::unordered_map<int32_t, std::vector<CpuWait>> m_cpu_waits;  // per pid, open
  std::map<std::string, uint32_t, std::less<>> m_names;
  std::unordered_map<int32_t, std::string> m_comms;  // pid -> last known name
  std::vector<core::store::EventRecord> m_records;
  FtraceMapperCounts m_counts;
  CpuCoverage m_coverage;
  // atrace (trace_marker) state: open B slices per thread, open S slices per (process, name,
  // cookie), counter samples per (process, name) written after the crop.
  struct AtraceOpen {
    int64_t ts = 0;
    uint32_t name = 0;
  };
  struct CounterTrack {
    int32_t tgid = 0;
    std::string name;
    std::vector<std::pair<int64_t, double>> samples;
  };
  std::unordered_map<int32_t, std::vector<AtraceOpen>> m_atrace_stacks;
  std::map<std::tuple<int32_t, std::string, int64_t>, std::pair<int64_t, uint32_t>> m_async_open;
  std::map<std::pair<int32_t, std::string>, size_t> m_counter_index;
  std::vector<CounterTrack> m_counters;
  int64_t m_next_packet = 1;
  int64_t m_next_op = 1;
  int64_t m_last_ts = 0;
};

// Engine type of a ring from its name (gfx -> 3d, comp -> compute, sdma / copy / bcs -> copy,
// vcn / uvd / vce / vcs / vecs -> video, else other).
core::model::EngineType EngineTypeOfRing(std::string_view ring);

}  // namespace importers::ftrace
