// Everything the window's range statistics show for a time range, from the functions the
// reports call over the trace span: the queue time split with its per-queue counts
// (queue_time.h), the interrupts (interrupt_analysis.h) and the wait latency (wait_latency.h).
// Over TraceSpan(r) each part equals what `stats` / `report` print.
#pragma once

#include <cstdint>

#include "core/analysis/interrupt_analysis.h"
#include "core/analysis/queue_time.h"
#include "core/analysis/time_range.h"
#include "core/analysis/wait_latency.h"

namespace core::analysis {

struct RangeStats {
  TimeRange range;
  QueueTimeSplit queue_time;
  InterruptAnalysis interrupts;
  WaitLatency latency;
  uint64_t cpu_waits_released = 0;  // CPU waits released inside the range
};

RangeStats ComputeRangeStats(const core::store::TraceStore& store, const Reconstruction& r,
                             TimeRange range);

}  // namespace core::analysis
