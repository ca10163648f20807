// UndoEdits: one copy of a derived program serves candidate after candidate. For every embedded
// scenario, each edit its opportunities try (and ones that undo by a whole copy: a wait removed,
// a launch latency, a priority) applied to the one reused copy gives the replay the same edit
// gives on a fresh copy of the program, and once all are undone the copy replays as the program.
#include <gtest/gtest.h>

#include <map>
#include <utility>

#include "core/sim/scenario_loader.h"
#include "tests/replay/replay_support.h"
#include "tests/support/test_support.h"

namespace {

using core::replay::DerivedProgram;
using core::replay::Edits;

// Span and step lengths of a replay of `program`, measured from what the simulator writes.
std::pair<int64_t, std::map<int64_t, int64_t>> Outcome(const replay_test::Loaded& trace,
                                                        const DerivedProgram& program) {
  const auto outcome = core::replay::MeasureReplay(trace.store, trace.recon, program, "");
  EXPECT_TRUE(outcome.has_value());
  if (!outcome) return {};
  return {outcome->span_of_trace_work, outcome->steps};
}

TEST(UndoEdits, AReusedCopyReplaysEachEditAsAFreshCopyDoes) {
  for (const std::string& name : core::sim::EmbeddedScenarioNames()) {
    SCOPED_TRACE(name);
    test_support::ScratchDir dir;
    const auto trace = replay_test::Load(test_support::SimulateTrace(dir / "trace.db", name));
    core::report::ReportData d = core::report::AnalyseTrace(trace.store, /*full=*/true);
    core::report::ComputeOpportunities(d);
    std::vector<Edits> edits;
    for (const auto& o : d.opportunities.list) edits.push_back(o.edits);
    Edits latency;
    latency.launch_latency_ns = 50'000;
    edits.push_back(latency);
    Edits host;
    host.cpu_scale = 0.25;
    edits.push_back(host);
    ASSERT_GT(edits.size(), 2u);
    const DerivedProgram program = core::replay::DeriveProgram(trace.store, trace.recon);
    const auto unedited = Outcome(trace, program);
    DerivedProgram reused = program;
    size_t changed = 0;
    for (const Edits& e : edits) {
      SCOPED_TRACE(e.Describe());
      DerivedProgram fresh = program;
      core::replay::ApplyEdits(e, trace.store, trace.recon, fresh);
      core::replay::ApplyEdits(e, trace.store, trace.recon, reused);
      const auto expected = Outcome(trace, fresh);
      EXPECT_EQ(Outcome(trace, reused), expected);
      if (expected != unedited) ++changed;
      core::replay::UndoEdits(e, program, reused);
    }
    EXPECT_GT(changed, 0u);  // the edits change replays: an undo left out would show
    EXPECT_EQ(Outcome(trace, reused), unedited);
  }
}

}  // namespace
