// A step's rarely set fields live out of line (core/sim/boxed.h): absent until written, read as
// their defaults, copied with the step (the what-if edits a worker's copy of a derived program
// and must never reach the original).
#include <gtest/gtest.h>

#include "core/sim/scenario.h"

namespace {

using core::sim::Step;

TEST(StepDetail, AStepThatSetsNoneReadsTheDefaultsAndHoldsNone) {
  const Step step;
  EXPECT_FALSE(step.detail.has_value());
  EXPECT_EQ(step.detail.get().from_frame, 1);
  EXPECT_EQ(step.detail.get().every, 1);
  EXPECT_EQ(step.detail.get().pso, -1);
  EXPECT_EQ(step.detail.get().split_packets, 1);
  EXPECT_TRUE(step.detail.get().fences.empty());
  EXPECT_FALSE(step.detail.has_value());  // reading made none
}

TEST(StepDetail, ACopyOwnsItsOwnDetail) {
  Step original;
  original.detail.edit().fences = {3, 4};
  original.detail.edit().pso = 2;
  Step copy = original;
  copy.detail.edit().fences.push_back(5);
  copy.detail.edit().pso = 7;
  EXPECT_EQ(original.detail.get().fences, (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(original.detail.get().pso, 2);
  EXPECT_EQ(copy.detail.get().fences, (std::vector<uint32_t>{3, 4, 5}));
  EXPECT_NE(&original.detail.get(), &copy.detail.get());
}

TEST(StepDetail, AssigningAStepWithoutDetailDropsTheOneThere) {
  // What undoing a what-if edit does: the worker's program copied back over the original's.
  std::vector<Step> original(2);
  original[1].detail.edit().every = 3;
  std::vector<Step> edited = original;
  edited[0].detail.edit().jitter = 0.5;
  edited[1].detail.edit().every = 9;
  edited = original;
  EXPECT_FALSE(edited[0].detail.has_value());
  EXPECT_EQ(edited[0].detail.get().jitter, 0);
  EXPECT_EQ(edited[1].detail.get().every, 3);
}

TEST(StepDetail, AMovedStepTakesTheDetailWithIt) {
  Step from;
  from.detail.edit().split_packets = 4;
  const core::sim::StepDetail* held = &from.detail.get();
  Step to = std::move(from);
  EXPECT_EQ(&to.detail.get(), held);
  EXPECT_EQ(to.detail.get().split_packets, 4);
}

}  // namespace
