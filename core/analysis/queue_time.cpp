#include "core/analysis/queue_time.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/analysis/intervals.h"
#include "core/analysis/wait_cover.h"

namespace core::analysis {
namespace {

// The union of the queue's run segments, not clipped.
std::vector<Interval> RunUnion(const Reconstruction& r, QueueId queue) {
  std::vector<Interval> busy;
  if (queue >= r.queues.size()) return busy;
  for (const RunSegment& s : r.queues[queue].segments) busy.push_back({s.start, s.end});
  return UnionOf(std::move(busy));
}

std::vector<Interval> BusyIn(const Reconstruction& r, QueueId queue, TimeRange range) {
  return Clip(RunUnion(r, queue), range.start, range.end);
}

// Length of [start, end] covered by `busy` (sorted, disjoint: a UnionOf result); the same as
// TotalLength(Clip(busy, start, end)), found by binary search.
DurationNs CoveredLength(const std::vector<Interval>& busy, TimeNs start, TimeNs end) {
  DurationNs ns = 0;
  auto it = std::lower_bound(busy.begin(), busy.end(), start,
                             [](const Interval& i, TimeNs t) { return i.end < t; });
  for (; it != busy.end() && it->start <= end; ++it) {
    const TimeNs a = std::max(it->start, start), b = std::min(it->end, end);
    if (b > a) ns += b - a;
  }
  return ns;
}

}  // namespace

std::vector<Interval> BusyIntervals(const Reconstruction& r, QueueId queue) {
  return BusyIn(r, queue, TraceSpan(r));
}

std::vector<std::vector<QueueTime>> ComputeQueueTimeSplits(const core::store::TraceStore& store,
                                                           const Reconstruction& r,
                                                           const std::vector<TimeRange>& ranges) {
  std::vector<std::vector<QueueTime>> out(ranges.size());
  for (const auto& queue : store.queues) {
    const std::vector<Interval> busy = RunUnion(r, queue.id);
    std::vector<DurationNs> waiting(ranges.size(), 0);
    // As ComputeQueueTime: each wait piece that touches the range, clipped to it, less busy.
    for (const WaitPiece& piece : WaitCover(r, queue.id)) {
      auto k = std::lower_bound(ranges.begin(), ranges.end(), piece.start,
                                [](const TimeRange& range, TimeNs t) { return range.end < t; });
      for (; k != ranges.end() && k->start <= piece.end; ++k) {
        const TimeNs a = std::max(piece.start, k->start), b = std::min(piece.end, k->end);
        if (b > a) waiting[k - ranges.begin()] += (b - a) - CoveredLength(busy, a, b);
      }
    }
    for (size_t i = 0; i < ranges.size(); ++i) {
      QueueTime t;
      t.queue = queue.id;
      t.busy_ns = CoveredLength(busy, ranges[i].start, ranges[i].end);
      t.waiting_ns = waiting[i];
      t.idle_ns = std::max<DurationNs>(0, ranges[i].Length() - t.busy_ns - t.waiting_ns);
      out[i].push_back(t);
    }
  }
  return out;
}

PacketCounts TotalPacketCounts(const QueueTimeSplit& split) {
  PacketCounts total;
  for (const QueueTime& t : split.queues) {
    total.submitted += t.counts.submitted;
    total.started += t.counts.started;
    total.completed += t.counts.completed;
    total.running_at_end += t.counts.running_at_end;
  }
  return total;
}

QueueTimeSplit ComputeQueueTime(const core::store::TraceStore& store, const Reconstruction& r) {
  return ComputeQueueTime(store, r, TraceSpan(r));
}

QueueTimeSplit ComputeQueueTime(const core::store::TraceStore& store, const Reconstruction& r,
                                TimeRange range) {
  QueueTimeSplit out;
  out.range = range;
  out.span_ns = range.Length();
  std::map<std::tuple<QueueId, QueueId, bool>, QueuePairWait> pairs;
  for (const auto& queue : store.queues) {
    QueueTime t;
    t.queue = queue.id;
    t.counts = CountPackets(r, queue.id, range);
    t.packets = t.counts.submitted;
    if (queue.id < r.queues.size()) {
      const QueueTrack& track = r.queues[queue.id];
      for (uint32_t s : track.signals) {
        if (range.Contains(r.signals.Get<&SignalBox::executed>(s))) ++t.signals_executed;
      }
      for (uint32_t w : track.waits) {
        if (range.Contains(r.waits.Get<&WaitBox::unblocked>(w))) ++t.waits_unblocked;
      }
    }
    std::vector<Interval> busy = BusyIn(r, queue.id, range);
    t.busy_ns = TotalLength(busy);
    for (const WaitPiece& piece : WaitCover(r, queue.id)) {
      if (piece.end < range.start || piece.start > range.end) continue;
      std::vector<Interval> held =
          Subtract(Clip({{piece.start, piece.end}}, range.start, range.end), busy);
      DurationNs ns = TotalLength(held);
      t.waiting_ns += ns;
      QueueId from = SignallingQueue(r, piece.wait);
      uint32_t s = r.waits[piece.wait].signal;
      bool cpu = s != kNoIndex && r.signals[s].cpu;
      QueuePairWait& pair = pairs[{queue.id, from, cpu}];
      pair.waiting = queue.id;
      pair.signalling = from;
      pair.cpu_signal = cpu;
      pair.waiting_ns += ns;
      ++pair.waits;
    }
    t.idle_ns = std::max<DurationNs>(0, out.span_ns - t.busy_ns - t.waiting_ns);
    out.queues.push_back(t);
  }
  for (auto& [key, pair] : pairs) out.pairs.push_back(pair);
  return out;
}

}  // namespace core::analysis
