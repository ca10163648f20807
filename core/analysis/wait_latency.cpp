#include "core/analysis/wait_latency.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace core::analysis {
namespace {

struct Samples {
  std::vector<DurationNs> to_signal;
  std::vector<DurationNs> to_unblock;
  std::vector<DurationNs> total;
  void Add(TimeNs queued, TimeNs executed, TimeNs unblocked) {
    to_signal.push_back(std::max<DurationNs>(0, executed - queued));
    to_unblock.push_back(std::max<DurationNs>(0, unblocked - std::max(executed, queued)));
    total.push_back(std::max<DurationNs>(0, unblocked - queued));
  }
  void Fill(LatencyGroup& g) {
    g.to_signal = Summarise(to_signal);
    g.to_unblock = Summarise(to_unblock);
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

}  // namespace

WaitLatency ComputeWaitLatency(const Reconstruction& r) {
  WaitLatency out;
  Samples gpu, cpu;
  std::map<GroupKey, Samples> per_fence, per_pair;
  auto from_queue = [&](uint32_t s) { return r.signals[s].cpu ? QueueId{0} : r.signals[s].queue; };
  for (const WaitBox& w : r.waits) {
    if (w.queued == kUnknownTime || w.unblocked == kUnknownTime || w.signal == kNoIndex) {
      ++out.unlinked;
      continue;
    }
    TimeNs executed = r.signals[w.signal].executed;
    gpu.Add(w.queued, executed, w.unblocked);
    per_fence[{false, w.fence, 0, 0, 0}].Add(w.queued, executed, w.unblocked);
    per_pair[{false, 0, from_queue(w.signal), w.queue, 0}].Add(w.queued, executed, w.unblocked);
  }
  for (const CpuWait& w : r.cpu_waits) {
    if (w.withdrawn != kUnknownTime) continue;  // a wait-any member another member satisfied
    if (w.begin == kUnknownTime || w.released == kUnknownTime || w.signal == kNoIndex) {
      ++out.unlinked;
      continue;
    }
    TimeNs executed = r.signals[w.signal].executed;
    cpu.Add(w.begin, executed, w.released);
    per_fence[{true, w.fence, 0, 0, 0}].Add(w.begin, executed, w.released);
    per_pair[{true, 0, from_queue(w.signal), 0, w.thread}].Add(w.begin, executed, w.released);
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
