// `fencescope stats`, `report` and `compare` through the real binary on hand-made traces
// (tests/support/hand_trace.h): output files, formats, --fail-if exit codes and errors.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

using test_support::Quote;
using test_support::ReadFile;
using test_support::RunFencescope;
using test_support::ScratchDir;

TEST(CliStats, JsonKeysAndValues) {
  ScratchDir dir;
  hand_trace::WriteReportTrace(dir / "r.db");
  auto r = RunFencescope("stats --json " + Quote(dir / "r.db"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"\"schema_version\": 1", "\"source\": \"hand\"", "\"duration_ns\": 120",
                          "\"events\": 18", "\"queues\": [", "\"busy_ns\": 40",
                          "\"waiting_ns\": 70", "\"waits_never_unblocked\": 1",
                          "\"spurious\": 1", "\"entries_lost\": 4", "\"log_buffers\": {"}) {
    EXPECT_NE(r.out.find(key), std::string::npos) << key << "\n" << r.out;
  }
  auto text = RunFencescope("stats " + Quote(dir / "r.db"));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("3d"), std::string::npos);
}

TEST(CliReport, HtmlJsonMarkdownFiles) {
  ScratchDir dir;
  hand_trace::WriteReportTrace(dir / "r.db");
  auto html = RunFencescope("report " + Quote(dir / "r.db") + " -o " + Quote(dir / "report.html"));
  ASSERT_EQ(html.exit_code, 0) << html.err;
  std::string page = ReadFile(dir / "report.html");
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_NE(page.find("id=\"critical-path\""), std::string::npos);
  auto json = RunFencescope("report " + Quote(dir / "r.db") + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  for (const char* key : {"\"critical_path\"", "\"latency\"", "\"findings\"", "\"pgo_series\"",
                          "\"queues\"", "\"interrupts\""}) {
    EXPECT_NE(json.out.find(key), std::string::npos) << key;
  }
  auto md = RunFencescope("report " + Quote(dir / "r.db") + " -o " + Quote(dir / "r.md"));
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(ReadFile(dir / "r.md").find("## Critical path"), std::string::npos);
}

TEST(CliReport, FailIfExitCodes) {
  ScratchDir dir;
  hand_trace::WriteReportTrace(dir / "r.db");
  std::string trace = Quote(dir / "r.db");
  auto tripped = RunFencescope("report " + trace + " --format json --fail-if "
                               "'interrupts.spurious > 10 || fences.waits_never_unblocked > 0'");
  EXPECT_EQ(tripped.exit_code, 3) << tripped.err;
  EXPECT_NE(tripped.err.find("is true"), std::string::npos);
  auto quiet = RunFencescope("report " + trace + " --format json --fail-if 'fences.rewinds > 0'");
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  auto unknown = RunFencescope("report " + trace + " -o " + Quote(dir / "x.html") +
                               " --fail-if 'fences.no_such_key > 0'");
  test_support::ExpectFailure(unknown, 1, "unknown key 'fences.no_such_key'");
  EXPECT_FALSE(std::filesystem::exists(dir / "x.html"));  // nothing written on an error
}

TEST(CliReport, NotATraceIsAClearError) {
  ScratchDir dir;
  std::ofstream(dir / "junk.db") << "not a database";
  auto r = RunFencescope("report " + Quote(dir / "junk.db") + " -o " + Quote(dir / "out.html"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("junk.db"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.html"));
}

TEST(CliCompare, TextJsonHtml) {
  ScratchDir dir;
  hand_trace::WriteReportTrace(dir / "r.db");
  hand_trace::WriteTraceA(dir / "a.db");
  std::string args = Quote(dir / "r.db") + " " + Quote(dir / "a.db");
  auto text = RunFencescope("compare " + args);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("waiting_ns"), std::string::npos) << text.out;
  auto json = RunFencescope("compare " + args + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"metrics\""), std::string::npos);
  auto html = RunFencescope("compare " + args + " --format html -o " + Quote(dir / "c.html"));
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_NE(ReadFile(dir / "c.html").find("<svg"), std::string::npos);
}
