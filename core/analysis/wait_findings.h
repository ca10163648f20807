// Waits still open when the trace ended, each put in exactly one category, and wait cycles
// (deadlocks) among queues.
//
// An open wait is a GPU wait with no unblock record, or a CPU wait with neither a release nor a
// withdrawal (a wait_pending_at_end record marks the ones the writer saw pending at its end).
// The end of a trace is not the end of the program: queues that were running still run, and a
// signal queued ahead of a wait on a queue that moves still executes. So each open wait is
// judged by what the trace shows would happen next, and only a wait that nothing in the trace
// can release is a problem.
//
// CurrentValue at the end of a fence: the value the wait_pending_at_end records give (what the
// writer saw at its end), else the value of the last executed write (GPU signal, CPU signal or
// rewind, in execution order) on the fence, else 0.
//
// Continuation: every queue runs on from where it stood at the end, in its own queue order (the
// order its signals and waits were queued: `queued`, ties by record order; packets always
// complete, so only signals and waits matter). A signal executes when its queue reaches it and
// sets the fence to its value; a wait passes when its queue reaches it and the fence has reached
// its value (or the wait is known to be satisfied, below). This repeats until no queue moves; a
// queue that still has items then is stuck at its first open wait, its head. Nothing is invented
// for the CPU: a thread's future signals are unknown. seed 004: a queue that had a TDR lost its
// context and its work; its open signals never execute and its open waits never pass.
//
// Categories, checked in this order (the first that applies):
//   1. unprocessed_at_end     CurrentValue at the end reaches the value: the queue or thread had
//                             not got to it when the trace ended.
//   2. never_unblocked        kLostInTdr: a GPU wait on a queue that had a TDR.
//   3. signal_not_in_capture  no executed signal of the fence in the trace reaches the value, yet
//                             the trace shows the fence reached it: a wait on the fence for the
//                             value or more was unblocked / released, or a thread waited on the
//                             fence for the value or more (not in a wait-any group) and later
//                             began a wait on it for a higher value (a thread blocked in a wait
//                             begins no other; this covers the wait itself). Typical of
//                             captures that start or end mid-run. In the continuation such a
//                             wait passes.
//   4. pending_at_end         the continuation releases it: a signal reaching the value is
//                             queued on a queue that gets to it (ahead of the wait on the same
//                             queue, or on another queue). Late, not stuck.
//   5. never_unblocked        kBehindStuckWait: its queue is stuck at an earlier wait (blocker).
//   6. never_unblocked        kSignalBlocked: a signal reaching it is queued, but on a queue
//                             stuck at a wait ahead of that signal (signal_queued_on, blocker).
//   7. stuck_after_rewind     the fence had reached the value (an executed write >= value) and
//                             a later write lowered it below (seed 001: fences may be rewound,
//                             and waits compare against the current value).
//   8. never_unblocked        kLostInTdr: the only queued signals reaching it were lost in a
//                             TDR; else kNeverSignalled: no signal reaching it was queued.
// waits_never_unblocked counts only never_unblocked; waits_stuck (the CI gate key) counts every
// wait nothing in or after the trace can release: never_unblocked and stuck_after_rewind.
//
// Wait graph among stuck queues: A -> B when A's head wait (kSignalBlocked) needs fence F >= v
// and B holds a signal of F reaching v queued behind B's own head. A cycle A -> B -> ... -> A is
// a deadlock: every queue on it waits, before its own signal, for a signal of the next one.
// A queue waiting for a signal queued behind its own head is a cycle of one. Queues that are
// only late (pending_at_end) are never on a cycle.
//
//   queue A  [run]--signal F1=24--wait F2>=24--      at the end: A runs a packet; B waits F1>=24.
//   queue B  --wait F1>=24--signal F2=24--           A's signal comes first: both pending_at_end.
//
//   queue A  --wait F1>=1--signal F2=1--             both heads wait for a signal queued behind
//   queue B  --wait F2>=1--signal F1=1--             the other's head: a cycle, never_unblocked.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/analysis/wait_ref.h"

