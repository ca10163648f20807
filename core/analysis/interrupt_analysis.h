// Interrupt activity: totals, the spurious ratio (seed 003: an interrupt that releases no waiter
// is a permitted race), interrupts per executed GPU signal, and the rate over time in equal bins.
#pragma once

#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct FenceInterrupts {
  FenceId fence = 0;
  uint64_t interrupts = 0;
  uint64_t signals_executed = 0;  // GPU signals executed on the fence
};

struct InterruptAnalysis {
  uint64_t total = 0;
  uint64_t with_waiters_released = 0;
  uint64_t spurious = 0;
  uint64_t optimized = 0;  // flag 16: names a HWQueue
  uint64_t scan_all = 0;   // flag 32: NULL HWQueue, every log of the engine scanned
  uint64_t by_type[4] = {0, 0, 0, 0};  // enum interrupt_type
  uint64_t gpu_signals_executed = 0;
  double spurious_ratio = 0;  // spurious / total (0 when no interrupts)
  double per_signal = 0;      // total / GPU signals executed (0 when none)
  // Rate over time: bins of bin_ns from the trace start; rate_per_s[i] = count[i] / bin seconds.
  DurationNs bin_ns = 0;
  std::vector<uint64_t> count;
  std::vector<double> rate_per_s;
  std::vector<FenceInterrupts> per_fence;  // by fence id, fences with interrupts or signals
};

// `bins` equal bins over the trace span (at least 1).
InterruptAnalysis ComputeInterrupts(const Reconstruction& r, size_t bins = 100);

}  // namespace core::analysis
