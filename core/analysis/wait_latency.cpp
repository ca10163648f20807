#include "core/analysis/wait_latency.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace core::analysis {
namespace {

struct Samples {
  std::vector<DurationNs> to_signal;
  std::vector<DurationNs> to_unblock;
  std::vector<DurationNs> before_reached;
  std::vector<DurationNs> after_reached;
  std::vector<DurationNs> total;
  // reached: when the waiter reached the wait, kUnknownTime when the trace does not tell.
  void Add(TimeNs queued, TimeNs executed, TimeNs reached, TimeNs unblocked) {
    to_signal.push_back(std::max<DurationNs>(0, executed - queued));
    to_unblock.push_back(std::max<DurationNs>(0, unblocked - executed));
    if (reached != kUnknownTime) {
      const TimeNs at = std::clamp(reached, executed, std::max(executed, unblocked));
      before_reached.push_back(at - executed);
      after_reached.push_back(std::max<DurationNs>(0, unblocked - at));
    }
    total.push_back(std::max<DurationNs>(0, unblocked - queued));
  }
  void Fill(LatencyGroup& g) {
    g.to_signal = Summarise(to_signal);
    g.to_unblock = Summarise(to_unblock);
    g.before_reached = Summarise(before_reached);
    g.after_reached = Summarise(after_reached);
    g.total = Summarise(total);
  }
};

// (cpu, fence, from, to_queue, to_thread)
using GroupKey = std::tuple<bool, FenceId, QueueId, QueueId, ThreadId>;

LatencyGroup MakeGroup(const GroupKey& key) {
  LatencyGroup g;
  g.cpu = std::get<0>(key);
  g.fence = std::get<1>(key);
  g.from = std::get<2>(key);
  g.to_queue = std::get<3>(key);
  g.to_thread = std::get<4>(key);
  return g;
}

// When a GPU wait's queue reached it: its observed time, else the later of its queued time and
// the end of the queue's last run segment ending at or before the unblock (kUnknownTime when
// neither is known). `ends[queue]`: the queue's segment ends, sorted.
TimeNs ReachedTime(const WaitBox& w, const std::vector<std::vector<TimeNs>>& ends) {
  if (w.observed != kUnknownTime) return w.observed;
  TimeNs reached = w.queued;
  if (w.queue < ends.size()) {
    const auto& e = ends[w.queue];
    auto it = std::upper_bound(e.begin(), e.end(), w.unblocked);
    if (it != e.begin()) reached = std::max(reached, *std::prev(it));
  }
  return reached;
}

}  // namespace

WaitLatency ComputeWaitLatency(const Reconstruction& r) {
  return ComputeWaitLatency(r, TraceSpan(r));
}

WaitLatency ComputeWaitLatency(const Reconstruction& r, TimeRange range) {
  WaitLatency out;
  out.range = range;
  Samples gpu, cpu;
  std::map<GroupKey, Samples> per_fence, per_pair;
  auto from_queue = [&](uint32_t s) { return r.signals[s].cpu ? QueueId{0} : r.signals[s].queue; };
  auto executed_of = [&](uint32_t s) {
    return s == kNoIndex ? kUnknownTime : r.signals.Get<&SignalBox::executed>(s);
  };
  std::vector<std::vector<TimeNs>> segment_ends(r.queues.size());
  for (size_t q = 0; q < r.queues.size(); ++q) {
    for (const RunSegment& s : r.queues[q].segments) segment_ends[q].push_back(s.end);
    std::sort(segment_ends[q].begin(), segment_ends[q].end());
  }
  for (const WaitBox& w : r.waits) {
    if (w.unblocked != kUnknownTime && !range.Contains(w.unblocked)) continue;
    const TimeNs executed = executed_of(w.signal);
    if (w.queued == kUnknownTime || w.unblocked == kUnknownTime || executed == kUnknownTime) {
      ++out.unlinked;
      continue;
    }
    const TimeNs reached = ReachedTime(w, segment_ends);
    gpu.Add(w.queued, executed, reached, w.unblocked);
    per_fence[{false, w.fence, 0, 0, 0}].Add(w.queued, executed, reached, w.unblocked);
    per_pair[{false, 0, from_queue(w.signal), w.queue, 0}].Add(w.queued, executed, reached,
                                                                w.unblocked);
  }
  for (const CpuWait& w : r.cpu_waits) {
    if (w.withdrawn != kUnknownTime) continue;  // a wait-any member another member satisfied
    if (w.released != kUnknownTime && !range.Contains(w.released)) continue;
    const TimeNs executed = executed_of(w.signal);
    if (w.begin == kUnknownTime || w.released == kUnknownTime || executed == kUnknownTime) {
      ++out.unlinked;
      continue;
    }
    cpu.Add(w.begin, executed, w.begin, w.released);
    per_fence[{true, w.fence, 0, 0, 0}].Add(w.begin, executed, w.begin, w.released);
    per_pair[{true, 0, from_queue(w.signal), 0, w.thread}].Add(w.begin, executed, w.begin,
                                                                w.released);
  }
  out.gpu_to_signal_hist = HistogramOf(gpu.to_signal);
  out.gpu_to_unblock_hist = HistogramOf(gpu.to_unblock);
  out.cpu_to_signal_hist = HistogramOf(cpu.to_signal);
  out.cpu_to_unblock_hist = HistogramOf(cpu.to_unblock);
  out.gpu.cpu = false;
  gpu.Fill(out.gpu);
  out.cpu.cpu = true;
  cpu.Fill(out.cpu);
  for (auto& [key, samples] : per_fence) {
    out.per_fence.push_back(MakeGroup(key));
    samples.Fill(out.per_fence.back());
  }
  for (auto& [key, samples] : per_pair) {
    out.per_queue_pair.push_back(MakeGroup(key));
    samples.Fill(out.per_queue_pair.back());
  }
  return out;
}

}  // namespace core::analysis
