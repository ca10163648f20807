// Shared by the replay tests: simulate a scenario into a trace, replay a trace's derived program
// (or an edited one) and load the result.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/replay/derived_program.h"
#include "core/replay/replay_fidelity.h"
#include "core/replay/replay_outcome.h"
#include "core/replay/replay_writer.h"
#include "core/replay/replayed_trace.h"
#include "core/replay/whatif_edits.h"
#include "core/report/report_data.h"
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

// For no edit and for each edit the trace's opportunities try, the span and step lengths
// MeasureReplay gives equal the full replay's: written to a trace file, loaded back and
// reconstructed. Returns how many MeasureReplay measured itself (the rest fell back).
inline size_t ExpectOutcomesAreFullReplays(const Loaded& trace, const std::filesystem::path& scratch) {
  core::report::ReportData d = core::report::AnalyseTrace(trace.store, /*full=*/true);
  core::report::ComputeOpportunities(d);
  std::vector<core::replay::Edits> edits(1);
  for (const auto& o : d.opportunities.list) edits.push_back(o.edits);
  const core::replay::DerivedProgram program = core::replay::DeriveProgram(trace.store, trace.recon);
  size_t measured = 0;
  for (size_t i = 0; i < edits.size(); ++i) {
    SCOPED_TRACE(i == 0 ? std::string("no edit") : edits[i].Describe());
    core::replay::DerivedProgram edited = program;
    core::replay::ApplyEdits(edits[i], trace.store, trace.recon, edited);
    const std::optional<core::replay::ReplayOutcome> outcome =
        core::replay::MeasureReplay(trace.store, trace.recon, edited, edits[i].Describe());
    if (!outcome) continue;
    ++measured;
    const Loaded full = Replay(trace, edited, scratch / ("full" + std::to_string(i) + ".db"));
    EXPECT_EQ(outcome->span_of_trace_work,
              core::replay::SpanOfTraceWork(trace.recon, full.recon));
    EXPECT_EQ(outcome->steps, core::replay::StepLengths(full.store, full.recon));
  }
  return measured;
}

}  // namespace replay_test
