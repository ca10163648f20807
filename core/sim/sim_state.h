// The simulator's whole state as plain data, shared by the files that implement its parts:
//   hardware_queue.cpp   HW queues, per-engine run lists, packets
//   fence.cpp            CurrentValue, GPU signal / wait, CPU signal, rewinds
//   cpu_waiter_list.cpp  CPU waiters, wait groups, MonitoredValue (UpdateMonitoredValues)
//   interrupt.cpp        raising interrupts and the OS's handling of them (logs, releases)
//   thread_program.cpp   CPU threads running scenario scripts
//   async_pipeline_program.cpp  seed 001's asynchronous compute/graphics loop
//   shader_pgo.cpp       the driver's PGO: instrumentation, histograms, variants (seed 000)
//   background_tasks.cpp the runtime's background thread pool, commits (seed 000)
//   background_mode.cpp  SetBackgroundProcessingMode, PSO / device destruction (seed 000)
//   simulator.cpp        topology, the event loop, the end of the run
//   preemption.cpp       GPU preemption and TDR (seed 004), hooked into the run lists
//
// Everything a run records goes through Emit() to the TraceWriter, in simulation time order.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "core/model/types.h"
#include "core/sim/event_queue.h"
#include "core/sim/log_buffer.h"
#include "core/sim/preemption_state.h"
#include "core/sim/scenario.h"
#include "core/sim/sim_random.h"
#include "core/store/trace_writer.h"

