#include "core/analysis/launch_delay.h"

#include <algorithm>

namespace core::analysis {

LaunchDelays ComputeLaunchDelays(const core::store::TraceStore& store, const Reconstruction& r,
                                 const LaunchCalls& launches) {
  LaunchDelays out;
  for (const auto& queue : store.queues) {
    QueueLaunchDelay q;
    q.queue = queue.id;
    std::vector<DurationNs> delays;
    if (queue.id < r.queues.size()) {
      for (uint32_t p : r.queues[queue.id].packets) {
        const TimeNs start = r.packets.Get<&Packet::start>(p);
        if (start == kUnknownTime) continue;
        const LaunchCall* call = launches.Of(p);
        if (!call) {
          ++q.without_launch;
          continue;
        }
        const DurationNs delay = start - call->end;
        delays.push_back(delay);
        q.negative += delay < 0;
        q.outliers.push_back({p, r.packets.Get<&Packet::name>(p), start, call->end, call->thread,
                              delay});
      }
    }
    // Longest first; equal delays keep the earlier packet first.
    const size_t keep = std::min(kLaunchDelayOutliers, q.outliers.size());
    std::partial_sort(q.outliers.begin(), q.outliers.begin() + keep, q.outliers.end(),
                      [](const LaunchDelayOutlier& a, const LaunchDelayOutlier& b) {
                        return a.delay != b.delay ? a.delay > b.delay : a.start < b.start;
                      });
    q.outliers.resize(keep);
    q.delay = Summarise(delays);
    out.per_queue.push_back(std::move(q));
  }
  return out;
}

}  // namespace core::analysis
