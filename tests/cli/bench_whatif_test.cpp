// `bench whatif` runs every stage it times on a trace and names the packets it replayed: as many
// as the trace submitted, counted by SQL over its packet_submitted view (no figure of fencescope
// makes the expectation). Only that it runs and what it prints; its times are the benchmark's.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/support/test_support.h"

using test_support::Quote;

TEST(BenchWhatIf, ReplaysEveryPacketOfTheTraceAndPrintsEachStage) {
  test_support::ScratchDir dir;
  const auto trace = test_support::SimulateTrace(dir / "trace.db", "default");
  const auto counted = test_support::CommandFigures(
      "python3 -c \"import sqlite3,sys; db=sqlite3.connect(sys.argv[1]); "
      "print('packets\\t%d' % db.execute('SELECT COUNT(*) FROM "
      "packet_submitted').fetchone()[0])\" " +
      Quote(trace));
  ASSERT_EQ(counted.count("packets"), 1u);
  ASSERT_GT(counted.at("packets"), 0);

  auto bench =
      test_support::RunFencescope("bench whatif " + Quote(trace) + " --dir " + Quote(dir.path()));
  ASSERT_EQ(bench.exit_code, 0) << bench.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(bench.out, m, std::regex(R"(packets\s+([0-9]+)\n)"))) << bench.out;
  EXPECT_EQ(std::stoll(m[1]), counted.at("packets"));
  for (const char* line :
       {"derive the program", "replay (simulate+write)", "replay into memory", "replay measured",
        "packets/s  into a file", "packets/s  into memory", "packets/s  measured",
        "report (analyse+render)", "opportunities/report"}) {
    EXPECT_NE(bench.out.find(line), std::string::npos) << line << "\n" << bench.out;
  }
  // The scratch replay is removed.
  EXPECT_FALSE(std::filesystem::exists(dir / "fencescope-bench-whatif.db"));
}
