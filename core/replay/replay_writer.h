// Runs a derived program (derived_program.h) through the simulator into a trace, with the
// topology of the trace it came from: the same adapters, engines, queues, processes, contexts,
// threads and fences, under the same ids, so that the replay and its trace can be put side by
// side, compared queue by queue (`compare`) and measured packet by packet (replay_fidelity.h).
// Times are on the trace's time base. The simulator is the only thing that moves time.
#pragma once

#include <functional>
#include <string>

#include "core/replay/derived_program.h"
#include "core/sim/simulator.h"
#include "core/store/trace_store.h"
#include "core/store/trace_sink.h"

namespace core::replay {

struct ReplayRun {
  // How long past the trace's own span the replay may run before it is cut off (an edit that
  // slows the program down lengthens it; a replay that never finishes stops there).
  double limit_factor = 4.0;
  std::string edits;  // what was edited, for meta.replay_edits ("" for an unedited replay)
  // Fraction of the run's time limit simulated (may be empty); it may throw to stop the replay
  // (the exception leaves RunSimulation and the writer's file is not committed).
  std::function<void(double)> progress;
  // Run the program's steps for these durations (core::sim::SimOptions::step_durations).
  const core::sim::StepDurations* step_durations = nullptr;
};

// Writes the topology, meta (source "replay", replay_of, replay_of_hash, replay_edits) and the
// events; the caller commits.
core::sim::SimSummary WriteReplay(const core::store::TraceStore& trace,
                                  const DerivedProgram& program, core::store::TraceSink& writer,
                                  const ReplayRun& run = {});

}  // namespace core::replay
