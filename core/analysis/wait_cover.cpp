#include "core/analysis/wait_cover.h"

#include <algorithm>

namespace core::analysis {

std::vector<WaitPiece> WaitCover(const Reconstruction& r, QueueId queue) {
  std::vector<WaitPiece> out;
  if (queue >= r.queues.size()) return out;
  TimeNs cursor = std::numeric_limits<TimeNs>::min();
  for (uint32_t w : r.queues[queue].waits) {  // sorted by Begin()
    const WaitBox& box = r.waits[w];
    TimeNs begin = box.Begin();
    TimeNs end = box.unblocked != kUnknownTime ? box.unblocked : r.end_ns;
    if (begin == kUnknownTime) continue;
    TimeNs start = std::max(begin, cursor);
    if (end > start) out.push_back({start, end, w});
    cursor = std::max(cursor, end);
  }
  return out;
}

QueueId SignallingQueue(const Reconstruction& r, uint32_t w) {
  uint32_t s = r.waits[w].signal;
  if (s == kNoIndex || r.signals[s].cpu) return 0;
  return r.signals[s].queue;
}

}  // namespace core::analysis
