// Wait latency, for every wait linked to its releasing signal and unblocked (released) in the
// time range asked for (the trace span for the reports, the selected range in the window):
//
//   queued ............ signal executed ............................ unblocked / released
//   |----- to_signal -----|--------------------- to_unblock ----------------------|
//                         |-- before_reached --|-------- after_reached -----------|
//                                       the waiter reached the wait
//
//   to_signal      = max(0, signal.executed - wait.queued)   (0: the value was already reached)
//   to_unblock     = max(0, unblocked - signal.executed)      signal executed -> unblocked, for
//                    every wait, also one queued after the signal executed (then to_signal is 0
//                    and to_signal + to_unblock exceeds total); SQL: fence_wait_unblocked.ts_ns -
//                    fence_signal_executed.ts_ns joined on released_by_signal_id
//   total          = max(0, unblocked - wait.queued)
//
// to_unblock split at the time the waiter reached the wait (clamped into the interval), where
// the trace tells it:
//   GPU wait   the wait's observed time (FenceObservedGpuTimestamp: when the queue reached it);
//              without one, max(queued, end of the queue's last run segment ending at or before
//              the unblock): the queue was still running earlier packets before then
//   CPU wait   its begin (the thread began waiting)
//   before_reached  the waiter was not there yet: for a GPU-native wait mostly the waiting queue
//                   still busy with earlier packets (or held by earlier waits); for a CPU wait,
//                   the thread had not begun waiting
//   after_reached   wait reached -> unblocked: the GPU's own wake-up for a native wait (often 0),
//                   the OS / interrupt path for waits held on the CPU and for CPU waits
// Waits whose reached time is unknown (no observed time, no queued time and no earlier packet)
// are in to_unblock but not in the two parts (their counts are lower).
//
// GPU waits are grouped per fence and per queue pair (signalling queue -> waiting queue); CPU
// waits per fence and per (signalling queue -> waiting thread). Waits with no queued time, no
// unblock, or no linked signal (or whose signal never executed) are left out and counted in
// `unlinked`.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/percentiles.h"
#include "core/analysis/reconstruction.h"
#include "core/analysis/time_range.h"

namespace core::analysis {

struct LatencyGroup {
  bool cpu = false;           // CPU waits (thread) rather than GPU waits (queue)
  FenceId fence = 0;          // per-fence group; 0 in a pair group
  QueueId from = 0;           // pair group: signalling queue (0: CPU signal)
  QueueId to_queue = 0;       // pair group, GPU waits: waiting queue
  ThreadId to_thread = 0;     // pair group, CPU waits: waiting thread
  Percentiles to_signal;
  Percentiles to_unblock;
  Percentiles before_reached;  // part of to_unblock before the waiter reached the wait
  Percentiles after_reached;   // part of to_unblock from the wait reached to unblocked
  Percentiles total;
};

struct WaitLatency {
  TimeRange range;
  LatencyGroup gpu;   // all GPU waits
  LatencyGroup cpu;   // all CPU waits
  std::vector<LatencyGroup> per_fence;       // GPU groups then CPU groups, each by fence id
  std::vector<LatencyGroup> per_queue_pair;  // GPU groups then CPU groups
  Log2Histogram gpu_to_signal_hist;
  Log2Histogram gpu_to_unblock_hist;
  Log2Histogram cpu_to_signal_hist;
  Log2Histogram cpu_to_unblock_hist;
  uint64_t unlinked = 0;  // waits unblocked in the range (or never) left out, see above
};

// Waits unblocked / released inside `range` (and, in `unlinked`, those never unblocked).
WaitLatency ComputeWaitLatency(const Reconstruction& r, TimeRange range);
// Over the trace span (TraceSpan(r)).
WaitLatency ComputeWaitLatency(const Reconstruction& r);

}  // namespace core::analysis
