// The packed cache through the command line: `report` writes it on a first run and reads it on
// the next with the same output; `info` lists its sections; an event changed with SQL leaves no
// section behind, and the next report is the rows' report.
#include <gtest/gtest.h>

#include "core/store/sqlite_db.h"
#include "tests/support/test_support.h"

namespace {

using namespace test_support;  // NOLINT

std::string Report(const std::filesystem::path& trace, const std::filesystem::path& out,
                   const std::string& env = "") {
  auto r = RunCommand(env + " " + FENCESCOPE_EXECUTABLE + " report " + Quote(trace) +
                      " --format json -o " + Quote(out));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return ReadFile(out);
}

TEST(CacheCli, ReportWritesTheCacheReadsItNextAndInfoListsIt) {
  ScratchDir dir;
  const auto trace = SimulateTrace(dir / "t.db", "default --duration-ms 60");
  const std::string rows = Report(trace, dir / "rows.json", "FENCESCOPE_NO_CACHE=1");
  auto info = RunFencescope("info " + Quote(trace));
  ASSERT_EQ(info.exit_code, 0) << info.err;
  EXPECT_NE(info.out.find("(none: the next open reads the rows"), std::string::npos) << info.out;

  EXPECT_EQ(Report(trace, dir / "first.json"), rows);
  info = RunFencescope("info " + Quote(trace));
  for (const char* section : {"store ", "events ", "recon ", "analysis:full "}) {
    EXPECT_NE(info.out.find(section), std::string::npos) << section << "\n" << info.out;
  }
  EXPECT_EQ(info.out.find("stale"), std::string::npos) << info.out;
  auto notes = RunCommand(std::string("FENCESCOPE_CACHE_NOTES=1 ") + FENCESCOPE_EXECUTABLE +
                          " report " + Quote(trace) + " --format json -o " +
                          Quote(dir / "cached.json"));
  ASSERT_EQ(notes.exit_code, 0) << notes.err;
  EXPECT_NE(notes.err.find("analysis:full: read from the cache"), std::string::npos) << notes.err;
  EXPECT_EQ(ReadFile(dir / "cached.json"), rows);

  {
    core::store::Database db(trace.string(), core::store::Database::Mode::kReadWrite);
    db.Exec("UPDATE events SET ts_ns = ts_ns + 5 WHERE rowid = 10");
  }
  info = RunFencescope("info " + Quote(trace));
  EXPECT_NE(info.out.find("(none: the next open reads the rows"), std::string::npos) << info.out;
  EXPECT_EQ(Report(trace, dir / "edited.json"),
            Report(trace, dir / "edited-rows.json", "FENCESCOPE_NO_CACHE=1"));
}

}  // namespace
