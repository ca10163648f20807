// `fencescope bench fleet` on a small generated fleet: it runs to the end, finds every straggler
// and clock offset the generator's truth.json holds (answers known by construction), and prints
// its time, CPU and memory figures, the reduce's over copies of a summary included.
#include <gtest/gtest.h>

#include <regex>

#include "tests/support/test_support.h"

using test_support::Quote;

TEST(FleetBench, SmallFleetFiguresAndTheGeneratedAnswers) {
  test_support::ScratchDir dir;
  auto made = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/fleet/make_fleet.py") + " --out " +
      Quote(dir / "gen") + " --ranks 4 --steps 5 --slow 2:3:1.5 --seed 3");
  ASSERT_EQ(made.exit_code, 0) << made.err;

  auto bench = test_support::RunFencescope("bench fleet " + Quote(dir / "gen/ranks") +
                                           " --summaries 40 --dir " + Quote(dir.path()));
  ASSERT_EQ(bench.exit_code, 0) << bench.err << bench.out;
  const std::string& out = bench.out;
  EXPECT_NE(out.find("ranks                      4 "), std::string::npos) << out;
  EXPECT_TRUE(std::regex_search(out, std::regex(R"(fleet import .*\([0-9]+ workers, 0 failed\))")))
      << out;
  EXPECT_NE(out.find("stragglers found exactly   5 of 5 steps"), std::string::npos) << out;
  EXPECT_NE(out.find("clock offsets exact        4 of 4 ranks"), std::string::npos) << out;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(out, m, std::regex(R"(single imports, CPU\s+([0-9.]+) s)"))) << out;
  EXPECT_GT(std::stod(m[1]), 0.0);
  ASSERT_TRUE(std::regex_search(out, m, std::regex(R"(fleet CPU / single CPU\s+([0-9.]+))")))
      << out;
  EXPECT_GT(std::stod(m[1]), 0.0);
  // What each side read from storage is printed. Not bounded here: with inputs of 0.2 MB, the
  // program's own pages, when the machine has dropped them from the page cache (a busy CI),
  // outweigh any input, so the figure cannot tell whether the inputs were cached. That they are,
  // and that a child's storage reads are counted, PageCache.* checks on a file it evicts itself.
  ASSERT_TRUE(std::regex_search(
      out, m,
      std::regex(R"(read from storage\s+([0-9.]+) MB by the single imports, ([0-9.]+) MB side by )"
                 R"(side, ([0-9.]+) MB by the fleet)")))
      << out;
  // The same four imports, as many at once as the fleet's workers.
  ASSERT_TRUE(std::regex_search(out, m, std::regex(R"(fleet import .*\(([0-9]+) workers)")));
  const std::string workers = m[1];
  ASSERT_TRUE(std::regex_search(
      out, m, std::regex("imports, " + workers + R"( at once\s+([0-9.]+) s \(([0-9.]+) s CPU\))")))
      << out;
  EXPECT_GT(std::stod(m[2]), 0.0);
  EXPECT_TRUE(
      std::regex_search(out, std::regex("fleet / imports " + workers + R"( at once\s+[0-9.]+)")))
      << out;
  // The reduce ran as `fleet report` over 40 summaries (it checks ranks_count itself) and its
  // peak is that of a process that read them.
  ASSERT_TRUE(std::regex_search(
      out, m, std::regex(R"(reduce, 40 summaries\s+([0-9.]+) s .*peak ([0-9.]+) MB)")))
      << out;
  EXPECT_GT(std::stod(m[2]), 1.0);
}
