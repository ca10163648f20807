// `fencescope simulate` through the real binary.
#include <gtest/gtest.h>

#include <fstream>

#include "core/store/query.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

using test_support::RunFencescope;
using test_support::ScratchDir;

namespace {

std::string Meta(const std::filesystem::path& trace, const std::string& key) {
  auto r = core::store::RunQuery(trace, "SELECT value FROM meta WHERE key = '" + key + "'");
  return r.rows.empty() ? "" : r.rows[0][0];
}

// Runs from `dir` as the working directory, so embedded scenarios are found without a path.
struct InDirectory {
  explicit InDirectory(const std::filesystem::path& dir) : m_old(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~InDirectory() { std::filesystem::current_path(m_old); }
  std::filesystem::path m_old;
};

}  // namespace

TEST(SimulateCommand, EmbeddedDefaultFromAnyDirectory) {
  ScratchDir dir;
  InDirectory cwd(dir.path());
  auto r = RunFencescope("simulate default -o trace.db");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("default: "), std::string::npos) << r.out;
  const auto trace = dir / "trace.db";
  EXPECT_EQ(Meta(trace, "scenario"), "default");
  EXPECT_EQ(Meta(trace, "seed"), "1");
  EXPECT_EQ(Meta(trace, "fence_mode"), "native");
  EXPECT_EQ(Meta(trace, "source"), "simulator");
  EXPECT_EQ(Meta(trace, "events_sorted"), "1");
}

TEST(SimulateCommand, SeedFenceModeAndDurationOptions) {
  ScratchDir dir;
  const auto trace = test_support::SimulateTrace(
      dir / "t.db", "ring_buffer --seed 7 --fence-mode monitored --duration-ms 0.5");
  EXPECT_EQ(Meta(trace, "seed"), "7");
  EXPECT_EQ(Meta(trace, "fence_mode"), "monitored");
  EXPECT_EQ(Meta(trace, "time_limit_ns"), "500000");
  EXPECT_EQ(test_support::FirstCell(trace, "SELECT max(ts_ns) <= 500000 FROM events"), "1");
}

TEST(SimulateCommand, ScenarioErrorNamesFileLineAndKeyAndWritesNothing) {
  ScratchDir dir;
  const auto scenario = dir / "broken.toml";
  std::ofstream(scenario) << "[scenario]\nname = \"x\"\n\n[[adapter]]\nname = \"GPU\"\n"
                             "native_fence = true\n";
  const auto trace = dir / "t.db";
  test_support::ExpectFailure(
      RunFencescope("simulate '" + scenario.string() + "' -o '" + trace.string() + "'"), 1,
      "broken.toml:6: key 'adapter[0].native_fence': unknown key");
  EXPECT_FALSE(std::filesystem::exists(trace));
}

TEST(SimulateCommand, UnknownScenarioNameListsTheEmbeddedOnes) {
  ScratchDir dir;
  test_support::ExpectFailure(
      RunFencescope("simulate nosuch -o '" + (dir / "t.db").string() + "'"), 1, "default");
}

// seed 004: --preemption-granularity replaces the scenario's (a graphics name the graphics one;
// the compute one stays the scenario's thread_group), and stats --json reports it by name.
TEST(SimulateCommand, PreemptionGranularityOverride) {
  ScratchDir dir;
  const auto trace = test_support::SimulateTrace(
      dir / "p.db", "preemption --preemption-granularity triangle --duration-ms 50");
  // triangle (3) and thread_group (7)
  EXPECT_EQ(test_support::RowsText(trace,
                                    "SELECT preemption_graphics, preemption_compute FROM adapters"),
            "3|7\n");
  auto stats = RunFencescope("stats --json '" + trace.string() + "'");
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("\"granularity_graphics\": \"triangle\""), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("\"granularity_compute\": \"thread_group\""), std::string::npos);
  EXPECT_NE(stats.out.find("\"tdrs\": 0"), std::string::npos);

  auto bad = RunFencescope("simulate preemption -o '" + (dir / "bad.db").string() +
                           "' --preemption-granularity wavefront");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("unknown granularity 'wavefront'"), std::string::npos) << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "bad.db"));
}

TEST(SimulateCommand, NonFiniteNegativeOrHugeNumbersAreRefusedForEveryNumericOption) {
  ScratchDir dir;
  const auto trace = dir / "t.db";
  for (const char* value : {"nan", "inf", "-inf", "1e300", "-1", "0", "abc"}) {
    auto r = RunFencescope("simulate default -o '" + trace.string() + "' --duration-ms " + value);
    EXPECT_NE(r.exit_code, 0) << value << "\n" << r.out;
    EXPECT_NE(r.err.find("--duration-ms"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(trace)) << value;
  }
  auto seed = RunFencescope("simulate default -o '" + trace.string() + "' --seed -1");
  EXPECT_NE(seed.exit_code, 0) << seed.out;
  EXPECT_NE(seed.err.find("--seed"), std::string::npos) << seed.err;
  ASSERT_EQ(RunFencescope("simulate default --duration-ms 1 -o '" + trace.string() + "'").exit_code, 0);
  for (const std::string& args :
       {"report '" + trace.string() + "' --path-until nan",
        "report '" + trace.string() + "' --path-until -5",
        "query '" + trace.string() + "' 'SELECT 1' --timeout inf",
        "query '" + trace.string() + "' 'SELECT 1' --timeout -1",
        std::string("bench store --events 0"), std::string("bench simulate --events -1"),
        std::string("bench report --events 0"), "bench import '" + trace.string() + "' --repeat 0"}) {
    auto r = RunFencescope(args);
    EXPECT_NE(r.exit_code, 0) << args << "\n" << r.out;
    EXPECT_NE(r.err.find("--"), std::string::npos) << r.err;
  }
}

TEST(SimulateCommand, NonFiniteNumberInAScenarioFileNamesTheFileAndKey) {
  ScratchDir dir;
  const auto scenario = dir / "nan.toml";
  std::ofstream(scenario) << "[scenario]\nname = \"x\"\nduration_ms = nan\n";
  const auto trace = dir / "t.db";
  auto r = RunFencescope("simulate '" + scenario.string() + "' -o '" + trace.string() + "'");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(r.err.find(scenario.string() + ":3: key 'scenario.duration_ms': must be a finite number"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(trace));
}
