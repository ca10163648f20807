// Reading a trace's bytes in a process that is committing to it. SQLite's locks are POSIX record
// locks, owned by the process: a plain descriptor of the file opened and closed anywhere in the
// process drops them. The window commits its packed cache in the background while its other
// threads open the trace (the header check of OpenTrace, the format sniffer); a lost lock let
// another process's `stats` read the file mid-commit ("SQLite cannot read it", "attempt to write
// a readonly database"). Here a write transaction is held open in this process, the file is read
// by the functions under test (the header check, the format sniffer, the damage walk), and
// another process must still be told the file is locked.
#include <gtest/gtest.h>

#include <string>

#include "core/store/file_bytes.h"
#include "core/store/sqlite_db.h"
#include "core/store/trace_file.h"
#include "importers/common/format_sniffer.h"
#include "tests/support/test_support.h"

namespace {

using namespace test_support;  // NOLINT
using core::store::Database;

// A trace with a write transaction open on it, part-way through as a commit is: a page cache of
// ten pages spills the changed pages into the file, so the journal is synced and hot, and only
// the writer's locks tell other processes not to read the file.
struct Writing {
  explicit Writing(const std::filesystem::path& trace)
      : db(trace.string(), Database::Mode::kReadWrite) {
    db.Exec("PRAGMA cache_size = 10; BEGIN IMMEDIATE; CREATE TABLE pending_rows(x); "
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
            "INSERT INTO pending_rows SELECT randomblob(64) FROM n;");
  }
  ~Writing() { db.Exec("ROLLBACK"); }
  Database db;
};

TEST(FileBytes, ReadingTheHeaderKeepsTheLocksOfAWriterInThisProcess) {
  ScratchDir dir;
  const auto trace = SimulateTrace(dir / "t.db", "default");
  const CommandResult before = RunFencescope("stats --json " + Quote(trace));
  ASSERT_EQ(before.exit_code, 0) << before.err;
  {
    Writing writing(trace);
    ASSERT_TRUE(std::filesystem::exists(trace.string() + "-journal"));
    EXPECT_TRUE(core::store::LooksLikeSqlite(trace));
    EXPECT_EQ(importers::SniffFile(trace), importers::FileFormat::kFencescopeTrace);
    const auto head = core::store::ReadFileHead(trace, 100);
    ASSERT_TRUE(head.has_value());
    EXPECT_EQ(std::string(head->begin(), head->begin() + 15), "SQLite format 3");
    EXPECT_EQ(core::store::ReadWholeFile(trace).size(), std::filesystem::file_size(trace));
    // Another process (Python's sqlite3, not waiting) is told the file is locked. With the
    // locks dropped it would find the journal hot and fail to roll it back read-only ("attempt
    // to write a readonly database"), or read the half-written pages.
    const CommandResult probe = RunCommand(
        "python3 -c 'import sqlite3, sys\n"
        "try:\n"
        "  c = sqlite3.connect(\"file:\" + sys.argv[1] + \"?mode=ro\", uri=True, timeout=0)\n"
        "  c.execute(\"SELECT count(*) FROM events\").fetchone()\n"
        "  print(\"read\")\n"
        "except sqlite3.Error as e:\n"
        "  print(e)' " + Quote(trace));
    EXPECT_EQ(probe.out, "database is locked\n") << probe.err;
  }
  // Rolled back: `stats` reads the trace as it was.
  const CommandResult after = RunFencescope("stats --json " + Quote(trace));
  EXPECT_EQ(after.exit_code, 0) << after.err;
  EXPECT_TRUE(after.out == before.out) << "stats differ after the rollback";
}

TEST(FileBytes, HeadOfAShortFileAndOfNoFile) {
  ScratchDir dir;
  {
    std::FILE* f = std::fopen((dir / "short").c_str(), "wb");
    std::fputs("SQLite", f);
    std::fclose(f);
  }
  const auto head = core::store::ReadFileHead(dir / "short", 16);
  ASSERT_TRUE(head.has_value());
  EXPECT_EQ(std::string(head->begin(), head->end()), "SQLite");
  EXPECT_FALSE(core::store::LooksLikeSqlite(dir / "short"));
  EXPECT_FALSE(core::store::ReadFileHead(dir / "absent", 16).has_value());
  EXPECT_TRUE(core::store::ReadWholeFile(dir / "absent").empty());
}

}  // namespace
