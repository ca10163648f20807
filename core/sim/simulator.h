// The runtime simulator: runs a scenario (topology + CPU thread programs) in simulated time and
// records everything through a TraceSink (a TraceWriter, or a MemoryTrace). Deterministic: the
// same scenario, seed and fence mode give the same records, run after run.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/sim/scenario.h"
#include "core/store/trace_sink.h"

namespace core::sim {

// The ids of a topology the caller has already written (a replay keeps its trace's rows), one
// per entry of the scenario's vectors. An engine id of 0 writes its packets with no engine (a
// CUDA stream, which the program runs on an engine of its own).
struct WrittenTopology {
  core::model::ProcessId process = 0;
  std::vector<core::model::AdapterId> adapters;
  std::vector<core::model::EngineId> engines;
  std::vector<core::model::QueueId> queues;
  std::vector<core::model::ContextId> contexts;
  std::vector<core::model::FenceId> fences;
  std::vector<core::model::ThreadId> threads;
  std::vector<core::model::ResourceId> resources;
};

struct SimOptions {
  std::optional<uint64_t> seed;             // replaces the scenario's seed
  std::optional<FenceMode> fence_mode;      // replaces the scenario's fence mode
  std::optional<DurationNs> duration_ns;    // replaces the scenario's time limit
  // seed 004: replace every adapter's graphics / compute preemption granularity.
  std::optional<core::model::PreemptionGranularity> preemption_graphics;
  std::optional<core::model::PreemptionGranularity> preemption_compute;
  std::function<void(double)> progress;     // fraction of the time limit simulated, may be empty
  // When set, no topology row is written: these are the ids the events name.
  const WrittenTopology* topology = nullptr;
  // Leave out the meta rows of a simulated run (scenario, seed, ...): the caller writes its own.
  bool write_meta = true;
  // Added to every recorded time: simulated time 0 is this instant of the trace's time base.
  TimeNs clock_origin = 0;
  // When set: per thread of the scenario, per step, the duration each step runs for in place of
  // its duration_ns (a what-if that changes durations alone runs the shared program with them
  // instead of an edited copy of it). Each thread's list has one entry per step.
  const StepDurations* step_durations = nullptr;
};

struct SimSummary {
  uint64_t events = 0;
  TimeNs end_ns = 0;
  uint64_t seed = 0;
  FenceMode fence_mode = FenceMode::kNative;
};

// Writes topology, meta (scenario, seed, fence_mode, clock) and the events; the caller commits.
SimSummary RunSimulation(const Scenario& scenario, core::store::TraceSink& writer,
                         const SimOptions& options = {});

}  // namespace core::sim
