// Wait latency split in two, for every wait linked to its releasing signal:
//
//   queued ---------- signal executed ---------- unblocked / released
//   |  to_signal: waiting for the work  |  to_unblock: the OS / interrupt path  |
//
//   to_signal  = max(0, signal.executed - wait.queued)   (0: the value was already reached)
//   to_unblock = unblocked - max(signal.executed, wait.queued)
// GPU waits are grouped per fence and per queue pair (signalling queue -> waiting queue); CPU
// waits per fence and per (signalling queue -> waiting thread). Waits with no queued time, no
// unblock, or no linked signal are left out and counted in `unlinked`.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/percentiles.h"
#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct LatencyGroup {
  bool cpu = false;           // CPU waits (thread) rather than GPU waits (queue)
  FenceId fence = 0;          // per-fence group; 0 in a pair group
  QueueId from = 0;           // pair group: signalling queue (0: CPU signal)
  QueueId to_queue = 0;       // pair group, GPU waits: waiting queue
  ThreadId to_thread = 0;     // pair group, CPU waits: waiting thread
  Percentiles to_signal;
  Percentiles to_unblock;
  Percentiles total;
};

struct WaitLatency {
  LatencyGroup gpu;   // all GPU waits
  LatencyGroup cpu;   // all CPU waits
  std::vector<LatencyGroup> per_fence;       // GPU groups then CPU groups, each by fence id
  std::vector<LatencyGroup> per_queue_pair;  // GPU groups then CPU groups
  Log2Histogram gpu_to_signal_hist;
  Log2Histogram gpu_to_unblock_hist;
  Log2Histogram cpu_to_signal_hist;
  Log2Histogram cpu_to_unblock_hist;
  uint64_t unlinked = 0;
};

WaitLatency ComputeWaitLatency(const Reconstruction& r);

}  // namespace core::analysis
