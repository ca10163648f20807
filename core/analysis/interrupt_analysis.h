// Interrupt activity in a time range (the trace span for the reports): totals, the spurious
// ratio (seed 003: an interrupt that releases no waiter is a permitted race), interrupts per
// executed GPU signal, the rate over time in equal bins, and per adapter the mean and peak rate.
//
// Peak rate (one definition for the reports, the Interrupts panel and the timeline's interrupt
// row): the most interrupts in any 1 ms window [t, t + 1 ms) that begins at an interrupt inside
// the range, counting the interrupts of that window (also past the range end).
#pragma once

#include <array>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/analysis/time_range.h"

namespace core::analysis {

struct FenceInterrupts {
  FenceId fence = 0;
  uint64_t interrupts = 0;
  uint64_t signals_executed = 0;  // GPU signals executed on the fence
};

struct AdapterInterrupts {
  AdapterId adapter = 0;
  uint64_t total = 0;
  uint64_t spurious = 0;
  uint64_t optimized = 0;
  uint64_t scan_all = 0;
  uint64_t waiters_released = 0;  // as recorded (interrupt.waiters_released)
  double mean_per_ms = 0;         // total / range length in ms
  uint64_t peak_per_ms = 0;       // PeakInterruptsPerMs of this adapter
};

struct InterruptAnalysis {
  TimeRange range;
  uint64_t total = 0;
  uint64_t with_waiters_released = 0;
  uint64_t spurious = 0;
  uint64_t optimized = 0;  // flag 16: names a HWQueue
  uint64_t scan_all = 0;   // flag 32: NULL HWQueue, every log of the engine scanned
  std::array<uint64_t, 4> by_type{};  // enum interrupt_type
  uint64_t gpu_signals_executed = 0;
  double spurious_ratio = 0;  // spurious / total (0 when no interrupts)
  double per_signal = 0;      // total / GPU signals executed (0 when none)
  // Rate over time: bins of bin_ns from the trace start; rate_per_s[i] = count[i] / bin seconds.
  DurationNs bin_ns = 0;
  std::vector<uint64_t> count;
  std::vector<double> rate_per_s;
  std::vector<FenceInterrupts> per_fence;  // by fence id, fences with interrupts or signals
  std::vector<AdapterInterrupts> per_adapter;  // by adapter id, adapters with interrupts
  uint64_t peak_per_ms = 0;  // PeakInterruptsPerMs over every adapter's interrupts together
};

constexpr DurationNs kPeakWindowNs = 1'000'000;

// Interrupts (and GPU signals executed) inside `range`; `bins` equal bins over it (at least 1).
InterruptAnalysis ComputeInterrupts(const Reconstruction& r, TimeRange range, size_t bins = 100);
// Over the trace span (TraceSpan(r)).
InterruptAnalysis ComputeInterrupts(const Reconstruction& r, size_t bins = 100);

// The peak rate defined above, for `adapter`'s interrupts (adapter 0: every adapter's).
uint64_t PeakInterruptsPerMs(const Reconstruction& r, AdapterId adapter, TimeRange range);

}  // namespace core::analysis
