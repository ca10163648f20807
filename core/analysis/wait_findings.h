// Waits that were never satisfied, and wait cycles (deadlocks) among queues.
//
// A never-unblocked wait is a GPU wait with no unblock record or a CPU wait with no release
// (a wait_pending_at_end record marks the ones the writer saw pending at its end).
//
// Wait graph at the trace end: queue A -> queue B when a wait of A that is still pending needs
// fence F >= v, and B has a signal of F to a value >= v queued but never executed. B executes its
// stream in order, so if B is itself held by a pending wait the signal cannot run. A cycle
// A -> B -> ... -> A is a deadlock: every queue on it waits for a signal queued behind another
// pending wait of the cycle. A signal queued behind a wait on the same queue is a cycle of one.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct PendingWait {
  bool cpu = false;
  uint32_t index = kNoIndex;   // into waits (GPU) or cpu_waits (CPU)
  int64_t wait_id = 0;
  QueueId queue = 0;           // GPU waits
  ThreadId thread = 0;         // CPU waits
  FenceId fence = 0;
  FenceValue value = 0;
  TimeNs since = kUnknownTime;  // queued / begin
  bool recorded_pending = false;  // a wait_pending_at_end record names it
  FenceValue value_at_end = 0;    // CurrentValue at the end, when recorded
  // Queue holding a queued-but-unexecuted signal that would satisfy it; 0 when no such signal
  // was queued (then nothing would ever signal it: "never signalled").
  QueueId signal_queued_on = 0;
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

struct WaitFindings {
  // Waits never unblocked although nothing had satisfied their value by the end of the trace:
  // never signalled, or waiting on a signal that was queued but never executed. By since.
  std::vector<PendingWait> never_unblocked;
  // Waits still pending at the end whose value had been reached (the fence's CurrentValue at the
  // end, or an executed signal, reaches it): the queue or thread simply had not got to them
  // when the trace ended. Not a synchronisation problem, so not in never_unblocked. By since.
  std::vector<PendingWait> unprocessed_at_end;
  std::vector<WaitCycle> cycles;
};

WaitFindings FindWaitProblems(const Reconstruction& r);

}  // namespace core::analysis
