// Seconds of wall time since a steady-clock instant: the stage timings the importers report and
// the benchmarks' figures are all measured this one way.
#pragma once

#include <chrono>

namespace core {

using SteadyClock = std::chrono::steady_clock;

inline double SecondsSince(SteadyClock::time_point since) {
  return std::chrono::duration<double>(SteadyClock::now() - since).count();
}

}  // namespace core