namespace core::sim {

using core::model::EventRowId;
using core::store::EventRecord;

// One command in a HW queue, in submission order.
struct GpuCommand {
  enum class Kind : uint8_t { kPacket, kSignal, kWait };
  Kind kind = Kind::kPacket;
  uint32_t fence = 0;       // fence index (signal / wait)
  uint64_t value = 0;       // fence value (signal / wait)
  int64_t op = 0;           // packet id, or fence operation id (signal_id / wait_id)
  DurationNs remaining_ns = 0;  // packet: GPU time still to run (preemption resumes from here)
  // Resource accesses of a packet: the scenario step's list evaluated at `frame`, or one direct
  // access (direct_resource >= 0).
  const std::vector<ResourceUse>* uses = nullptr;
  int64_t frame = 0;
  int32_t direct_resource = -1;
  int64_t direct_slot = 0;
  bool direct_write = false;
  // seed 000 PGO: the PSO and constant set the packet runs with, the thread that submitted it,
  // and whether the driver instrumented it.
  int32_t pso = -1;
  int64_t constants = 0;
  uint32_t thread = 0;
  bool instrumented = false;
  // seed 004: the packet's structure and full GPU time (where it can stop), the scheduler fence
  // id of its (re)submission, the render command it is a split packet of (0: not split).
  const PacketShape* shape = nullptr;  // nullptr: PacketShape defaults
  DurationNs duration_ns = 0;
  int64_t fence_submission = 0;
  int64_t render_command = 0;
  bool last_split = true;
  bool paging = false;
  bool preempted = false;  // stopped mid-way: it resumes (context restore) instead of starting
};

enum class QueueStatus : uint8_t {
  kIdle,     // nothing at the head, or the head not yet looked at
  kReady,    // a packet at the head waits for the engine
  kRunning,  // its head packet runs on the engine
  kBlocked,  // its head is a fence wait not yet satisfied
};

struct HwQueue {
  core::model::QueueId id = 0;
  core::model::ContextId context = 0;
  uint32_t engine = 0;
  uint32_t adapter = 0;
  int32_t priority = 0;
  std::deque<GpuCommand> commands;
  QueueStatus status = QueueStatus::kIdle;
  uint64_t ready_seq = 0;     // order in which queues became ready (FIFO among equal priority)
  TimeNs wait_observed = 0;   // FenceObservedGpuTimestamp of the blocked head wait
  bool has_logs = false;      // native fences on a user-mode queue: wait and signal logs
  LogBuffer logs[2];          // [LogType]: 0 wait log, 1 signal log
  bool lost = false;          // seed 004: its context was lost in a TDR; submissions are dropped
};

// Per-engine run list: the queues that feed the engine and the packet running on it.
struct EngineState {
  core::model::EngineId id = 0;
  uint32_t adapter = 0;
  std::vector<uint32_t> queues;
  int32_t running = -1;      // queue index whose head packet runs, or -1
  uint64_t generation = 0;   // bumped on every start, so a stale completion is ignored
  TimeNs started = 0;
  EnginePreemption preempt;  // seed 004
};

struct GpuWaiter {
  uint32_t queue = 0;
  uint64_t value = 0;
  int64_t wait_id = 0;
};

// seed 001: a GPU wait from the moment it is queued until its queue reaches it. "If a race does
// occur, between a value which will satisfy an outstanding wait, and a lower value which will
// not, the wait will be satisfied regardless of which value remains afterwards": a value that
// reaches it while it is outstanding satisfies it, even if the fence is rewound before its queue
// gets there.
struct OutstandingWait {
  uint32_t queue = 0;
  uint64_t value = 0;
  int64_t wait_id = 0;
  bool satisfied = false;
  int64_t satisfied_by = 0;  // signal_id of the first value that reached it (0: initial value)
};

struct CpuWaiter {
  int64_t waiter_id = 0;
  uint64_t value = 0;
  uint32_t thread = 0;  // thread index
  uint32_t group = 0;   // wait group index
};

struct FenceState {
  core::model::FenceId id = 0;
  uint32_t owner = 0;            // adapter index
  bool cross_adapter = false;
  std::vector<uint32_t> adapters;  // adapters it is opened on (owner first)
  std::vector<bool> native_on;   // [adapter index]: native fence there, else legacy monitored
  uint64_t current = 0;          // CurrentValue (one copy, shared by all adapters)
  int64_t last_signal_id = 0;    // operation that wrote CurrentValue (0: initial value)
  bool tracks_monitored = false; // native, not cross-adapter: MonitoredValue follows waiters
  uint64_t monitored = 0;        // MonitoredValue
  std::vector<CpuWaiter> cpu_waiters;  // the CPU waiter list
  std::vector<GpuWaiter> gpu_waiters;  // blocked queue heads (native waits, or held by the OS)
  std::vector<OutstandingWait> unreached_waits;  // queued GPU waits their queue has not reached
};

// A SetEventOnCompletion / WaitForMultipleObjects call: the thread wakes when one (any) or all
// of its members are released.
struct WaitGroup {
  uint32_t thread = 0;
  WaitMode mode = WaitMode::kSingle;
  uint32_t pending = 0;
  int32_t satisfied_member = -1;        // first member released (wait-any)
  std::vector<int64_t> members;         // waiter ids, in call order
  std::vector<uint32_t> member_fences;  // fence index per member
  bool done = false;
};

struct CpuThread {
  core::model::ThreadId id = 0;
  const ThreadSpec* spec = nullptr;
  int64_t frame = 1;
  size_t pc = 0;
  bool done = false;
  bool blocked = false;
  uint32_t group = 0;  // wait group it is blocked on
  // seed 001 asynchronous compute/graphics program state.
  int64_t frame_numbers[2] = {0, 0};
  bool started = false;
  bool awaiting = false;  // blocked in WaitForMultipleObjects; the released member picks the stage
  bool stop_loop = false;  // FurtherMeasurementsDesired came back false (stop_when_converged)
  bool destroying = false; // waiting in device destruction for in-flight background tasks
  TimeNs last_step_ts = -1;   // guards against a program that never advances simulated time
  uint64_t steps_at_ts = 0;
};

// seed 000: what the driver's PGO knows about one constant set of one PSO.
struct ConstantStats {
  int64_t samples = 0;      // histogram count since the last variant / discard
  int32_t level = 0;        // specialisation rounds applied
  bool task_pending = false;
};

struct PsoState {
  core::model::PsoId id = 0;
  bool destroyed = false;
  int32_t next_variant = 1;
  std::vector<std::pair<int64_t, ConstantStats>> constants;  // in first-seen order
  ConstantStats& Stats(int64_t constant) {
    for (auto& [c, stats] : constants) {
      if (c == constant) return stats;
    }
    constants.emplace_back(constant, ConstantStats{});
    return constants.back().second;
  }
};

struct BackgroundTask {
  int64_t id = 0;
  uint32_t pso = 0;
  int64_t constants = 0;
  int32_t level = 0;        // level the variant reaches
  int32_t variant = 0;
  int64_t commit = 0;       // commit id, 0 none
  DurationNs duration = 0;
  bool started = false;
  bool ended = false;       // finished or cancelled
};

struct CommitState {
  int64_t id = 0;
  int64_t call_id = 0;
  uint32_t tasks = 0;
  uint32_t outstanding = 0;
  bool high_priority = false;
  int32_t waiting_thread = -1;  // thread in WaitForSingleObject on the completion event
  bool done = false;
};

// seed 000: the runtime's background thread pool and the driver's PGO state.
struct BackgroundState {
  BackgroundMode mode = BackgroundMode::kAllowed;
  std::vector<core::model::ThreadId> thread_ids;  // runtime-owned threads
  std::vector<int64_t> running_task;              // per runtime thread: task index or -1
  std::deque<size_t> queue;                       // queued task indices, in order received
  std::vector<BackgroundTask> tasks;
  std::vector<CommitState> commits;
  std::vector<PsoState> psos;
  uint32_t running = 0;
  uint32_t high_priority_open = 0;  // high-priority commits with tasks outstanding
  bool device_destroyed = false;
  bool hold_starts = false;  // a commit is being set up: its tasks start once it is complete
  int64_t next_call_id = 1;
  // The current pass (since the last SetBackgroundProcessingMode call).
  bool pass_instrumented = false;
  bool pass_found_new = false;
};

struct PendingInterrupt {
  uint32_t adapter = 0;
  uint32_t engine = 0;
  uint32_t queue = 0;      // queue index that raised it
  uint32_t fence = 0;
  uint64_t value = 0;
  int64_t signal_id = 0;
  uint32_t flags = 0;      // interrupt_flags as recorded
};

// A GPU wait the OS lets go after a delay: held on the CPU (legacy monitored fence) or
// propagated from another adapter (cross-adapter fence).
struct PendingRelease {
  uint32_t queue = 0;
  uint32_t fence = 0;
  uint64_t value = 0;
  int64_t wait_id = 0;
  int64_t signal_id = 0;
  core::model::WaitPath path = core::model::WaitPath::kCpuHeld;
};

// Marks cpu_wait_released.arg0 to be replaced by the rowid of the interrupt being handled.
constexpr int64_t kInterruptRowPlaceholder = -1;

struct Sim {
  const Scenario* scenario = nullptr;
  core::store::TraceWriter* writer = nullptr;
  SimRandom random{1};
  FenceMode fence_mode = FenceMode::kNative;
  TimeNs now = 0;
  TimeNs end_limit = 0;
  EventQueue events;

