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

// Every figure of two fidelity measures, one by one.
inline void ExpectSameFidelity(const core::replay::ReplayFidelity& a,
                               const core::replay::ReplayFidelity& b) {
  EXPECT_EQ(a.trace_span_ns, b.trace_span_ns);
  EXPECT_EQ(a.replay_span_ns, b.replay_span_ns);
  EXPECT_EQ(a.span_error_pct, b.span_error_pct);
  EXPECT_EQ(a.steps_compared, b.steps_compared);
  EXPECT_EQ(a.step_error_pct_mean, b.step_error_pct_mean);
  EXPECT_EQ(a.step_error_pct_max, b.step_error_pct_max);
  EXPECT_EQ(a.packets_compared, b.packets_compared);
  EXPECT_EQ(a.packets_missing, b.packets_missing);
  EXPECT_EQ(a.start_error_ns_p50, b.start_error_ns_p50);
  EXPECT_EQ(a.start_error_ns_p99, b.start_error_ns_p99);
  EXPECT_EQ(a.start_error_ns_max, b.start_error_ns_max);
  EXPECT_EQ(a.fixed_delays.count, b.fixed_delays.count);
  EXPECT_EQ(a.fixed_delays.total_ns, b.fixed_delays.total_ns);
  EXPECT_EQ(a.launches_not_in_trace, b.launches_not_in_trace);
}

// For no edit and for each edit the trace's opportunities try, the span and step lengths
// MeasureReplay gives equal the full replay's: written to a trace file, loaded back and
// reconstructed, and for an edit of run times alone, so do those of the unedited program run
// with the edited durations; with no edit, so do MeasureUneditedReplay's fidelity figures
// (MeasureFidelity of the full replay) and steps. Returns how many MeasureReplay measured itself
// (the rest fell back).
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
    // An edit of run times alone measures the same with the unedited program and its durations
    // (as the opportunities replay it).
    core::sim::StepDurations durations;
    if (core::replay::EditedDurations(edits[i], program, durations)) {
      const auto with_durations = core::replay::MeasureReplay(
          trace.store, trace.recon, core::replay::TracePacketSlots(trace.recon), program,
          edits[i].Describe(), &durations);
      EXPECT_TRUE(with_durations.has_value());
      if (with_durations) {
        EXPECT_EQ(with_durations->span_of_trace_work, outcome->span_of_trace_work);
        EXPECT_EQ(with_durations->steps, outcome->steps);
      }
    }
    if (i == 0) {
      const auto unedited = core::replay::MeasureUneditedReplay(
          trace.store, trace.recon, core::replay::TracePacketSlots(trace.recon), program);
      EXPECT_TRUE(unedited.has_value());  // MeasureReplay measured the same replay itself
      if (!unedited) continue;
      EXPECT_EQ(unedited->outcome.span_of_trace_work, outcome->span_of_trace_work);
      EXPECT_EQ(unedited->outcome.steps, outcome->steps);
      const core::replay::ReplayFidelity fidelity =
          core::replay::MeasureFidelity(trace.store, trace.recon, full.store, full.recon, program);
      ExpectSameFidelity(unedited->fidelity, fidelity);
      // Not a measure of nothing: the trace's packets were compared.
      EXPECT_GT(fidelity.packets_compared, 0u);
    }
  }
  return measured;
}

}  // namespace replay_test
