// A time range every figure can be asked for: the reports ask for the trace span
// (TraceSpan), the window for the range the user selected, and both call the same function.
//
//   range      [start ..................... end]
//   instants   counted when start <= t <= end (a record at either edge is in the range)
//   durations  measured over [start, end), clipped to it
#pragma once

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct TimeRange {
  TimeNs start = 0;
  TimeNs end = 0;
  // t is a known time inside the range (kUnknownTime never is).
  bool Contains(TimeNs t) const { return t != kUnknownTime && t >= start && t <= end; }
  DurationNs Length() const { return end > start ? end - start : 0; }
};

// The span the trace declares (start_ns .. end_ns): what "the whole trace" means for every
// figure of `stats`, `report`, `compare` and the window.
inline TimeRange TraceSpan(const Reconstruction& r) { return {r.start_ns, r.end_ns}; }

}  // namespace core::analysis
