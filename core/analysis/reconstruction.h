// Reconstruction: what the event records mean, derived from the records alone (pairing queued ->
// executed, queued -> unblocked, submitted -> started -> completed, linking waits to the signals
// and interrupts that released them). Simulated and imported traces go through the same code.
//
// Layout
//   * Every kind of box lives once in a flat table of plain structs (packets, signals, waits,
//     cpu_waits, interrupts, tasks, ...). Cross references are indices into those tables
//     (kNoIndex when there is none), so the result can be copied and read without pointers.
//   * The tables are bit-packed field by field (PackedTable, core/store/packed_table.h: about a
//     fifth of the memory of plain vectors). Reading a row returns the struct by value, so the
//     result cannot be modified after Reconstruct; `const Packet& p = r.packets[i]` and
//     `for (const auto& p : r.packets)` read copies. Get<&Packet::start>(i) reads one field.
//     Each struct lists its fields in kPackedFields; a field added to a struct but not to that
//     list is a compile error. Reconstruct builds plain vectors and packs them at the end.
//   * Per track views: queues[queue id] and threads[thread id] (slot 0 = "no queue / no thread")
//     hold index lists (bit-packed too) into the flat tables, each list sorted by the box's
//     start time (ties keep record order). The desktop timeline draws from these lists.
//   * Times are TimeNs on the trace's time base. kUnknownTime marks a time the trace has no
//     record for (an import without that record, a box still open at the end).
//
//   queue Q   |--submit .. start==[run]==preempt   resume==[run]==end|
//             |   [wait queued ......... unblocked]                 |
//             |                          ^ linked signal (another queue) executed here
//
// Tolerance: records may be missing (imports, log overruns). A box is made from whichever
// records exist; what could not be paired or linked is counted in `problems` (named counters,
// the way import_problems works) and never makes Reconstruct fail.
//
// Thread safety: Reconstruct is a pure function of the store; the result is read-only data with
// no caches inside, so several threads may read it at once.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "core/model/types.h"
#include "core/store/packed_column.h"
#include "core/store/packed_table.h"
#include "core/store/trace_store.h"

