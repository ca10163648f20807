// The opportunities measure each candidate's replay from what the simulator wrote (MeasureReplay)
// instead of building the replayed trace. For every embedded scenario, unedited and with each
// edit its report tries, the span and step lengths are those of the same replay written to a
// trace file, loaded back through SQLite and reconstructed; unedited, the fidelity figures
// (MeasureUneditedReplay) are MeasureFidelity's of that full replay.
#include <gtest/gtest.h>

#include "core/sim/scenario_loader.h"
#include "tests/replay/replay_support.h"
#include "tests/support/test_support.h"

TEST(ReplayOutcome, EveryScenarioAndEachOpportunityIsMeasuredAsTheFullReplay) {
  for (const std::string& name : core::sim::EmbeddedScenarioNames()) {
    SCOPED_TRACE(name);
    test_support::ScratchDir dir;
    const auto trace =
        replay_test::Load(test_support::SimulateTrace(dir / "trace.db", name));
    // The simulator numbers each packet once: none falls back to the full replay.
    const size_t measured = replay_test::ExpectOutcomesAreFullReplays(trace, dir.path());
    EXPECT_GT(measured, 1u);
  }
}
