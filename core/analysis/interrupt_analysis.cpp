#include "core/analysis/interrupt_analysis.h"

#include <algorithm>
#include <map>

namespace core::analysis {

InterruptAnalysis ComputeInterrupts(const Reconstruction& r, size_t bins) {
  InterruptAnalysis out;
  bins = std::max<size_t>(bins, 1);
  DurationNs span = std::max<DurationNs>(1, r.end_ns - r.start_ns);
  out.bin_ns = std::max<DurationNs>(1, (span + static_cast<DurationNs>(bins) - 1) /
                                           static_cast<DurationNs>(bins));
  out.count.assign(bins, 0);
  std::map<FenceId, FenceInterrupts> per_fence;
  for (const Interrupt& x : r.interrupts) {
    ++out.total;
    if (x.waiters_released > 0 || x.cpu_waits_linked > 0) ++out.with_waiters_released;
    if (x.spurious) ++out.spurious;
    if (x.flags & kInterruptOptimized) ++out.optimized;
    if (x.flags & kInterruptScanAll) ++out.scan_all;
    auto type = static_cast<size_t>(x.Type());
    if (type < 4) ++out.by_type[type];
    auto bin = static_cast<size_t>(std::clamp<DurationNs>((x.ts - r.start_ns) / out.bin_ns, 0,
                                                          static_cast<DurationNs>(bins) - 1));
    ++out.count[bin];
    if (x.fence != 0) {
      per_fence[x.fence].fence = x.fence;
      ++per_fence[x.fence].interrupts;
    }
  }
  for (const SignalBox& s : r.signals) {
    if (s.cpu || s.executed == kUnknownTime) continue;
    ++out.gpu_signals_executed;
    per_fence[s.fence].fence = s.fence;
    ++per_fence[s.fence].signals_executed;
  }
  double bin_s = static_cast<double>(out.bin_ns) / 1e9;
  for (uint64_t c : out.count) out.rate_per_s.push_back(static_cast<double>(c) / bin_s);
  if (out.total) out.spurious_ratio = static_cast<double>(out.spurious) / out.total;
  if (out.gpu_signals_executed) {
    out.per_signal = static_cast<double>(out.total) / out.gpu_signals_executed;
  }
  for (auto& [fence, f] : per_fence) out.per_fence.push_back(f);
  return out;
}

}  // namespace core::analysis
