// Shared by the replay tests: simulate a scenario into a trace, replay a trace's derived program
// (or an edited one) and load the result.
#pragma once

#include <filesystem>
#include <string>

#include "core/analysis/reconstruction.h"
#include "core/replay/derived_program.h"
#include "core/replay/replay_fidelity.h"
#include "core/replay/replay_writer.h"
#include "core/sim/simulator.h"
#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"

namespace replay_test {

struct Loaded {
  core::store::TraceStore store;
  core::analysis::Reconstruction recon;
};

inline Loaded Load(const std::filesystem::path& path) {
  Loaded out;
  out.store = core::store::LoadTrace(path);
  out.recon = core::analysis::Reconstruct(out.store);
  return out;
}

inline Loaded Simulate(const core::sim::Scenario& scenario, const std::filesystem::path& path) {
  {
    core::store::TraceWriter writer(path, "simulator");
    core::sim::RunSimulation(scenario, writer);
    writer.Commit();
  }
  return Load(path);
}

inline Loaded Replay(const Loaded& trace, const core::replay::DerivedProgram& program,
                     const std::filesystem::path& path) {
  {
    core::store::TraceWriter writer(path, "replay");
    core::replay::WriteReplay(trace.store, program, writer);
    writer.Commit();
  }
  return Load(path);
}

}  // namespace replay_test
