// The rule by which annotation ranges (NVTX, roctx) mark iterations: each expected step worked
// out by hand from the ranges given.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "importers/common/step_ranges.h"

namespace {

using importers::MarkerRange;
using importers::StepRange;

std::string Steps(const std::vector<MarkerRange>& ranges) {
  std::string out;
  for (const StepRange& s : importers::StepRanges(ranges)) {
    out += std::to_string(s.number) + ":" + std::to_string(s.start) + "-" +
           std::to_string(s.end) + " ";
  }
  return out;
}

TEST(StepRanges, NumberedTextsNameTheirStep) {
  EXPECT_EQ(importers::StepNumberOf("step 3"), 3);
  EXPECT_EQ(importers::StepNumberOf("Iteration_12"), 12);
  EXPECT_EQ(importers::StepNumberOf("iter#7"), 7);
  EXPECT_EQ(importers::StepNumberOf("STEP5"), 5);
  EXPECT_FALSE(importers::StepNumberOf("step 3 forward"));
  EXPECT_FALSE(importers::StepNumberOf("stepper 3"));
  EXPECT_FALSE(importers::StepNumberOf("ProfilerStep#5"));  // a step by its own name
  EXPECT_FALSE(importers::StepNumberOf("step"));
}

TEST(StepRanges, UnnumberedStepNames) {
  EXPECT_TRUE(importers::NamesStepWithoutNumber("train_step"));
  EXPECT_TRUE(importers::NamesStepWithoutNumber("Training Step"));
  EXPECT_TRUE(importers::NamesStepWithoutNumber("fwd-bwd-iteration"));
  EXPECT_TRUE(importers::NamesStepWithoutNumber("step"));
  EXPECT_FALSE(importers::NamesStepWithoutNumber("optimizer.step"));
  EXPECT_FALSE(importers::NamesStepWithoutNumber("footstep"));
  EXPECT_FALSE(importers::NamesStepWithoutNumber("step_fn"));
}

TEST(StepRanges, NumberedRangesWinOverRepeatedNames) {
  EXPECT_EQ(Steps({{300, 400, "step 2"}, {100, 200, "step 1"}, {500, 600, "train_step"},
                   {700, 800, "train_step"}}),
            "1:100-200 2:300-400 ");
}

TEST(StepRanges, TheMostRepeatedNameIsNumberedInTimeOrderWithoutItsNestedRanges) {
  EXPECT_EQ(Steps({{500, 900, "train_step"}, {100, 400, "train_step"}, {600, 700, "train_step"},
                   {950, 990, "eval_step"}, {1000, 1100, "eval_step"}, {1200, 1300, "train_step"}}),
            "1:100-400 2:500-900 3:1200-1300 ");
  // Seen as often: the name seen first.
  EXPECT_EQ(Steps({{500, 600, "train_step"}, {100, 200, "eval_step"}, {300, 400, "eval_step"},
                   {700, 800, "train_step"}}),
            "1:100-200 2:300-400 ");
  // Once is no loop.
  EXPECT_EQ(Steps({{100, 200, "train_step"}, {300, 400, "eval_step"}}), "");
}

}  // namespace
