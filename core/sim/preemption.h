// GPU preemption and TDR (seed 004), the parts callers outside the scheduler need: granularity
// names and the simulate command's override. The scheduler hooks are declared in sim_state.h.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/sim/preemption_state.h"
#include "core/sim/scenario.h"
#include "core/sim/simulator.h"

namespace core::sim {

// A granularity name valid for graphics (compute = false: none, dma_buffer, primitive, triangle,
// pixel, shader) or compute (none, dma_buffer, dispatch, thread_group, thread, shader).
std::optional<PreemptionGranularity> ParsePreemptionGranularity(std::string_view name,
                                                                bool compute);

// `--preemption-granularity NAME`: a graphics name sets the graphics granularity, a compute name
// the compute one, a name of both lists (none, dma_buffer, shader) both. False for an unknown
// name.
bool ApplyGranularityOverride(std::string_view name, SimOptions& options);

// The granularities each adapter runs with: the scenario's, replaced by the options'.
std::vector<AdapterPreemption> ResolvePreemption(const Scenario& scenario,
                                                 const SimOptions& options);

}  // namespace core::sim
