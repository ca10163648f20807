// Times people type and read, on one origin: the trace's start. `--window`, `--range`,
// `report --path-until`, the ruler, the details panel, the event table and bookmarks all count
// from it. An absolute clock value (the trace's own time base, what `query` shows in ts_ns) is
// written with a leading '@'.
//
//   1500000      1.5 ms after the trace starts (a bare number is nanoseconds)
//   1.5ms  2s    units ns, us, ms, s; a fraction is exact to the nanosecond
//   -20us        before the trace starts
//   @1000000000  the absolute clock value 1000000000 ns ("@1s" the same)
#pragma once

#include <string>
#include <string_view>

#include "core/analysis/time_range.h"

namespace core::store {
struct TraceStore;
}

namespace core::analysis {

// The trace a typed time refers to: its span on its own clock, and its file for messages.
struct TraceClock {
  TimeNs start = 0;
  TimeNs end = 0;
  std::string file;
};
TraceClock ClockOf(const store::TraceStore& store, std::string file);

// The absolute time `text` names (see above). Throws core::Error naming `option` when `text` is
// not a time.
TimeNs ParseTraceTime(std::string_view option, std::string_view text, const TraceClock& clock);

// A time that must lie inside the trace (start <= t <= end); else core::Error naming the span.
TimeNs ParseTimeInTrace(std::string_view option, std::string_view text, const TraceClock& clock);

// START END: the end after the start, and the range overlapping the trace; else core::Error
// naming the span.
TimeRange ParseRangeInTrace(std::string_view option, std::string_view start, std::string_view end,
                            const TraceClock& clock);

// "+1.250 ms (@1000001250 ns)": from the trace start, then the absolute clock value.
std::string FormatTraceTime(TimeNs t, TimeNs origin);

// "trace.db spans 0 .. 2.149 s from its start (@239442700000 .. @239444849000 ns)".
std::string DescribeSpan(const TraceClock& clock);

}  // namespace core::analysis
