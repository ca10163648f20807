#include "core/analysis/wait_cover.h"

#include <algorithm>

namespace core::analysis {
namespace {

// First-in-first-out cover of boxes listed by begin: each holds from its begin, or from the end
// of those before it, to its end. `span(index, &begin, &end)` gives a box's times; it returns
// false for a box with no known begin.
template <typename Indices, typename Span>
std::vector<WaitPiece> Cover(const Indices& boxes, Span span) {
  std::vector<WaitPiece> out;
  TimeNs cursor = std::numeric_limits<TimeNs>::min();
  for (uint32_t w : boxes) {
    TimeNs begin = kUnknownTime, end = kUnknownTime;
    if (!span(w, &begin, &end)) continue;
    TimeNs start = std::max(begin, cursor);
    if (end > start) out.push_back({start, end, w});
    cursor = std::max(cursor, end);
  }
  return out;
}

}  // namespace

std::vector<WaitPiece> WaitCover(const Reconstruction& r, QueueId queue) {
  if (queue >= r.queues.size()) return {};
  return Cover(r.queues[queue].waits, [&](uint32_t w, TimeNs* begin, TimeNs* end) {
    const WaitBox& box = r.waits[w];
    *begin = box.Begin();
    *end = box.unblocked != kUnknownTime ? box.unblocked : r.end_ns;
    return *begin != kUnknownTime;
  });
}

std::vector<WaitPiece> CpuWaitCover(const Reconstruction& r, ThreadId thread) {
  if (thread >= r.threads.size()) return {};
  return Cover(r.threads[thread].cpu_waits, [&](uint32_t w, TimeNs* begin, TimeNs* end) {
    const CpuWait& box = r.cpu_waits[w];
    *begin = box.Begin();
    *end = box.released != kUnknownTime    ? box.released
           : box.withdrawn != kUnknownTime ? box.withdrawn
                                           : r.end_ns;
    return *begin != kUnknownTime;
  });
}

QueueId SignallingQueue(const Reconstruction& r, uint32_t w) {
  uint32_t s = r.waits[w].signal;
  if (s == kNoIndex || r.signals[s].cpu) return 0;
  return r.signals[s].queue;
}

}  // namespace core::analysis
