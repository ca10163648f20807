// The runtime simulator: runs a scenario (topology + CPU thread programs) in simulated time and
// records everything through a TraceWriter. Deterministic: the same scenario, seed and fence
// mode give the same records, run after run.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include "core/sim/scenario.h"
#include "core/store/trace_writer.h"

namespace core::sim {

struct SimOptions {
  std::optional<uint64_t> seed;             // replaces the scenario's seed
  std::optional<FenceMode> fence_mode;      // replaces the scenario's fence mode
  std::optional<DurationNs> duration_ns;    // replaces the scenario's time limit
  // seed 004: replace every adapter's graphics / compute preemption granularity.
  std::optional<core::model::PreemptionGranularity> preemption_graphics;
  std::optional<core::model::PreemptionGranularity> preemption_compute;
  std::function<void(double)> progress;     // fraction of the time limit simulated, may be empty
};

struct SimSummary {
  uint64_t events = 0;
  TimeNs end_ns = 0;
  uint64_t seed = 0;
  FenceMode fence_mode = FenceMode::kNative;
};

// Writes topology, meta (scenario, seed, fence_mode, clock) and the events; the caller commits.
SimSummary RunSimulation(const Scenario& scenario, core::store::TraceWriter& writer,
                         const SimOptions& options = {});

}  // namespace core::sim