  std::vector<core::model::AdapterId> adapter_ids;
  std::vector<std::vector<uint32_t>> adapter_queues;  // [adapter] -> queue indices
  std::vector<std::vector<uint32_t>> adapter_fences;  // [adapter] -> fences opened there
  std::vector<EngineState> engines;
  std::vector<HwQueue> queues;
  std::vector<FenceState> fences;
  std::vector<core::model::ResourceId> resource_ids;
  std::vector<CpuThread> threads;
  std::vector<WaitGroup> groups;
  std::vector<PendingInterrupt> interrupts;
  std::vector<PendingRelease> releases;
  std::vector<std::vector<core::model::StringId>> step_name_sids;  // [thread][step] packet name
  std::vector<uint32_t> queues_to_advance;  // queues unblocked this instant, advanced by the loop
  std::vector<AdapterPreemption> preemption;  // [adapter] granularities as run (seed 004)
  BackgroundState bg;

  int64_t next_packet_id = 1;
  int64_t next_fence_op_id = 1;
  int64_t next_waiter_id = 1;
  uint64_t next_ready_seq = 1;
  int64_t next_preemption_id = 1;

  // While an interrupt is handled its follow-up records are held back, so the interrupt record
  // (which counts them) comes first and they can name its rowid.
  bool deferring = false;
  std::vector<EventRecord> deferred;

