#include "core/analysis/interrupt_analysis.h"

#include <algorithm>
#include <map>

namespace core::analysis {

uint64_t PeakInterruptsPerMs(const Reconstruction& r, AdapterId adapter, TimeRange range) {
  // interrupts are in time order
  const auto& ts = r.interrupts.Column<&Interrupt::ts>();
  size_t first = ts.LowerBound(range.start);
  uint64_t peak = 0;
  size_t j = first;       // first interrupt at or after ts[i] + 1 ms
  uint64_t in_window = 0;  // interrupts of `adapter` in [ts[i], ts[j])
  for (size_t i = first; i < r.interrupts.size() && ts[i] <= range.end; ++i) {
    while (j < r.interrupts.size() && ts[j] < ts[i] + kPeakWindowNs) {
      if (adapter == 0 || r.interrupts.Get<&Interrupt::adapter>(j) == adapter) ++in_window;
      ++j;
    }
    const bool counted = adapter == 0 || r.interrupts.Get<&Interrupt::adapter>(i) == adapter;
    if (counted) peak = std::max(peak, in_window);
    if (counted) --in_window;  // interrupt i leaves the window before the next one begins
  }
  return peak;
}

InterruptAnalysis ComputeInterrupts(const Reconstruction& r, size_t bins) {
  return ComputeInterrupts(r, TraceSpan(r), bins);
}

InterruptAnalysis ComputeInterrupts(const Reconstruction& r, TimeRange range, size_t bins) {
  InterruptAnalysis out;
  out.range = range;
  bins = std::max<size_t>(bins, 1);
  DurationNs span = std::max<DurationNs>(1, range.end - range.start);
  out.bin_ns = std::max<DurationNs>(1, (span + static_cast<DurationNs>(bins) - 1) /
                                           static_cast<DurationNs>(bins));
  out.count.assign(bins, 0);
  std::map<FenceId, FenceInterrupts> per_fence;
  std::map<AdapterId, AdapterInterrupts> per_adapter;
  for (const Interrupt& x : r.interrupts) {
    if (!range.Contains(x.ts)) continue;
    ++out.total;
    if (x.waiters_released > 0 || x.cpu_waits_linked > 0) ++out.with_waiters_released;
    if (x.spurious) ++out.spurious;
    if (x.flags & kInterruptOptimized) ++out.optimized;
    if (x.flags & kInterruptScanAll) ++out.scan_all;
    auto type = static_cast<size_t>(x.Type());
    if (type < 4) ++out.by_type[type];
    auto bin = static_cast<size_t>(std::clamp<DurationNs>((x.ts - range.start) / out.bin_ns, 0,
                                                          static_cast<DurationNs>(bins) - 1));
    ++out.count[bin];
    if (x.fence != 0) {
      per_fence[x.fence].fence = x.fence;
      ++per_fence[x.fence].interrupts;
    }
    AdapterInterrupts& a = per_adapter[x.adapter];
    a.adapter = x.adapter;
    ++a.total;
    if (x.spurious) ++a.spurious;
    if (x.flags & kInterruptOptimized) ++a.optimized;
    if (x.flags & kInterruptScanAll) ++a.scan_all;
    a.waiters_released += x.waiters_released;
  }
  for (const SignalBox& s : r.signals) {
    if (s.cpu || !range.Contains(s.executed)) continue;
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
  const double range_ms = std::max(1.0, static_cast<double>(range.Length()) / 1e6);
  for (auto& [adapter, a] : per_adapter) {
    a.mean_per_ms = static_cast<double>(a.total) / range_ms;
    a.peak_per_ms = PeakInterruptsPerMs(r, adapter, range);
    out.per_adapter.push_back(a);
  }
  out.peak_per_ms = PeakInterruptsPerMs(r, 0, range);
  return out;
}

}  // namespace core::analysis
