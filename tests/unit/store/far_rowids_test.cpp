// Rowids a trace fencescope writes never have: one event moved to rowid 40,000,000,000 and one
// to -7 by SQL (an edited or damaged trace). The load keeps memory near the rows' own (a table
// as long as the largest rowid would take 160 GB; found by fuzz_trace_db as an out-of-memory
// abort), reads the event below 1 too, finds each event by its rowid, and every figure of
// `stats` is what it is for the trace before the edit.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "core/store/trace_store.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

using test_support::Quote;
using test_support::RunFencescope;

void Sql(const std::filesystem::path& db, const std::string& sql) {
  EXPECT_EQ(test_support::ExecSql(db, sql), "") << sql;
}

int64_t Int(const std::filesystem::path& db, const std::string& sql) {
  return std::stoll(test_support::FirstCell(db, sql));
}

}  // namespace

TEST(FarRowIds, AreLoadedFoundAndCountedAsBefore) {
  test_support::ScratchDir dir;
  const auto before = test_support::SimulateTrace(dir / "before.db", "default --duration-ms 20");
  const auto after = dir / "after.db";
  std::filesystem::copy_file(before, after);
  // Two events nothing refers to (no flow, argument or interrupt link names their rowid).
  const std::string free_events =
      "SELECT rowid FROM events WHERE rowid NOT IN (SELECT from_event FROM flows UNION "
      "SELECT to_event FROM flows UNION SELECT event_rowid FROM event_args UNION "
      "SELECT arg0 FROM events WHERE kind = 18) ORDER BY rowid DESC";
  const int64_t high = Int(after, free_events + " LIMIT 1");
  const int64_t low = Int(after, free_events + " LIMIT 1 OFFSET 1");
  const int64_t high_ts = Int(after, "SELECT ts_ns FROM events WHERE rowid = " + std::to_string(high));
  const int64_t low_ts = Int(after, "SELECT ts_ns FROM events WHERE rowid = " + std::to_string(low));
  const int64_t rows = Int(after, "SELECT count(*) FROM events");
  Sql(after, "UPDATE events SET rowid = 40000000000 WHERE rowid = " + std::to_string(high) +
                 "; UPDATE events SET rowid = -7 WHERE rowid = " + std::to_string(low));

  const core::store::TraceStore store = core::store::LoadTrace(after);
  ASSERT_EQ(store.events.size(), static_cast<size_t>(rows));  // the one at -7 included
  EXPECT_TRUE(store.index_of_rowid.empty());
  EXPECT_EQ(store.events_by_rowid.size(), static_cast<size_t>(rows));
  const size_t at_high = store.IndexOfRowId(40000000000);
  const size_t at_low = store.IndexOfRowId(-7);
  ASSERT_NE(at_high, SIZE_MAX);
  ASSERT_NE(at_low, SIZE_MAX);
  EXPECT_EQ(store.events.ts[at_high], high_ts);
  EXPECT_EQ(store.events.ts[at_low], low_ts);
  EXPECT_EQ(store.IndexOfRowId(high), SIZE_MAX);  // moved away
  EXPECT_EQ(store.IndexOfRowId(20000000000), SIZE_MAX);
  // Every other event where its rowid says.
  const int64_t other = Int(after, "SELECT min(rowid) FROM events WHERE rowid > 0");
  const size_t at_other = store.IndexOfRowId(other);
  ASSERT_NE(at_other, SIZE_MAX);
  EXPECT_EQ(store.events.RowIdOf(at_other), other);

  const auto stats_before = RunFencescope("stats --json " + Quote(before));
  const auto stats_after = RunFencescope("stats --json " + Quote(after));
  ASSERT_EQ(stats_before.exit_code, 0) << stats_before.err;
  ASSERT_EQ(stats_after.exit_code, 0) << stats_after.err;
  EXPECT_EQ(stats_after.out, stats_before.out);
}

// String ids a trace fencescope writes never have either (it numbers them 1, 2, 3...). The
// strings table is indexed by id, so one string at id 2^40 (found by fuzz_trace_db as an
// allocation abort; tests/fuzz/regressions/trace_db/string_id_2_to_the_40.sqlite), at the
// first id past twice the rows and a million (3 GB and 18 s for one at 5e7) or below 0 (a bare
// "vector::_M_default_append") is refused, naming the file, the table and the row; one at the
// limit itself loads, and every `stats` figure is what it was.
TEST(FarStringIds, AreRefusedNamingTheTableAndTheRow) {
  test_support::ScratchDir dir;
  const auto before = test_support::SimulateTrace(dir / "before.db", "default --duration-ms 5");
  // The rows once the far string is in; the limit the loader keeps (its comment): twice the
  // rows and 2^20.
  const int64_t rows = Int(before, "SELECT count(*) FROM strings") + 1;
  const int64_t limit = 2 * rows + (int64_t{1} << 20);
  for (const int64_t id : {int64_t{1} << 40, limit + 1, int64_t{-5}}) {
    const auto edited = dir / ("id_" + std::to_string(id) + ".db");
    std::filesystem::copy_file(before, edited);
    Sql(edited, "INSERT INTO strings (id, value) VALUES (" + std::to_string(id) + ", 'far')");
    try {
      (void)core::store::LoadTrace(edited);
      ADD_FAILURE() << "string id " << id << " loaded";
    } catch (const std::exception& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(edited.string()), std::string::npos) << message;
      EXPECT_NE(message.find("strings table, row id " + std::to_string(id) + ":"),
                std::string::npos)
          << message;
    }
    const auto stats = RunFencescope("stats " + Quote(edited));
    EXPECT_NE(stats.exit_code, 0);
    EXPECT_NE(stats.err.find("strings table, row id " + std::to_string(id)), std::string::npos)
        << stats.err;
  }
  const auto at_limit = dir / "at_limit.db";
  std::filesystem::copy_file(before, at_limit);
  Sql(at_limit, "INSERT INTO strings (id, value) VALUES (" + std::to_string(limit) + ", 'far')");
  const core::store::TraceStore store = core::store::LoadTrace(at_limit);
  ASSERT_EQ(store.strings.size(), static_cast<size_t>(limit + 1));
  EXPECT_EQ(store.strings[limit], "far");
  const auto stats_before = RunFencescope("stats --json " + Quote(before));
  const auto stats_after = RunFencescope("stats --json " + Quote(at_limit));
  ASSERT_EQ(stats_after.exit_code, 0) << stats_after.err;
  EXPECT_EQ(stats_after.out, stats_before.out);
}
