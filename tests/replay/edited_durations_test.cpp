// EditedDurations: an edit of run times alone (--scale, --scale-queue, --cpu-scale) gives each
// step the duration ApplyEdits gives it on a copy of the program, and the unedited program run
// with those durations replays as the edited copy does; any other edit is refused, and the
// simulator refuses durations that do not fit the program.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/model/error.h"
#include "core/sim/scenario_loader.h"
#include "core/store/memory_trace.h"
#include "tests/replay/replay_support.h"
#include "tests/support/test_support.h"

namespace {

using core::replay::DerivedProgram;
using core::replay::Edits;

TEST(EditedDurations, EachStepAsApplyEditsSetsItAndTheReplayAsTheEditedCopys) {
  for (const std::string& name : core::sim::EmbeddedScenarioNames()) {
    SCOPED_TRACE(name);
    test_support::ScratchDir dir;
    const auto trace = replay_test::Load(test_support::SimulateTrace(dir / "trace.db", name));
    const DerivedProgram program = core::replay::DeriveProgram(trace.store, trace.recon);
    ASSERT_FALSE(program.scenario.queues.empty());
    std::vector<Edits> edits(4);
    edits[0].cpu_scale = 0.25;
    edits[1].scale_queue.push_back({program.scenario.queues.front().name, 0.5});
    edits[2].scale.push_back({"*", 2.0});
    edits[3].scale.push_back({"*", 0.5});
    edits[3].cpu_scale = 3.0;
    const auto unedited = core::replay::MeasureReplay(trace.store, trace.recon, program, "");
    ASSERT_TRUE(unedited.has_value());
    size_t changed = 0;
    for (const Edits& e : edits) {
      SCOPED_TRACE(e.Describe());
      ASSERT_TRUE(core::replay::ChangesDurationsAlone(e));
      core::sim::StepDurations durations;
      ASSERT_TRUE(core::replay::EditedDurations(e, program, durations));
      DerivedProgram edited = program;
      core::replay::ApplyEdits(e, trace.store, trace.recon, edited);
      ASSERT_EQ(durations.size(), edited.scenario.threads.size());
      size_t differ = 0;
      for (size_t t = 0; t < durations.size(); ++t) {
        const auto& steps = edited.scenario.threads[t].steps;
        ASSERT_EQ(durations[t].size(), steps.size());
        for (size_t i = 0; i < steps.size(); ++i) {
          ASSERT_EQ(durations[t][i], steps[i].duration_ns) << "thread " << t << " step " << i;
          differ += durations[t][i] != program.scenario.threads[t].steps[i].duration_ns;
        }
      }
      // Every packet twice as long reaches some step (a scenario's CPU gaps may all be 0).
      if (&e == &edits[2]) {
        EXPECT_GT(differ, 0u);
      }
      const auto expected =
          core::replay::MeasureReplay(trace.store, trace.recon, edited, e.Describe());
      const auto with_durations = core::replay::MeasureReplay(
          trace.store, trace.recon, core::replay::TracePacketSlots(trace.recon), program,
          e.Describe(), &durations);
      ASSERT_TRUE(expected.has_value());
      ASSERT_TRUE(with_durations.has_value());
      EXPECT_EQ(with_durations->span_of_trace_work, expected->span_of_trace_work);
      EXPECT_EQ(with_durations->steps, expected->steps);
      changed += expected->span_of_trace_work != unedited->span_of_trace_work;
    }
    EXPECT_GT(changed, 0u);  // the replays moved: durations left unused would show
  }
}

TEST(EditedDurations, AnyOtherEditIsRefused) {
  test_support::ScratchDir dir;
  const auto trace = replay_test::Load(test_support::SimulateTrace(dir / "trace.db", "default"));
  const DerivedProgram program = core::replay::DeriveProgram(trace.store, trace.recon);
  std::vector<Edits> edits(4);
  edits[0].remove_wait.push_back(1);
  edits[1].launch_latency_ns = 1000;
  edits[2].scale.push_back({"*", 0.5});
  edits[2].remove_cpu_waits.push_back("x");
  edits[3].priority.push_back({program.scenario.queues.front().name, 1});
  for (const Edits& e : edits) {
    SCOPED_TRACE(e.Describe());
    EXPECT_FALSE(core::replay::ChangesDurationsAlone(e));
    core::sim::StepDurations durations(1, std::vector<core::model::DurationNs>(3, 7));
    EXPECT_FALSE(core::replay::EditedDurations(e, program, durations));
    EXPECT_EQ(durations, core::sim::StepDurations(1, std::vector<core::model::DurationNs>(3, 7)));
  }
  // A factor ApplyEdits refuses is refused here too.
  Edits negative;
  negative.cpu_scale = -1;
  core::sim::StepDurations durations;
  EXPECT_THROW(core::replay::EditedDurations(negative, program, durations), core::Error);
}

TEST(EditedDurations, TheSimulatorRefusesDurationsThatDoNotFitTheProgram) {
  test_support::ScratchDir dir;
  const auto trace = replay_test::Load(test_support::SimulateTrace(dir / "trace.db", "default"));
  const DerivedProgram program = core::replay::DeriveProgram(trace.store, trace.recon);
  ASSERT_FALSE(program.scenario.threads.empty());
  core::sim::StepDurations durations;
  Edits host;
  host.cpu_scale = 0.5;
  ASSERT_TRUE(core::replay::EditedDurations(host, program, durations));
  durations.front().pop_back();
  core::store::MemoryTrace memory("replay");
  core::replay::ReplayRun run;
  run.step_durations = &durations;
  try {
    core::replay::WriteReplay(trace.store, program, memory, run);
    ADD_FAILURE() << "durations one short were run";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find(program.scenario.threads.front().name), std::string::npos)
        << e.what();
  }
  durations.pop_back();
  core::store::MemoryTrace again("replay");
  EXPECT_THROW(core::replay::WriteReplay(trace.store, program, again, run), core::Error);
}

}  // namespace
