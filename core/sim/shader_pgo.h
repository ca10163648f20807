// seed 000: the driver's profile-guided optimisation of shaders: instrumentation, histograms of
// bound constants, variants.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/model/types.h"
#include "core/sim/background_state.h"
#include "core/sim/gpu_command.h"
#include "core/sim/scenario.h"
#include "core/sim/sim_run.h"

namespace core::sim {

// Sets the packet's PSO fields, instrumentation, and its duration with variants and overhead;
// returns the packet_submitted flags.
uint32_t PlanPgoPacket(const Scenario& scenario, BackgroundState& bg, core::model::ThreadId thread,
                       const Step& step, int64_t frame, GpuCommand& packet);
void OnPgoPacketDone(SimRun& run, BackgroundState& bg, const PacketPgo& packet);
// Packet time factor with `level` rounds of specialisation applied: speedup^level.
double SpeedupFactor(double speedup, int32_t level);
// (PSO, constants) pairs a commit would queue now: measured, no task pending, level < levels.
std::vector<std::pair<uint32_t, int64_t>> CommitCandidates(const Scenario& scenario,
                                                           const BackgroundState& bg);
// True while some measured constant set could still lead to a recompile.
bool MeasurementsIncomplete(const Scenario& scenario, const BackgroundState& bg);

}  // namespace core::sim
