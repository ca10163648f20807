// NVTX ranges that mark iterations ("step 3", or "train_step" repeated) become ProfilerStep#N
// steps, and the per-step figures of a fleet come from them. The hand-made exports are
// make_nsys_sqlite.py's nvtx_steps scenario; every expected step, length and busy time is
// worked out by nvtx_steps.py from the file's raw NVTX_EVENTS and kernel rows with Python's
// sqlite3 and nothing of fencescope.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "tests/support/json_text.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::FirstCell;
using test_support::Quote;
using test_support::RowsText;

fs::path Made(const test_support::ScratchDir& dir, const std::string& name,
              const std::string& options = "") {
  const fs::path sqlite = dir / (name + ".sqlite");
  const auto made = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/nsys/make_nsys_sqlite.py") +
      " nvtx_steps " + Quote(sqlite) + " " + options);
  EXPECT_EQ(made.exit_code, 0) << made.err;
  return sqlite;
}

std::map<std::string, int64_t> StepsOfTheFile(const fs::path& sqlite) {
  return test_support::ScriptFigures(
      test_support::SourceDir() / "tests/importers/nsys/nvtx_steps.py", sqlite);
}

// "ProfilerStep#N|start|length" per step the script found, in its order.
std::string ExpectedStepSlices(const std::map<std::string, int64_t>& want) {
  std::string out;
  for (int64_t n = 1; n <= want.at("steps"); ++n) {
    const std::string key = "step " + std::to_string(n);
    out += "ProfilerStep#" + std::to_string(n) + "|" + std::to_string(want.at(key + " start")) +
           "|" + std::to_string(want.at(key + " ns")) + "\n";
  }
  return out;
}

std::string StepSlices(const fs::path& trace) {
  return RowsText(trace, "SELECT s.value, c.ts_ns, c.duration_ns FROM cpu_slice c "
                         "JOIN strings s ON s.id = c.name_sid JOIN threads t ON "
                         "t.id = c.thread_id JOIN strings tn ON tn.id = t.name_sid "
                         "WHERE s.value LIKE 'ProfilerStep#%' AND tn.value = 'Steps (NVTX)' "
                         "ORDER BY c.ts_ns");
}

fs::path Imported(const test_support::ScratchDir& dir, const fs::path& sqlite) {
  const fs::path trace = dir / (sqlite.stem().string() + ".db");
  const auto r = test_support::RunFencescope("import " + Quote(sqlite) + " --output " +
                                             Quote(trace));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return trace;
}

TEST(NsysNvtxSteps, NumberedRangesAreTheSteps) {
  test_support::ScratchDir dir;
  const fs::path sqlite = Made(dir, "numbered");
  const auto want = StepsOfTheFile(sqlite);
  ASSERT_EQ(want.at("steps"), 3);
  const fs::path trace = Imported(dir, sqlite);
  EXPECT_EQ(StepSlices(trace), ExpectedStepSlices(want));
  EXPECT_EQ(FirstCell(trace, "SELECT count FROM import_problems WHERE name = "
                             "'nsys_steps_from_nvtx'"),
            "3");
  // The ranges stay NVTX ranges on their own thread as well.
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM cpu_slice c JOIN strings s ON "
                             "s.id = c.name_sid WHERE s.value LIKE 'step %'"),
            "3");
}

TEST(NsysNvtxSteps, ARepeatedStepNameIsNumberedInTimeOrder) {
  test_support::ScratchDir dir;
  // "train_step" three times at the top and once nested in the second; "eval_step" once.
  const fs::path sqlite = Made(dir, "repeated", "--repeated-steps --slow-step");
  const auto want = StepsOfTheFile(sqlite);
  ASSERT_EQ(want.at("steps"), 3);
  const fs::path trace = Imported(dir, sqlite);
  EXPECT_EQ(StepSlices(trace), ExpectedStepSlices(want));
}

// A replay (whatif) compares the trace's steps with the predicted ones: the steps it reads are
// the NVTX ones, each as long as its range.
TEST(NsysNvtxSteps, AReplayComparesTheNvtxSteps) {
  test_support::ScratchDir dir;
  const fs::path sqlite = Made(dir, "numbered");
  const auto want = StepsOfTheFile(sqlite);
  const fs::path trace = Imported(dir, sqlite);
  const auto j = test_support::RunFencescopeJson("whatif " + Quote(trace) + " -o " +
                                                 Quote(dir / "faster.db") +
                                                 " --scale 'k=0.5' --json");
  for (int n = 1; n <= want.at("steps"); ++n) {
    SCOPED_TRACE(n);
    const std::string at = "steps[" + std::to_string(n - 1) + "].";
    EXPECT_EQ(test_support::IntAt(j, at + "id"), n);
    EXPECT_EQ(test_support::IntAt(j, at + "before_ns"),
              want.at("step " + std::to_string(n) + " ns"));
  }
}

// Two ranks, each exported on its own: rank 1's second step is slower and its steps are named
// "train_step". The fleet matches the steps by number; each rank's step length and the kernel
// time of each step are the ones the script reads from that rank's file.
TEST(NsysNvtxSteps, AFleetsPerStepFiguresComeFromTheNvtxRanges) {
  test_support::ScratchDir dir;
  fs::create_directories(dir / "ranks");
  const fs::path rank0 = Made(dir, "ranks/rank0");
  const fs::path rank1 = Made(dir, "ranks/rank1", "--slow-step --repeated-steps");
  const auto want0 = StepsOfTheFile(rank0), want1 = StepsOfTheFile(rank1);
  ASSERT_EQ(want0.at("steps"), 3);
  ASSERT_EQ(want1.at("steps"), 3);
  ASSERT_NE(want0.at("step 2 ns"), want1.at("step 2 ns"));
  const auto r = test_support::RunFencescope("fleet import " + Quote(dir / "ranks") + " -o " +
                                             Quote(dir / "fleet"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report =
      test_support::RunFencescopeJson("fleet report " + Quote(dir / "fleet") + " --format json");
  EXPECT_EQ(test_support::IntAt(report, "steps_matched"), 3);
  for (int n = 1; n <= 3; ++n) {
    SCOPED_TRACE(n);
    const std::string at = "steps[" + std::to_string(n - 1) + "].";
    const std::string key = "step " + std::to_string(n);
    EXPECT_EQ(test_support::IntAt(report, at + "step"), n);
    EXPECT_EQ(test_support::IntAt(report, at + "step_ns[0]"), want0.at(key + " ns"));
    EXPECT_EQ(test_support::IntAt(report, at + "step_ns[1]"), want1.at(key + " ns"));
  }
  // Each rank's per-step queue time: the kernel time inside each step.
  for (const auto& [index, want] : {std::pair{0, &want0}, std::pair{1, &want1}}) {
    std::ifstream in(dir / "fleet/traces" / ("0000" + std::to_string(index) + ".summary.json"));
    std::stringstream text;
    text << in.rdbuf();
    const auto summary = test_support::ParseJsonText(text.str());
    for (int n = 1; n <= 3; ++n) {
      SCOPED_TRACE(std::to_string(index) + " step " + std::to_string(n));
      const std::string at = "fleet.steps[" + std::to_string(n - 1) + "].";
      EXPECT_EQ(test_support::IntAt(summary, at + "id"), n);
      EXPECT_EQ(test_support::IntAt(summary, at + "queues[0].busy_ns"),
                want->at("step " + std::to_string(n) + " busy"));
    }
  }
}

}  // namespace
