// `fencescope info` and `fencescope query` on a trace the test writes, through the real binary.
#include <gtest/gtest.h>

#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

using namespace core::store;
using test_support::RunFencescope;
using test_support::ScratchDir;

namespace {
std::filesystem::path WriteTrace(const ScratchDir& dir) {
  auto path = dir / "trace.db";
  TraceWriter w(path, "cli-test");
  QueueId q = w.AddQueue({0, 0, QueueType::kCopy, 0, 0, "copy, \"main\"", 0});
  FenceId f = w.AddFence({"fence A"});
  for (int i = 1; i <= 3; ++i) {
    w.Append({i * 1000, EventKind::FenceSignalExecuted, q, 0, f, static_cast<uint64_t>(i), i});
  }
  w.CountProblem("test_problem", Severity::kError, "a counted problem", 4, "row 9");
  w.Commit();
  return path;
}
}  // namespace

TEST(CliInfo, PrintsVersionSourceSpanRowsAndProblems) {
  ScratchDir dir;
  auto trace = WriteTrace(dir);
  auto r = RunFencescope("info '" + trace.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("schema_version  1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("source          cli-test"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1000 .. 3000 ns"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("events           3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fence_signal_executed  3"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("test_problem"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("row 9"), std::string::npos) << r.out;
}

TEST(CliQuery, PrintsTableAndCsv) {
  ScratchDir dir;
  auto trace = WriteTrace(dir);
  auto table = RunFencescope("query '" + trace.string() +
                             "' 'SELECT ts_ns, fence_value FROM fence_signal_executed ORDER BY ts_ns'");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.out,
            "ts_ns  fence_value\n"
            "-----  -----------\n"
            "1000   1\n"
            "2000   2\n"
            "3000   3\n"
            "(3 rows)\n");
  auto csv = RunFencescope("query --csv '" + trace.string() + "' 'SELECT id, name_sid, (SELECT value FROM strings WHERE id = name_sid) AS name FROM queues'");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out, "id,name_sid,name\r\n1,1,\"copy, \"\"main\"\"\"\r\n");
}

TEST(CliQuery, SqlErrorIsReportedWithNonZeroExit) {
  ScratchDir dir;
  auto trace = WriteTrace(dir);
  auto r = RunFencescope("query '" + trace.string() + "' 'SELECT nope FROM nowhere'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no such table"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(trace.string()), std::string::npos) << r.err;
}

TEST(CliQuery, WritesAreRefusedBecauseTraceIsOpenedReadOnly) {
  ScratchDir dir;
  auto trace = WriteTrace(dir);
  auto r = RunFencescope("query '" + trace.string() + "' 'DELETE FROM events'");
  EXPECT_NE(r.exit_code, 0);
  auto count = RunFencescope("query --csv '" + trace.string() + "' 'SELECT count(*) FROM events'");
  EXPECT_EQ(count.out, "count(*)\r\n3\r\n");
}

TEST(CliInfo, NonTraceFileGivesClearErrorAndNonZeroExit) {
  ScratchDir dir;
  auto r = RunFencescope("info '" + (dir / "missing.db").string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing.db: no such file"), std::string::npos) << r.err;
}

TEST(CliHelp, ListsTheSubcommands) {
  auto r = RunFencescope("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* name : {"info", "query", "bench", "view"}) {
    EXPECT_NE(r.out.find(name), std::string::npos) << name << "\n" << r.out;
  }
}
