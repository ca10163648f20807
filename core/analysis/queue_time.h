// Per-queue time split over a time range (the trace span for the reports, the selected range in
// the window): busy (a packet running), waiting (held by a GPU fence wait while nothing runs),
// idle (the rest); what happened on the queue in the range (packets, signals, waits). Per queue
// pair: how long one queue was held waiting on another queue's signals.
//
//   busy    = union of the queue's run segments, clipped to the range
//   waiting = WaitCover(queue) clipped to the range, minus busy: a wait holds its queue from the
//             moment it was queued (wait_cover.h), not only once the GPU reached it
//   idle    = range length - busy - waiting
#pragma once

#include <vector>

#include "core/analysis/intervals.h"
#include "core/analysis/packet_counts.h"
#include "core/analysis/reconstruction.h"
#include "core/analysis/time_range.h"

namespace core::analysis {

struct QueueTime {
  QueueId queue = 0;
  uint64_t packets = 0;  // packets submitted (== counts.submitted; the stable `packets` key)
  PacketCounts counts;   // submitted / started / completed / running at the end (packet_counts.h)
  uint64_t signals_executed = 0;  // GPU signals of this queue executed in the range
  uint64_t waits_unblocked = 0;   // GPU waits of this queue unblocked in the range
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
  uint64_t waits = 0;  // waits holding the queue at some time in the range
};

struct QueueTimeSplit {
  TimeRange range;
  DurationNs span_ns = 0;             // range length
  std::vector<QueueTime> queues;      // one per store queue, in id order
  std::vector<QueuePairWait> pairs;   // sorted by (waiting, signalling, cpu_signal)
};

QueueTimeSplit ComputeQueueTime(const core::store::TraceStore& store, const Reconstruction& r,
                                TimeRange range);
// Over the trace span (TraceSpan(r)).
QueueTimeSplit ComputeQueueTime(const core::store::TraceStore& store, const Reconstruction& r);

// busy_ns / waiting_ns / idle_ns of every queue (store order) over each of `ranges`: for each
// range the same three figures ComputeQueueTime gives for it (the other QueueTime fields are
// left 0), with each queue's run segments and waits gone through once instead of once per
// range, for the thousands of ranges of a trace's iterations (a fleet's steps). `ranges` must
// be sorted by start and must not overlap. Result: [range][queue].
std::vector<std::vector<QueueTime>> ComputeQueueTimeSplits(const core::store::TraceStore& store,
                                                           const Reconstruction& r,
                                                           const std::vector<TimeRange>& ranges);

// The packet counts of every queue added up.
PacketCounts TotalPacketCounts(const QueueTimeSplit& split);

// The union of a queue's run segments clipped to the trace span.
std::vector<Interval> BusyIntervals(const Reconstruction& r, QueueId queue);

}  // namespace core::analysis
