#include "core/analysis/time_input.h"

#include <fmt/format.h>

#include <cstdlib>
#include <limits>

#include "core/model/error.h"
#include "core/store/trace_store.h"

namespace core::analysis {
namespace {

// Nanoseconds per unit, 0 for an unknown unit.
int64_t UnitNs(std::string_view unit) {
  if (unit.empty() || unit == "ns") return 1;
  if (unit == "us") return 1'000;
  if (unit == "ms") return 1'000'000;
  if (unit == "s") return 1'000'000'000;
  return 0;
}

// "-1.5ms" -> -1500000; false when it is not a number with an optional unit, or overflows.
bool ParseDuration(std::string_view text, int64_t* out) {
  size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) ++i;
  __int128 whole = 0;
  size_t digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    whole = whole * 10 + (text[i] - '0');
    if (whole > std::numeric_limits<int64_t>::max()) return false;
  }
  __int128 fraction = 0, scale = 1;
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
      if (scale < 1'000'000'000'000'000LL) {
        fraction = fraction * 10 + (text[i] - '0');
        scale *= 10;
      }
    }
  }
  if (digits == 0) return false;
  const int64_t unit = UnitNs(text.substr(i));
  if (unit == 0) return false;
  const __int128 ns = whole * unit + fraction * unit / scale;
  if (ns > std::numeric_limits<int64_t>::max()) return false;
  *out = static_cast<int64_t>(negative ? -ns : ns);
  return true;
}

// "500 ns", "1.250 ms", "2.150 s" (the sign of a negative value kept).
std::string Duration(int64_t ns) {
  const double v = static_cast<double>(ns);
  const double a = std::abs(v);
  if (a < 1e3) return fmt::format("{} ns", ns);
  if (a < 1e6) return fmt::format("{:.3f} us", v / 1e3);
  if (a < 1e9) return fmt::format("{:.3f} ms", v / 1e6);
  return fmt::format("{:.3f} s", v / 1e9);
}

[[noreturn]] void Outside(std::string_view option, std::string_view what, const TraceClock& clock) {
  throw core::Error(
      fmt::format("{} {}: outside the trace; {} (times count from the trace start; "
                  "write @NS for an absolute clock value)",
                  option, what, DescribeSpan(clock)));
}

}  // namespace

TraceClock ClockOf(const store::TraceStore& store, std::string file) {
  return {store.start_ns(), store.end_ns(), std::move(file)};
}

TimeNs ParseTraceTime(std::string_view option, std::string_view text, const TraceClock& clock) {
  const bool absolute = !text.empty() && text[0] == '@';
  int64_t ns = 0;
  if (!ParseDuration(absolute ? text.substr(1) : text, &ns)) {
    throw core::Error(fmt::format(
        "{} '{}': not a time (ns from the trace start, a unit ns/us/ms/s, or @NS absolute)", option,
        text));
  }
  if (absolute) return ns;
  if ((ns > 0 && clock.start > std::numeric_limits<int64_t>::max() - ns) ||
      (ns < 0 && clock.start < std::numeric_limits<int64_t>::min() - ns)) {
    Outside(option, text, clock);
  }
  return clock.start + ns;
}

TimeNs ParseTimeInTrace(std::string_view option, std::string_view text, const TraceClock& clock) {
  const TimeNs t = ParseTraceTime(option, text, clock);
  if (t < clock.start || t > clock.end) Outside(option, text, clock);
  return t;
}

TimeRange ParseRangeInTrace(std::string_view option, std::string_view start, std::string_view end,
                            const TraceClock& clock) {
  const TimeRange range{ParseTraceTime(option, start, clock), ParseTraceTime(option, end, clock)};
  if (range.end <= range.start) {
    throw core::Error(fmt::format("{} {} {}: the end must be after the start", option, start, end));
  }
  if (range.end < clock.start || range.start > clock.end) {
    Outside(option, fmt::format("{} {}", start, end), clock);
  }
  return range;
}

std::string FormatTraceTime(TimeNs t, TimeNs origin) {
  const TimeNs rel = t - origin;
  return fmt::format("{}{} (@{} ns)", rel < 0 ? "" : "+", Duration(rel), t);
}

std::string DescribeSpan(const TraceClock& clock) {
  return fmt::format("{} spans 0 .. {} from its start (@{} .. @{} ns)",
                     clock.file.empty() ? std::string("the trace") : clock.file,
                     Duration(clock.end - clock.start), clock.start, clock.end);
}

}  // namespace core::analysis
