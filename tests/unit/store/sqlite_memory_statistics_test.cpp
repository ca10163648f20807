// SQLite is told before its first connection to keep no memory statistics (sqlite_db.cpp: no
// global mutex around each of its allocations). SQLite's own counter says whether it took: with
// statistics on, opening a database and writing rows raises sqlite3_memory_used above zero.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include "core/store/sqlite_db.h"
#include "tests/support/test_support.h"

TEST(SqliteMemoryStatistics, AreOffBeforeTheFirstConnectionSoSqliteCountsNothing) {
  EXPECT_TRUE(core::store::kSqliteCountsNoMemory);
  test_support::ScratchDir dir;
  core::store::Database db((dir / "rows.db").string(), core::store::Database::Mode::kCreate);
  db.Exec("CREATE TABLE t (a INTEGER, b TEXT)");
  db.Exec("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000) "
          "INSERT INTO t SELECT i, printf('row %d', i) FROM n");
  EXPECT_EQ(db.QueryInt("SELECT count(*) FROM t"), 10000);
  EXPECT_EQ(sqlite3_memory_used(), 0);
  EXPECT_EQ(sqlite3_memory_highwater(0), 0);
}
