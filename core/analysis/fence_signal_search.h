// The search that links a wait to the signal that released it, by fence and value, when the
// wait's record does not name the signal (see Reconstruct in reconstruction.h).
#pragma once

#include <cstdint>
#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

// Executed signals of one fence in time order, split into runs that each begin at a rewind
// (seed 001: after a rewind, new waits compare against the lower value). Within a run the
// running maximum of the values is non-decreasing, so "first signal reaching value v" is a
// binary search per run.
struct FenceSignals {
  std::vector<uint32_t> signal;       // into Reconstruction::signals
  std::vector<TimeNs> executed;
  std::vector<FenceValue> run_max;    // max value since the start of the run
  std::vector<uint32_t> run_starts;   // indices where a run begins (0 and every rewind)
};

// The releasing signal of a wait on `fs`: the first signal reaching `value` executed at or
// before `until`, not before the last rewind at or before `queued`. kNoIndex when none.
uint32_t FindReleasingSignal(const FenceSignals& fs, FenceValue value, TimeNs queued,
                             TimeNs until);

}  // namespace core::analysis