namespace core::analysis {

// Which list of WaitFindings an open wait is in.
enum class OpenWaitCategory : uint8_t {
  kNeverUnblocked = 0,
  kUnprocessedAtEnd,
  kPendingAtEnd,
  kSignalNotInCapture,
  kStuckAfterRewind,
};

enum class StuckReason : uint8_t {
  kNone = 0,         // not never_unblocked
  kNeverSignalled,   // no signal reaching the value was queued in the trace
  kSignalBlocked,    // a signal reaching it is queued on signal_queued_on behind `blocker`
  kBehindStuckWait,  // its own queue is stuck at an earlier wait (`blocker`)
  kLostInTdr,        // the wait, or every queued signal reaching it, was lost in a TDR
};

// A wait a queue is stuck at (the head of a stuck queue).
struct BlockingWait {
  int64_t wait_id = 0;  // 0: none
  QueueId queue = 0;
  FenceId fence = 0;
  FenceValue value = 0;
};

// signal_not_in_capture: what shows that the fence reached `value` by `at`: a wait for `value`
// unblocked / released at `at`, or (later_value != 0) a CPU wait for `value` after which the
// same thread began a wait for the higher later_value at `at`.
struct ReachEvidence {
  FenceValue value = 0;
  TimeNs at = kUnknownTime;
  FenceValue later_value = 0;
  bool cpu = false;  // the wait for `value` is a CPU wait on `thread`, else a GPU wait on `queue`
  QueueId queue = 0;
  ThreadId thread = 0;
};

struct PendingWait : WaitRef {
  int64_t wait_id = 0;
  TimeNs since = kUnknownTime;  // queued / begin
  bool recorded_pending = false;  // a wait_pending_at_end record names it
  FenceValue value_at_end = 0;    // the fence's CurrentValue at the end (see above)
  bool fence_written = false;     // an executed write of the fence is in the trace
  OpenWaitCategory category = OpenWaitCategory::kNeverUnblocked;
  // never_unblocked: the queue holding a queued signal reaching the value that never executes
  // (0: none was queued). pending_at_end: the queue whose signal releases it in the
  // continuation.
  QueueId signal_queued_on = 0;
  StuckReason reason = StuckReason::kNone;
  BlockingWait blocker;  // kSignalBlocked / kBehindStuckWait
  // stuck_after_rewind: the last write reaching the value, and the write that lowered it.
  FenceValue reached_value = 0;
  TimeNs reached_at = kUnknownTime;
  FenceValue rewound_to = 0;
  TimeNs rewound_at = kUnknownTime;
  QueueId rewound_by_queue = 0;  // 0: a CPU signal
  ReachEvidence evidence;        // signal_not_in_capture
  // Every field, the base's first, for the trace cache (core/cache/serialize.h cannot find the
  // fields of a struct with a base class by itself). A field added above belongs here too.
  static constexpr auto kCacheFields = std::make_tuple(
      &PendingWait::cpu, &PendingWait::index, &PendingWait::queue, &PendingWait::thread,
      &PendingWait::fence, &PendingWait::value, &PendingWait::wait_id, &PendingWait::since,
      &PendingWait::recorded_pending, &PendingWait::value_at_end, &PendingWait::fence_written,
      &PendingWait::category, &PendingWait::signal_queued_on, &PendingWait::reason,
      &PendingWait::blocker, &PendingWait::reached_value, &PendingWait::reached_at,
      &PendingWait::rewound_to, &PendingWait::rewound_at, &PendingWait::rewound_by_queue,
      &PendingWait::evidence);
};

struct CycleStep {
  QueueId queue = 0;      // the waiting queue
  int64_t wait_id = 0;
  FenceId fence = 0;
  FenceValue value = 0;
  QueueId signaller = 0;  // the queue whose queued signal it needs (the next step's queue)
  int64_t signal_id = 0;
};

struct WaitCycle {
  std::vector<CycleStep> steps;  // starts at the smallest queue id of the cycle
};

// Every open wait is in exactly one of the five lists, each by since.
struct WaitFindings {
  std::vector<PendingWait> never_unblocked;
  std::vector<PendingWait> unprocessed_at_end;
  std::vector<PendingWait> pending_at_end;
  std::vector<PendingWait> signal_not_in_capture;
  std::vector<PendingWait> stuck_after_rewind;
  std::vector<WaitCycle> cycles;
  // Waits nothing in or after the trace can release: a wait stuck after a rewind hangs its
  // queue or thread as surely as one never signalled.
  size_t Stuck() const { return never_unblocked.size() + stuck_after_rewind.size(); }
};

WaitFindings FindWaitProblems(const Reconstruction& r);

}  // namespace core::analysis
