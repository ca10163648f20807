// A replay's steps run on to the end of the GPU work they launched (ExtendStepsToTheirWork),
// worked out by hand on ProfilerStep slices and packets given as (submitted, end), times in ns.
#include <gtest/gtest.h>

#include "core/fleet/step_marks.h"

namespace {

using core::fleet::ExtendStepsToTheirWork;
using core::fleet::LaunchedWork;
using core::fleet::StepMark;

TEST(StepWork, AStepWhoseWorkEndsInsideItsSliceIsTheSlice) {
  std::vector<StepMark> steps = {{1, 0, 100}, {2, 100, 200}};
  ExtendStepsToTheirWork(steps, {{10, 50}, {150, 190}});
  EXPECT_EQ(steps[0].start, 0);
  EXPECT_EQ(steps[0].end, 100);
  EXPECT_EQ(steps[1].start, 100);
  EXPECT_EQ(steps[1].end, 200);
}

TEST(StepWork, WhereTheHostRunsAheadAStepLastsFromOneIterationsWorkDoneToTheNext) {
  // Step 1's slice 0..20 launches work ending at 161; step 2's slice 20..40 launches work
  // ending at 212. Step 1: 0..161; step 2 from step 1's end: 161..212.
  std::vector<StepMark> steps = {{1, 0, 20}, {2, 20, 40}};
  ExtendStepsToTheirWork(steps, {{0, 110}, {4, 161}, {24, 212}});
  EXPECT_EQ(steps[0].start, 0);
  EXPECT_EQ(steps[0].end, 161);
  EXPECT_EQ(steps[1].start, 161);
  EXPECT_EQ(steps[1].end, 212);
}

TEST(StepWork, WorkSubmittedOutsideEveryStepBelongsToNone) {
  // Submitted before the first step, between the steps (at a slice's end: the slice is
  // [start, end)), and after the last.
  std::vector<StepMark> steps = {{5, 100, 200}, {6, 300, 400}};
  ExtendStepsToTheirWork(steps, {{50, 1000}, {200, 1000}, {250, 1000}, {400, 1000}});
  EXPECT_EQ(steps[0].end, 200);
  EXPECT_EQ(steps[1].start, 300);
  EXPECT_EQ(steps[1].end, 400);
}

TEST(StepWork, AStepWhoseSliceAndWorkEndedBeforeTheStepBeforeCompletedHasNoLength) {
  // Step 1's work ends at 500; step 2's slice 20..40 launched nothing.
  std::vector<StepMark> steps = {{1, 0, 20}, {2, 20, 40}};
  ExtendStepsToTheirWork(steps, {{5, 500}});
  EXPECT_EQ(steps[0].end, 500);
  EXPECT_EQ(steps[1].start, 500);
  EXPECT_EQ(steps[1].end, 500);
}

}  // namespace
