#include "core/analysis/queue_time.h"

#include <map>
#include <tuple>

#include "core/analysis/intervals.h"
#include "core/analysis/wait_cover.h"

namespace core::analysis {

std::vector<Interval> BusyIntervals(const Reconstruction& r, QueueId queue) {
  std::vector<Interval> busy;
  if (queue >= r.queues.size()) return busy;
  for (const RunSegment& s : r.queues[queue].segments) busy.push_back({s.start, s.end});
  return Clip(UnionOf(std::move(busy)), r.start_ns, r.end_ns);
}

QueueTimeSplit ComputeQueueTime(const core::store::TraceStore& store, const Reconstruction& r) {
  QueueTimeSplit out;
  out.span_ns = std::max<DurationNs>(0, r.end_ns - r.start_ns);
  std::map<std::tuple<QueueId, QueueId, bool>, QueuePairWait> pairs;
  for (const auto& queue : store.queues) {
    QueueTime t;
    t.queue = queue.id;
    if (queue.id < r.queues.size()) t.packets = r.queues[queue.id].packets.size();
    std::vector<Interval> busy = BusyIntervals(r, queue.id);
    t.busy_ns = TotalLength(busy);
    for (const WaitPiece& piece : WaitCover(r, queue.id)) {
      std::vector<Interval> held =
          Subtract(Clip({{piece.start, piece.end}}, r.start_ns, r.end_ns), busy);
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
