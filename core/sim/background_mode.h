// seed 000: SetBackgroundProcessingMode, PSO destruction and device destruction.
#pragma once

#include <cstdint>

#include "core/model/types.h"
#include "core/sim/background_state.h"
#include "core/sim/scenario.h"
#include "core/sim/sim_run.h"

namespace core::sim {

// Returns false when the calling thread must block (waiting for a commit).
bool SetBackgroundProcessingMode(const BackgroundContext& ctx, uint32_t thread, const Step& step);
void DestroyPso(SimRun& run, BackgroundState& bg, core::model::ThreadId thread, uint32_t pso);
// Returns false when the calling thread must block (waiting for in-flight tasks).
bool DestroyDevice(const BackgroundContext& ctx, uint32_t thread);

}  // namespace core::sim
