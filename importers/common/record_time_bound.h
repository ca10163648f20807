// The latest time an importer takes for a record: 3e18 ns, the year 2065 on an epoch clock and
// 95 years on a clock from boot. A damaged file's time can be any 64-bit number, and importers
// subtract record times (a slice's length, a window between two calls); two times within
// [-3e18, 3e18] always subtract within an int64. A record timed past it is refused, naming its
// place (or skipped and counted with --lenient).
#pragma once

#include <cstdint>

namespace importers {

inline constexpr int64_t kLatestRecordNs = 3'000'000'000'000'000'000;

inline bool RecordTimeInBounds(int64_t ns) {
  return ns >= -kLatestRecordNs && ns <= kLatestRecordNs;
}

}  // namespace importers
