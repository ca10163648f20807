// `fencescope info` and `fencescope query` on a trace the test writes, through the real binary.
#include <gtest/gtest.h>

#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

namespace events = core::model::events;

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
    w.Append(events::FenceSignalExecuted{.ts_ns = i * 1000,
                                         .queue_id = q,
                                         .fence_id = f,
                                         .fence_value = static_cast<uint64_t>(i),
                                         .signal_id = i});
  }
  w.CountProblem("test_problem", Severity::kError, "a counted problem", 4, "row 9");
  w.Commit();
  return path;
}

// `fencescope query [options] TRACE SQL`; `sql` must not hold a single quote.
test_support::CommandResult Query(const std::filesystem::path& trace, const std::string& sql,
                                  const std::string& options = "") {
  return RunFencescope("query " + options + " '" + trace.string() + "' '" + sql + "'");
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

TEST(CliQuery, VacuumIntoAttachAndPragmaWritesAreRefusedAndWriteNothing) {
  ScratchDir dir;
  auto trace = WriteTrace(dir);
  const std::string copy = (dir / "copy.db").string();
  for (const std::string& sql :
       {"VACUUM INTO \"" + copy + "\"", "ATTACH \"" + copy + "\" AS other",
        std::string("PRAGMA user_version = 7"), std::string("CREATE TEMP TABLE t(a)")}) {
    auto r = Query(trace, sql);
    EXPECT_NE(r.exit_code, 0) << sql;
    EXPECT_NE(r.err.find(trace.string()), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(copy)) << sql;
  }
  auto version = Query(trace, "PRAGMA user_version", "--csv");
  EXPECT_EQ(version.out, "user_version\r\n1\r\n");
  auto columns = Query(trace, "PRAGMA table_info(meta)", "--csv");
  EXPECT_EQ(columns.exit_code, 0) << columns.err;
}

// Table-valued pragma functions read the schema like their PRAGMAs (the same ones are allowed);
// the schema table their first use declares stays unwritable.
TEST(CliQuery, PragmaFunctionsReadTheSchema) {
  ScratchDir dir;
  auto trace = WriteTrace(dir);
  auto query = [&](const std::string& sql) {
    return RunFencescope("query --csv " + test_support::Quote(trace) + " \"" + sql + "\"");
  };
  auto columns = query("SELECT name FROM pragma_table_info('meta') ORDER BY cid");
  EXPECT_EQ(columns.exit_code, 0) << columns.err;
  EXPECT_EQ(columns.out, "name\r\nkey\r\nvalue\r\n");
  auto joined = query(
      "SELECT count(*) > 3 FROM sqlite_master m JOIN pragma_table_info(m.name) c "
      "WHERE m.name = 'events'");
  EXPECT_EQ(joined.out, "count(*) > 3\r\n1\r\n") << joined.err;
  for (const char* sql : {"SELECT count(*) > 0 FROM pragma_table_list",
                          "SELECT count(*) >= 0 FROM pragma_index_list('events')",
                          "SELECT * FROM pragma_user_version",
                          "SELECT count(*) FROM json_each('[1, 2]')"}) {
    auto r = query(sql);
    EXPECT_EQ(r.exit_code, 0) << sql << "\n" << r.err;
  }
  for (const char* sql :
       {"SELECT * FROM pragma_journal_mode", "SELECT * FROM pragma_writable_schema",
        "UPDATE sqlite_master SET sql = 'x'",
        "SELECT * FROM pragma_table_info('meta'); UPDATE sqlite_master SET sql = 'x'"}) {
    auto r = query(sql);
    EXPECT_NE(r.exit_code, 0) << sql << "\n" << r.out;
  }
  auto version = query("SELECT * FROM pragma_user_version");
  EXPECT_EQ(version.out, "user_version\r\n1\r\n");
}

TEST(CliQuery, ASecondStatementIsAnErrorNamingItAndNothingRuns) {
  ScratchDir dir;
  auto trace = WriteTrace(dir);
  auto r = Query(trace, "SELECT 1; DELETE FROM events");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("second statement"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"DELETE FROM events\""), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  // a trailing semicolon or comment is not a second statement
  auto one = Query(trace, "SELECT 1 AS x; -- done", "--csv");
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out, "x\r\n1\r\n");
}

TEST(CliQuery, Fts3TokenizerIsOff) {
  ScratchDir dir;
  auto trace = WriteTrace(dir);
  for (const char* sql : {"SELECT fts3_tokenizer(\"simple\", zeroblob(8))",
                          "SELECT hex(fts3_tokenizer(\"simple\"))"}) {
    auto r = Query(trace, sql);
    EXPECT_NE(r.exit_code, 0) << sql << "\n" << r.out;
    EXPECT_NE(r.err.find("fts3_tokenizer"), std::string::npos) << r.err;
  }
}

TEST(CliQuery, RunawayQueryStopsAtTheTimeout) {
  ScratchDir dir;
  auto trace = WriteTrace(dir);
  // `timeout` ends the test even when the query would not stop by itself
  auto r = test_support::RunCommand("timeout 30 '" FENCESCOPE_EXECUTABLE "' query --timeout 0.5 '" +
                                    trace.string() +
                         "' 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                         "SELECT count(*) FROM c'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("time limit of 0.5 s was reached"), std::string::npos) << r.err;
  auto bad = Query(trace, "SELECT 1", "--timeout nan");
  EXPECT_NE(bad.exit_code, 0);
}

TEST(CliInfo, NonTraceFileGivesClearErrorAndNonZeroExit) {
  ScratchDir dir;
  test_support::ExpectFailure(RunFencescope("info '" + (dir / "missing.db").string() + "'"), 1,
                              "missing.db: no such file");
}

// Every build's subcommands; `view` is listed only by the build with the window (checked by
// tests/ui/help_window_test.cpp).
TEST(CliHelp, ListsTheSubcommands) {
  auto r = RunFencescope("--help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* name : {"info", "query", "bench", "simulate", "import", "export", "report",
                           "compare", "stats", "fleet"}) {
    EXPECT_NE(r.out.find(name), std::string::npos) << name << "\n" << r.out;
  }
}
