// An import note as the window's trace panel shows it: with the place of its first record when
// the importer knows one, without a dangling "first at" when it counted over the whole trace.
#include <gtest/gtest.h>

#include "core/report/import_problems_report.h"

namespace {

TEST(ImportProblemText, ThePlaceIsSaidOnlyWhenKnown) {
  core::store::ImportProblem placed;
  placed.name = "json_bad_event";
  placed.count = 3;
  placed.description = "events that are not objects";
  placed.first_place = "trace.json line 7, column 3 (byte 120)";
  EXPECT_EQ(core::report::ImportProblemText(placed),
            "3 (events that are not objects) first at trace.json line 7, column 3 (byte 120)");

  core::store::ImportProblem whole_trace;
  whole_trace.name = "kineto_launch_by_correlation";
  whole_trace.count = 115292;
  whole_trace.description = "kernels with no ac2g launch flow";
  EXPECT_EQ(core::report::ImportProblemText(whole_trace),
            "115292 (kernels with no ac2g launch flow)");
}

}  // namespace