namespace core::analysis {

using namespace core::model;  // NOLINT: value types are the vocabulary here

constexpr uint32_t kNoIndex = std::numeric_limits<uint32_t>::max();
constexpr TimeNs kUnknownTime = std::numeric_limits<TimeNs>::min();

// One stretch of a packet actually running on its queue. A packet runs in one segment, or in
// several when it was preempted and resumed.
struct RunSegment {
  TimeNs start = 0;
  TimeNs end = 0;            // trace end when the packet had not completed (open = true)
  uint32_t packet = kNoIndex;  // index into Reconstruction::packets
  bool preempted = false;    // this segment ended with packet_preempted
  bool resumed = false;      // this segment began with packet_resumed
  bool open = false;         // no record ended it before the trace ended
  bool reset = false;        // a TDR reset the engine under it (the packet was lost)
  static constexpr auto kPackedFields = std::make_tuple(
      &RunSegment::start, &RunSegment::end, &RunSegment::packet, &RunSegment::preempted,
      &RunSegment::resumed, &RunSegment::open, &RunSegment::reset);
};

struct Packet {
  int64_t packet_id = 0;
  QueueId queue = 0;
  ThreadId thread = 0;        // submitting thread (packet_submitted), 0 when unknown
  ContextId context = 0;
  StringId name = 0;
  uint32_t flags = 0;         // packet_flags (core/model/types.h kPacket*)
  DurationNs planned_ns = 0;  // packet_submitted.value
  TimeNs submit = kUnknownTime;
  TimeNs start = kUnknownTime;  // first packet_started
  TimeNs end = kUnknownTime;    // packet_completed
  uint32_t preemptions = 0;
  bool lost = false;          // lost in a TDR (its run, if any, ends at the reset)
  // This packet's run segments: `segments` of them in QueueTrack::segments, the first at
  // first_segment. A preempted packet's later segments need not follow it directly: other
  // packets' segments may lie in between (the list is by start time).
  uint32_t first_segment = 0;
  uint32_t segments = 0;
  // Event indices (into TraceStore::events) of the records, kNoIndex when absent.
  uint32_t submit_event = kNoIndex;
  uint32_t start_event = kNoIndex;
  uint32_t end_event = kNoIndex;
  static constexpr auto kPackedFields = std::make_tuple(
      &Packet::packet_id, &Packet::queue, &Packet::thread, &Packet::context, &Packet::name,
      &Packet::flags, &Packet::planned_ns, &Packet::submit, &Packet::start, &Packet::end,
      &Packet::preemptions, &Packet::lost, &Packet::first_segment, &Packet::segments,
      &Packet::submit_event, &Packet::start_event, &Packet::end_event);
};

// A fence signal: GPU (queued on a queue, executed by it) or CPU (ID3D12Fence::Signal, queued
// and executed at the same time on a thread).
struct SignalBox {
  int64_t signal_id = 0;
  FenceId fence = 0;
  FenceValue value = 0;
  FenceValue previous_value =
      0;  // CurrentValue before the write (fence_signal_executed.previous_value)
  QueueId queue = 0;              // 0 for a CPU signal
  ThreadId thread = 0;            // thread that queued it / called Signal
  TimeNs queued = kUnknownTime;
  TimeNs executed = kUnknownTime;  // kUnknownTime: never executed in the trace
  bool cpu = false;                // fence_cpu_signal
  bool rewind = false;             // value < previous_value (seed 001: fences may be rewound)
  uint32_t queued_event = kNoIndex;
  uint32_t executed_event = kNoIndex;
  uint32_t interrupts = 0;  // interrupt records naming this signal
  static constexpr auto kPackedFields =
      std::make_tuple(&SignalBox::signal_id, &SignalBox::fence, &SignalBox::value,
                      &SignalBox::previous_value, &SignalBox::queue, &SignalBox::thread,
                      &SignalBox::queued, &SignalBox::executed, &SignalBox::cpu, &SignalBox::rewind,
                      &SignalBox::queued_event, &SignalBox::executed_event, &SignalBox::interrupts);
};

enum class SignalLink : uint8_t {
  kNone = 0,       // no signal found
  kExplicit = 1,   // fence_wait_unblocked.released_by_signal_id
  kByValue = 2,    // first signal on the fence reaching the value (see Reconstruct)
};

// A GPU wait on a queue: queued (CPU timestamp) -> unblocked (GPU timestamp).
struct WaitBox {
  int64_t wait_id = 0;
  FenceId fence = 0;
  FenceValue value = 0;
  QueueId queue = 0;
  ThreadId thread = 0;            // thread that queued it
  TimeNs queued = kUnknownTime;
  TimeNs observed = kUnknownTime;  // FenceObservedGpuTimestamp, when recorded
  TimeNs unblocked = kUnknownTime;  // kUnknownTime: never unblocked in the trace
  WaitPath path = WaitPath::kGpuNative;
  uint32_t signal = kNoIndex;  // index into signals of the releasing signal
  SignalLink link = SignalLink::kNone;
  // Waits held on the CPU (monitored fences, cross-adapter propagation): the first interrupt
  // naming the releasing signal, at or before the unblock. kNoIndex for GPU-native waits.
  uint32_t interrupt = kNoIndex;
  bool pending_at_end = false;     // a wait_pending_at_end record names it
  FenceValue value_at_end = 0;     // CurrentValue at the end (wait_pending_at_end.current_value)
  // fence_wait_unblocked.release_link == inferred: the importer worked the releasing signal out
  // from timing and call order; the trace itself did not say.
  bool link_inferred = false;
  uint32_t queued_event = kNoIndex;
  uint32_t unblocked_event = kNoIndex;
  // Start of the box for drawing and sorting: queued, else observed, else unblocked.
  TimeNs Begin() const;
  static constexpr auto kPackedFields = std::make_tuple(
      &WaitBox::wait_id, &WaitBox::fence, &WaitBox::value, &WaitBox::queue, &WaitBox::thread,
      &WaitBox::queued, &WaitBox::observed, &WaitBox::unblocked, &WaitBox::path, &WaitBox::signal,
      &WaitBox::link, &WaitBox::interrupt, &WaitBox::pending_at_end, &WaitBox::value_at_end,
      &WaitBox::link_inferred, &WaitBox::queued_event, &WaitBox::unblocked_event);
};

// A CPU waiter (SetEventOnCompletion / WaitForMultipleObjects) on a thread: begin -> released.
struct CpuWait {
  int64_t waiter_id = 0;
  ThreadId thread = 0;
  FenceId fence = 0;
  FenceValue value = 0;
  int64_t group = 0;     // cpu_wait_begin.group_id
  uint8_t mode = 0;      // 0 single, 1 wait-any, 2 wait-all
  TimeNs begin = kUnknownTime;
  TimeNs released = kUnknownTime;  // kUnknownTime: still waiting at the end
  FenceValue observed_value = 0;   // CurrentValue the OS saw when releasing
  uint32_t interrupt = kNoIndex;   // index into interrupts of the releasing interrupt
  uint32_t signal = kNoIndex;      // signal that reached the value (by fence + value)
  // cpu_wait_withdrawn: taken off the waiter list because another member of its wait-any group
  // was released first; it is never released itself and is not a pending wait.
  TimeNs withdrawn = kUnknownTime;
  bool pending_at_end = false;
  FenceValue value_at_end = 0;  // CurrentValue at the end (wait_pending_at_end.current_value)
  bool link_inferred = false;  // cpu_wait_released.release_link == inferred
  uint32_t begin_event = kNoIndex;
  uint32_t released_event = kNoIndex;
  TimeNs Begin() const { return begin != kUnknownTime ? begin : released; }
  static constexpr auto kPackedFields =
      std::make_tuple(&CpuWait::waiter_id, &CpuWait::thread, &CpuWait::fence, &CpuWait::value,
                      &CpuWait::group, &CpuWait::mode, &CpuWait::begin, &CpuWait::released,
                      &CpuWait::observed_value, &CpuWait::interrupt, &CpuWait::signal,
                      &CpuWait::withdrawn, &CpuWait::pending_at_end, &CpuWait::value_at_end,
                      &CpuWait::link_inferred, &CpuWait::begin_event, &CpuWait::released_event);
};

struct Interrupt {
  TimeNs ts = 0;
  QueueId queue = 0;       // the HWQueue an optimized interrupt names; 0 = none
  FenceId fence = 0;
  FenceValue value = 0;
  int64_t signal_id = 0;
  uint32_t signal = kNoIndex;  // index into signals
  AdapterId adapter = 0;
  uint32_t waiters_released = 0;   // as recorded (CPU and CPU-held waiters)
  uint32_t cpu_waits_linked = 0;   // cpu_wait_released records pointing at this interrupt
  uint32_t gpu_waits_linked = 0;   // CPU-held GPU waits whose WaitBox::interrupt is this one
  uint32_t fences_evaluated = 0;
  uint32_t flags = 0;              // interrupt_flags
  // seed 003: an interrupt that releases nobody is the permitted race ("an interrupt
  // notification that doesn't unblock any waiters"), counted, never a lost wake-up.
  bool spurious = false;
  uint32_t event = kNoIndex;
  InterruptType Type() const { return static_cast<InterruptType>(flags & kInterruptTypeMask); }
  static constexpr auto kPackedFields = std::make_tuple(
      &Interrupt::ts, &Interrupt::queue, &Interrupt::fence, &Interrupt::value,
      &Interrupt::signal_id, &Interrupt::signal, &Interrupt::adapter, &Interrupt::waiters_released,
      &Interrupt::cpu_waits_linked, &Interrupt::gpu_waits_linked, &Interrupt::fences_evaluated,
      &Interrupt::flags, &Interrupt::spurious, &Interrupt::event);
};

// A "data missing" window on a queue: the log overrun's entries were overwritten before the OS
// read them, so records between missing_since and the overrun's detection may be absent.
struct MissingWindow {
  QueueId queue = 0;
  TimeNs start = 0;  // log_overrun.missing_since_ns (the last entry the OS had read)
  TimeNs end = 0;    // when the overrun was detected
  uint64_t entries_lost = 0;
  LogType log = LogType::kWait;
  uint32_t event = kNoIndex;
  static constexpr auto kPackedFields =
      std::make_tuple(&MissingWindow::queue, &MissingWindow::start, &MissingWindow::end,
                      &MissingWindow::entries_lost, &MissingWindow::log, &MissingWindow::event);
};

enum class TaskOutcome : uint8_t { kPending = 0, kFinished = 1, kCancelled = 2, kAbandoned = 3 };

// A background (PGO) task: queued by the application, run on a runtime background thread.
struct BackgroundTask {
  int64_t task_id = 0;
  ThreadId queued_by = 0;   // thread that called QueueProcessingWorkCb
  ThreadId thread = 0;      // runtime thread that ran it (0: never started)
  PsoId pso = 0;
  int64_t variant = 0;
  int64_t commit = 0;
  uint8_t priority = 0;     // task_started.flags
  TimeNs queued = kUnknownTime;
  TimeNs started = kUnknownTime;
  TimeNs ended = kUnknownTime;  // finished, cancelled or abandoned
  TaskOutcome outcome = TaskOutcome::kPending;
  TimeNs Begin() const { return started != kUnknownTime ? started : queued; }
  static constexpr auto kPackedFields =
      std::make_tuple(&BackgroundTask::task_id, &BackgroundTask::queued_by, &BackgroundTask::thread,
                      &BackgroundTask::pso, &BackgroundTask::variant, &BackgroundTask::commit,
                      &BackgroundTask::priority, &BackgroundTask::queued, &BackgroundTask::started,
                      &BackgroundTask::ended, &BackgroundTask::outcome);
};

// One SetBackgroundProcessingMode call (a PGO pass boundary), with its commit when it made one.
struct ModeChange {
  TimeNs ts = 0;
  ThreadId thread = 0;
  int64_t call_id = 0;
  int64_t result = 0;     // 0 success, 1 refused
  BackgroundMode mode = BackgroundMode::kAllowed;
  MeasurementsAction action = MeasurementsAction::kKeepAll;
  int64_t commit = 0;
  bool further_measurements_desired = false;
  TimeNs commit_completed = kUnknownTime;
  int64_t commit_tasks = 0;
  static constexpr auto kPackedFields =
      std::make_tuple(&ModeChange::ts, &ModeChange::thread, &ModeChange::call_id,
                      &ModeChange::result, &ModeChange::mode, &ModeChange::action,
                      &ModeChange::commit, &ModeChange::further_measurements_desired,
                      &ModeChange::commit_completed, &ModeChange::commit_tasks);
};

// seed 004: one preemption request, drawn on the timeline of the queue whose packet was to make
// way: requested -> completed (latency), or -> a TDR when no preemption point came in time.
struct PreemptionMarker {
  int64_t preemption_id = 0;
  QueueId queue = 0;              // queue whose running packet was to be preempted
  QueueId requesting_queue = 0;   // queue whose work asked for the engine
  EngineId engine = 0;
  uint32_t packet = kNoIndex;     // index into packets of the packet running at the request
  PreemptionGranularity granularity = PreemptionGranularity::kNone;  // in force at the request
  PreemptionGranularity reached = PreemptionGranularity::kNone;      // where it stopped
  TimeNs requested = kUnknownTime;
  TimeNs preempted = kUnknownTime;  // packet_preempted: the mid-packet preemption point
  TimeNs completed = kUnknownTime;  // kUnknownTime: never completed (TDR, or the trace ended)
  DurationNs latency_ns = 0;        // preemption_completed.latency_ns (request -> point + save)
  uint32_t tdr = kNoIndex;          // index into tdrs when the request ended in a TDR
  uint32_t requested_event = kNoIndex;
  uint32_t completed_event = kNoIndex;
  TimeNs Begin() const { return requested != kUnknownTime ? requested : completed; }
  static constexpr auto kPackedFields = std::make_tuple(
      &PreemptionMarker::preemption_id, &PreemptionMarker::queue,
      &PreemptionMarker::requesting_queue, &PreemptionMarker::engine, &PreemptionMarker::packet,
      &PreemptionMarker::granularity, &PreemptionMarker::reached, &PreemptionMarker::requested,
      &PreemptionMarker::preempted, &PreemptionMarker::completed, &PreemptionMarker::latency_ns,
      &PreemptionMarker::tdr, &PreemptionMarker::requested_event,
      &PreemptionMarker::completed_event);
};

// seed 004: Timeout Detection and Recovery: an engine reset, drawn on the hung packet's queue.
struct TdrMarker {
  TimeNs ts = 0;
  QueueId queue = 0;          // queue whose packet hung
  AdapterId adapter = 0;
  EngineId engine = 0;
  uint64_t packets_lost = 0;
  uint64_t contexts_lost = 0;
  int64_t preemption_id = 0;  // the request that timed out
  uint32_t preemption = kNoIndex;  // index into preemptions
  uint32_t event = kNoIndex;
  static constexpr auto kPackedFields =
      std::make_tuple(&TdrMarker::ts, &TdrMarker::queue, &TdrMarker::adapter, &TdrMarker::engine,
                      &TdrMarker::packets_lost, &TdrMarker::contexts_lost,
                      &TdrMarker::preemption_id, &TdrMarker::preemption, &TdrMarker::event);
};

// A named counter of what could not be paired or linked.
struct LinkProblem {
  std::string name;
  uint64_t count = 0;
  std::string description;
  TimeNs first_ts = 0;
};

// An index list of a track: indices into one of the flat tables, bit-packed.
using IndexList = core::store::PackedColumn<uint32_t>;
using core::store::PackedTable;

struct QueueTrack {
  QueueId id = 0;
  IndexList packets;                  // into packets, by start (or submit when never started)
  PackedTable<RunSegment> segments;   // this queue's run segments, by start
  IndexList signals;                  // into signals, by queued (or executed)
  IndexList waits;                    // into waits, by Begin()
  IndexList interrupts;               // into interrupts naming this queue, by ts
  PackedTable<MissingWindow> missing;  // by start
  IndexList preemptions;              // into preemptions whose packet ran here, by Begin()
  IndexList tdrs;                     // into tdrs of this queue, by ts
};

struct ThreadTrack {
  ThreadId id = 0;
  IndexList cpu_waits;    // into cpu_waits, by Begin()
  IndexList cpu_signals;  // into signals (cpu = true), by executed
  IndexList submissions;  // into packets submitted from this thread, by submit
  IndexList tasks;        // into tasks run on this thread, by started
};

struct Reconstruction {
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  PackedTable<Packet> packets;
  PackedTable<SignalBox> signals;
  PackedTable<WaitBox> waits;
  PackedTable<CpuWait> cpu_waits;
  PackedTable<Interrupt> interrupts;         // by ts
  PackedTable<BackgroundTask> tasks;         // by queued (or started)
  PackedTable<ModeChange> mode_changes;      // by ts
  PackedTable<PreemptionMarker> preemptions;  // by request (record order)
  PackedTable<TdrMarker> tdrs;               // by ts
  std::vector<QueueTrack> queues;      // [queue id]; [0] collects records without a queue
  std::vector<ThreadTrack> threads;    // [thread id]; [0] collects records without a thread
  std::vector<LinkProblem> problems;   // by name

  uint64_t Problem(const std::string& name) const;  // 0 when absent
  // Heap bytes held (the packed tables and the per-track index lists), for the benchmarks.
  size_t HeapBytes() const;
};

// Builds the reconstruction. Never throws for missing or inconsistent records.
//
// Linking a GPU or CPU wait to its releasing signal:
//   1. fence_wait_unblocked.released_by_signal_id, when non-zero and a signal has that id;
//   2. else by fence + value: the first signal executed on that fence with value >= the waited
//      value, at or before the unblock (or release), and not before the last rewind of the
//      fence that happened at or before the wait was queued (seed 001: after a rewind, new waits
//      compare against the lower value).
// A CPU wait's releasing interrupt is cpu_wait_released.interrupt_event (an events rowid).
Reconstruction Reconstruct(const core::store::TraceStore& store);

}  // namespace core::analysis
