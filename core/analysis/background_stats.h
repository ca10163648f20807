// Background processing (seed 000) in numbers: what happened to the runtime's background tasks
// and how the driver's PGO converged, for `stats --json` (key `background`) and the reports.
//
// Passes are the PGO series' passes (core/analysis/pgo_series.h) whose SetBackgroundProcessingMode
// call succeeded (none when the series was split at applied variants for want of such calls). The run has converged when such a call returned FurtherMeasurementsDesired =
// false (seed 000: "This value will return false once the PGO implementation has reached a
// steady state"); passes_to_converge counts the successful calls up to and including that one,
// and time_to_converge_ns runs from the first successful call to it. A trace whose passes are
// split at applied variants (no mode calls) never reports converged: the flag is unknown there.
// Packet times are the mean GPU time of the packets PGO works on (instrumented or running a
// variant) when the trace has any, else of all packets.
#pragma once

#include <cstdint>

#include "core/analysis/pgo_series.h"
#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct BackgroundStats {
  uint64_t tasks_queued = 0;
  uint64_t tasks_started = 0;
  uint64_t tasks_finished = 0;
  uint64_t tasks_cancelled = 0;
  uint64_t tasks_abandoned = 0;
  // Started and neither finished, cancelled nor abandoned when the trace ended: still running.
  uint64_t tasks_running_at_end = 0;
  uint64_t tasks_waiting_at_end = 0;  // queued, never started by the trace's end
  uint64_t max_concurrent = 0;  // most tasks running at one instant
  uint64_t api_errors = 0;      // api_error records (refused mode calls)
  uint64_t passes = 0;
  bool converged = false;
  uint64_t passes_to_converge = 0;  // 0 when not converged
  int64_t time_to_converge_ns = 0;  // 0 when not converged
  int64_t packet_time_first_pass_ns = 0;  // mean GPU packet time in the first pass with packets
  int64_t packet_time_last_pass_ns = 0;   // ... and in the last one
};

BackgroundStats ComputeBackgroundStats(const core::store::TraceStore& store,
                                       const Reconstruction& r, const PgoSeries& series);

}  // namespace core::analysis
