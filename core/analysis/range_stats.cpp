#include "core/analysis/range_stats.h"

namespace core::analysis {

RangeStats ComputeRangeStats(const core::store::TraceStore& store, const Reconstruction& r,
                             TimeRange range) {
  RangeStats out;
  out.range = range;
  out.queue_time = ComputeQueueTime(store, r, range);
  out.interrupts = ComputeInterrupts(r, range);
  out.latency = ComputeWaitLatency(r, range);
  for (const CpuWait& w : r.cpu_waits) {
    if (range.Contains(w.released)) ++out.cpu_waits_released;
  }
  return out;
}

}  // namespace core::analysis