  EventRowId Emit(const EventRecord& e) {
    if (deferring) {
      deferred.push_back(e);
      return 0;
    }
    return writer->Append(e);
  }
  bool NativeOn(uint32_t fence, uint32_t adapter) const { return fences[fence].native_on[adapter]; }
};

// hardware_queue.cpp
void PushGpuCommand(Sim& sim, uint32_t queue, GpuCommand command);
void AdvanceQueue(Sim& sim, uint32_t queue);
void AdvanceUnblockedQueues(Sim& sim);
void TryStartEngine(Sim& sim, uint32_t engine);
void OnPacketDone(Sim& sim, uint32_t engine, uint64_t generation);
// Records FENCE_WAIT_UNBLOCKED (and its wait-log entry) and lets the queue continue.
void UnblockQueueWait(Sim& sim, uint32_t queue, uint64_t value, int64_t wait_id,
                      int64_t signal_id, core::model::WaitPath path, TimeNs observed);
void WriteLog(Sim& sim, uint32_t queue, core::model::LogType type, uint32_t fence, uint64_t value,
              int64_t op, TimeNs observed);

// preemption.cpp: GPU preemption and TDR (seed 004)
// A higher-priority queue is ready while a lower one runs: ask the engine to preempt.
void RequestPreemptionIfNeeded(Sim& sim, uint32_t engine);
// The queue that must run next on the engine (a pinned split packet, a resubmitted paging
// packet), or -1 for the usual choice by priority.
int32_t ForcedNextQueue(Sim& sim, uint32_t engine);
// The engine starts its running queue's head packet: records packet_resumed for a preempted one
// and returns the context restore time before its work begins (0 for a fresh packet).
DurationNs BeginPacketWork(Sim& sim, uint32_t engine);
// The running packet completed (before it leaves its queue): completes a request waiting for
// the end of the packet, pins the next split packet in the pre-WDDM 1.2 model.
void OnPacketFinished(Sim& sim, uint32_t engine);
// Pre-WDDM 1.2: a queue blocked on a GPU wait with its engine idle holds the engine until the
// wait is satisfied (the hardware wait cannot be preempted); released by ReleaseWaitHold.
void HoldEngineForWait(Sim& sim, uint32_t queue);
void ReleaseWaitHold(Sim& sim, uint32_t queue);
void OnPreemptionEvent(Sim& sim, uint32_t engine, int64_t preemption_id);
void OnTdrTimeout(Sim& sim, uint32_t engine, int64_t preemption_id);
// Submits an execute step's packet, as `split_packets` DMA packets of one render command.
void SubmitRenderCommand(Sim& sim, uint32_t thread, uint32_t queue, const Step& step,
                         core::model::StringId name, GpuCommand packet, uint32_t flags);

// fence.cpp
void ExecuteGpuSignal(Sim& sim, uint32_t queue, const GpuCommand& signal);
// A GPU wait was queued (FENCE_WAIT_QUEUED): it is outstanding from now on (seed 001).
void NoteQueuedWait(Sim& sim, uint32_t queue, const GpuCommand& wait);
// Returns true when the wait is satisfied at once (the queue goes on).
bool ReachGpuWait(Sim& sim, uint32_t queue, const GpuCommand& wait);
void CpuSignal(Sim& sim, uint32_t thread, uint32_t fence, uint64_t value);
// Releases the GPU waits of `fence` on `adapter` satisfied by `observed`: at once on the GPU
// (native) or after the adapter's delay (held by the OS / propagated). `signal_id` /
// `signal_value` name the signal the OS is acting on. Returns how many.
uint32_t ReleaseGpuWaiters(Sim& sim, uint32_t fence, uint32_t adapter, uint64_t observed,
                           int64_t signal_id, uint64_t signal_value, bool from_other_adapter);
void OnWaitRelease(Sim& sim, uint64_t release_index);
// seed 003: the OS propagates a cross-adapter fence's value to another adapter.
void RecordPropagation(Sim& sim, uint32_t fence, uint64_t value, uint32_t from, uint32_t to);
// signal_id that made CurrentValue >= value, preferring `candidate` when its value does.
int64_t SatisfyingSignal(const FenceState& f, uint64_t value, int64_t candidate,
                         uint64_t candidate_value);

// cpu_waiter_list.cpp
// Creates a wait group over fences/values; returns the group index. Members satisfied at once
// are released immediately (arg0 = 0). `*satisfied` tells whether the thread may go on.
uint32_t BeginCpuWait(Sim& sim, uint32_t thread, const std::vector<uint32_t>& fences,
                      const std::vector<uint64_t>& values, WaitMode mode, bool* satisfied);
// Releases the CPU waiters of `fence` with value <= observed; arg0 = interrupt_row (or the
// placeholder). Returns how many were released.
uint32_t ReleaseCpuWaiters(Sim& sim, uint32_t fence, uint64_t observed, int64_t interrupt_row);
// seed 003: MonitoredValue = least CPU-waited value - 1, UINT64_MAX with no waiter
// (DxgkDdiUpdateMonitoredValues). Records monitored_value_updated when it changes.
void UpdateMonitoredValue(Sim& sim, uint32_t fence);

// interrupt.cpp
void MaybeRaiseInterrupt(Sim& sim, uint32_t queue, uint32_t fence, uint64_t value,
                         int64_t signal_id);
void HandleInterrupt(Sim& sim, uint64_t interrupt_index);
// The OS reads every log of `adapter` (periodic read, end of trace).
void ReadAdapterLogs(Sim& sim, uint32_t adapter);

// background_tasks.cpp: the runtime's thread pool (seed 000)
void SetUpBackground(Sim& sim);
// QueueProcessingWorkCb from `caller`; returns false when cancelled at once (disabled).
bool QueueBackgroundTask(Sim& sim, uint32_t caller, uint32_t pso, int64_t constants, int64_t commit,
                         bool bypass_disable);
void TryStartTasks(Sim& sim);
// Commit bookkeeping when a task finishes or is cancelled.
void TaskEnded(Sim& sim, const BackgroundTask& task);
void CompleteCommitIfEmpty(Sim& sim, CommitState& commit);
void OnTaskDone(Sim& sim, uint32_t bg_thread, uint64_t task);
// CPU cost of `cost` on `thread`, slowed while a task runs on a runtime thread sharing its core.
DurationNs WithInterference(const Sim& sim, uint32_t thread, DurationNs cost);

// background_mode.cpp: SetBackgroundProcessingMode, PSO and device destruction (seed 000)
// Returns false when the calling thread must block (waiting for a commit or for destruction).
bool SetBackgroundProcessingMode(Sim& sim, uint32_t thread, const Step& step);
void DestroyPso(Sim& sim, uint32_t thread, uint32_t pso);
bool DestroyDevice(Sim& sim, uint32_t thread);

// shader_pgo.cpp: the driver's profile-guided optimisation (seed 000)
// Sets the packet's PSO fields, instrumentation, and its duration with variants and overhead;
// returns the packet_submitted flags.
uint32_t PlanPgoPacket(Sim& sim, uint32_t thread, const Step& step, int64_t frame,
                       GpuCommand& packet);
void OnPgoPacketDone(Sim& sim, const GpuCommand& packet);
// Packet time factor with `level` rounds of specialisation applied: speedup^level.
double SpeedupFactor(double speedup, int32_t level);
// (PSO, constants) pairs a commit would queue now: measured, no task pending, level < levels.
std::vector<std::pair<uint32_t, int64_t>> CommitCandidates(Sim& sim);
// True while some measured constant set could still lead to a recompile.
bool MeasurementsIncomplete(const Sim& sim);

// thread_program.cpp / async_pipeline_program.cpp
// API calls a CPU thread makes: record the *_QUEUED / packet_submitted event and queue the work.
void SubmitPacket(Sim& sim, uint32_t thread, uint32_t queue, DurationNs duration,
                  core::model::StringId name, GpuCommand packet, uint32_t flags = 0);
void QueueGpuSignal(Sim& sim, uint32_t thread, uint32_t queue, uint32_t fence, uint64_t value);
void QueueGpuWait(Sim& sim, uint32_t thread, uint32_t queue, uint32_t fence, uint64_t value);
void RunThread(Sim& sim, uint32_t thread);
void RunAsyncPipeline(Sim& sim, uint32_t thread);
void WakeThread(Sim& sim, uint32_t thread);
// Marks the thread finished and starts the threads that wait for it (start_after).
void FinishThread(Sim& sim, uint32_t thread);

}  // namespace core::sim
