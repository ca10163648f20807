#include "core/analysis/queue_length.h"

#include <algorithm>
#include <utility>

namespace core::analysis {
namespace {

// Steps from +1 / -1 changes (any order); changes at one timestamp are summed first.
std::vector<QueueLengthStep> StepsOf(std::vector<std::pair<TimeNs, int>> changes) {
  std::sort(changes.begin(), changes.end());
  std::vector<QueueLengthStep> steps;
  int64_t length = 0;
  for (size_t i = 0; i < changes.size();) {
    const TimeNs ts = changes[i].first;
    for (; i < changes.size() && changes[i].first == ts; ++i) length += changes[i].second;
    const uint32_t now = static_cast<uint32_t>(std::max<int64_t>(0, length));
    if (steps.empty() ? now != 0 : now != steps.back().length) steps.push_back({ts, now});
  }
  return steps;
}

}  // namespace

uint32_t LengthAt(const std::vector<QueueLengthStep>& steps, TimeNs ts) {
  auto it = std::upper_bound(steps.begin(), steps.end(), ts,
                             [](TimeNs t, const QueueLengthStep& s) { return t < s.ts; });
  return it == steps.begin() ? 0 : std::prev(it)->length;
}

QueueLengths ComputeQueueLengths(const core::store::TraceStore& store, const Reconstruction& r,
                                 const LaunchCalls& launches, size_t bins) {
  QueueLengths out;
  out.from_launch_calls = launches.any();
  out.start_ns = r.start_ns;
  const DurationNs span = std::max<DurationNs>(0, r.end_ns - r.start_ns);
  bins = std::max<size_t>(1, bins);
  out.bin_ns = std::max<DurationNs>(1, (span + static_cast<DurationNs>(bins) - 1) /
                                           static_cast<DurationNs>(bins));
  for (const auto& queue : store.queues) {
    QueueLength q;
    q.queue = queue.id;
    std::vector<std::pair<TimeNs, int>> changes;
    if (queue.id < r.queues.size()) {
      for (uint32_t p : r.queues[queue.id].packets) {
        TimeNs launched = r.packets.Get<&Packet::submit>(p);
        if (out.from_launch_calls) {
          const LaunchCall* call = launches.Of(p);
          launched = call ? call->start : kUnknownTime;
        }
        if (launched == kUnknownTime) {
          ++q.packets_left_out;
          continue;
        }
        ++q.packets_counted;
        const TimeNs start = r.packets.Get<&Packet::start>(p);
        // A start before the launch (clocks of CPU and GPU disagree) counts as no time queued.
        changes.push_back({start == kUnknownTime ? launched : std::min(launched, start), +1});
        if (start != kUnknownTime) changes.push_back({start, -1});
      }
    }
    q.steps = StepsOf(std::move(changes));
    // Time-weighted mean over the span, highest value, and the highest value per bin.
    q.bin_max.assign(span > 0 ? (span + out.bin_ns - 1) / out.bin_ns : 0, 0);
    double area = 0;
    for (size_t i = 0; i < q.steps.size(); ++i) {
      const TimeNs from = std::clamp(q.steps[i].ts, r.start_ns, r.end_ns);
      const TimeNs to = i + 1 < q.steps.size() ? std::clamp(q.steps[i + 1].ts, r.start_ns, r.end_ns)
                                               : r.end_ns;
      const uint32_t length = q.steps[i].length;
      if (to <= from) continue;  // lasted no time within the span
      q.max = std::max(q.max, length);
      area += static_cast<double>(length) * static_cast<double>(to - from);
      const size_t first_bin = static_cast<size_t>((from - r.start_ns) / out.bin_ns);
      const size_t last_bin = static_cast<size_t>((to - 1 - r.start_ns) / out.bin_ns);
      for (size_t b = first_bin; b <= last_bin && b < q.bin_max.size(); ++b) {
        q.bin_max[b] = std::max(q.bin_max[b], length);
      }
    }
    q.mean = span > 0 ? area / static_cast<double>(span) : 0;
    out.per_queue.push_back(std::move(q));
  }
  return out;
}

}  // namespace core::analysis
