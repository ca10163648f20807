// Per-queue time split over the trace span: busy (a packet running), waiting (held by a GPU
// fence wait while nothing runs), idle (the rest). Per queue pair: how long one queue was held
// waiting on another queue's signals.
//
//   busy    = union of the queue's run segments
//   waiting = WaitCover(queue) minus busy
//   idle    = span - busy - waiting
#pragma once

#include <vector>

#include "core/analysis/intervals.h"
#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct QueueTime {
  QueueId queue = 0;
  uint64_t packets = 0;
  DurationNs busy_ns = 0;
  DurationNs waiting_ns = 0;
  DurationNs idle_ns = 0;
};

// `waiting` queue held by waits released by `signalling`'s signals. signalling = 0 with
// cpu_signal: released by a CPU Signal; signalling = 0 without: no releasing signal found
// (never unblocked, or unlinked).
struct QueuePairWait {
  QueueId waiting = 0;
  QueueId signalling = 0;
  bool cpu_signal = false;
  DurationNs waiting_ns = 0;
  uint64_t waits = 0;
};

struct QueueTimeSplit {
  DurationNs span_ns = 0;
  std::vector<QueueTime> queues;      // one per store queue, in id order
  std::vector<QueuePairWait> pairs;   // sorted by (waiting, signalling, cpu_signal)
};

QueueTimeSplit ComputeQueueTime(const core::store::TraceStore& store, const Reconstruction& r);

// The union of a queue's run segments clipped to the trace span.
std::vector<Interval> BusyIntervals(const Reconstruction& r, QueueId queue);

}  // namespace core::analysis
