// The packed cache inside a trace file (core/cache): what an open reads from the cache is what the
// rows give, and a cache that no longer matches the rows (an event edited with SQL, a damaged
// block, another schema or format version, a different data layout) is never used: the next open
// computes from the rows, and its figures are the rows' figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/cache/cached_trace.h"
#include "core/report/report_json.h"
#include "core/store/sqlite_db.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

using core::cache::AnalysisKind;
using core::cache::CachedTrace;
using core::cache::EventColumnsNeeded;

struct Opened {
  std::string report;  // report JSON
  std::string stats;   // stats JSON of the findings analyses
  std::vector<std::string> notes;
  bool store_from_cache = false;
};

bool HasNote(const Opened& o, const std::string& text) {
  return std::any_of(o.notes.begin(), o.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

// Opens `path` the way `report` and `stats` do: through the cache, writing what it computed.
Opened OpenThroughCache(const std::filesystem::path& path, EventColumnsNeeded columns) {
  CachedTrace trace(path);
  auto store = trace.LoadStore(columns);
  auto full = trace.Analyse(store, AnalysisKind::kFull);
  auto findings = trace.Analyse(store, AnalysisKind::kFindings);
  trace.Flush();
  Opened o;
  o.report = core::report::ReportJson(full).Dump();
  o.stats = core::report::StatsJson(findings).Dump();
  o.notes = trace.notes();
  o.store_from_cache = trace.store_from_cache();
  return o;
}

// The same figures straight from the rows, the cache neither read nor written.
Opened OpenFromRows(const std::filesystem::path& path) {
  setenv("FENCESCOPE_NO_CACHE", "1", 1);
  Opened o = OpenThroughCache(path, EventColumnsNeeded::kAll);
  unsetenv("FENCESCOPE_NO_CACHE");
  EXPECT_FALSE(o.store_from_cache);
  return o;
}

int64_t Sections(const std::filesystem::path& path) {
  return std::stoll(test_support::FirstCell(
      path, "SELECT count(*) FROM sqlite_master WHERE name = 'cache_sections'")) == 0
             ? 0
             : std::stoll(test_support::FirstCell(path, "SELECT count(*) FROM cache_sections"));
}

void Sql(const std::filesystem::path& path, const std::string& sql) {
  core::store::Database db(path.string(), core::store::Database::Mode::kReadWrite);
  db.Exec(sql);
}

class TraceCache : public ::testing::Test {
 protected:
  void SetUp() override {
    path = test_support::SimulateTrace(dir / "t.db", "default --duration-ms 60 --seed 5");
    rows = OpenFromRows(path);
    ASSERT_EQ(Sections(path), 0) << "an open with FENCESCOPE_NO_CACHE wrote a cache";
  }
  // First open writes the cache; the second reads every section from it.
  void OpenTwice() {
    Opened first = OpenThroughCache(path, EventColumnsNeeded::kAll);
    EXPECT_FALSE(first.store_from_cache);
    EXPECT_EQ(first.report, rows.report);
    EXPECT_EQ(Sections(path), 5) << ::testing::PrintToString(first.notes);  // store, events, recon, analysis:full, analysis:findings
  }
  test_support::ScratchDir dir;
  std::filesystem::path path;
  Opened rows;
};

TEST_F(TraceCache, SecondOpenReadsEverySectionAndGivesTheRowsFigures) {
  OpenTwice();
  Opened second = OpenThroughCache(path, EventColumnsNeeded::kAll);
  EXPECT_TRUE(second.store_from_cache);
  for (const char* section : {"store", "events", "recon", "analysis:full", "analysis:findings"}) {
    EXPECT_TRUE(HasNote(second, std::string(section) + ": read from the cache")) << section;
  }
  EXPECT_FALSE(HasNote(second, "written to the cache"));
  EXPECT_EQ(second.report, rows.report);
  EXPECT_EQ(second.stats, rows.stats);
}

TEST_F(TraceCache, KeptColumnsAreEnoughForCachedAnalyses) {
  OpenTwice();
  Opened kept = OpenThroughCache(path, EventColumnsNeeded::kKept);
  EXPECT_FALSE(HasNote(kept, "events: read"));
  EXPECT_EQ(kept.report, rows.report);
}

TEST_F(TraceCache, AnEventEditedWithSqlEmptiesTheCacheAndTheNextOpenUsesTheRows) {
  OpenTwice();
  // A user's own UPDATE through any SQLite client: the cache's triggers drop its sections.
  Sql(path,
      "UPDATE events SET ts_ns = ts_ns + 1000 WHERE rowid = (SELECT max(rowid) FROM events)");
  EXPECT_EQ(Sections(path), 0);
  const Opened edited_rows = OpenFromRows(path);
  Opened reopened = OpenThroughCache(path, EventColumnsNeeded::kAll);
  EXPECT_FALSE(reopened.store_from_cache);
  EXPECT_EQ(reopened.report, edited_rows.report);
  EXPECT_EQ(Sections(path), 5);  // written again
}

TEST_F(TraceCache, ARowAddedWithoutTheTriggersIsStillSeen) {
  OpenTwice();
  // Someone dropped the triggers: the events table's row count still tells.
  const std::string triggers = test_support::RowsText(
      path, "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'cache%'");
  ASSERT_FALSE(triggers.empty());
  for (const auto& name : test_support::Lines(triggers)) Sql(path, "DROP TRIGGER \"" + name + "\"");
  Sql(path, "INSERT INTO events SELECT * FROM events WHERE rowid = (SELECT max(rowid) FROM events)");
  Opened reopened = OpenThroughCache(path, EventColumnsNeeded::kAll);
  EXPECT_FALSE(reopened.store_from_cache);
  EXPECT_TRUE(HasNote(reopened, "event rows")) << ::testing::PrintToString(reopened.notes);
  EXPECT_EQ(reopened.report, OpenFromRows(path).report);
}

TEST_F(TraceCache, ATruncatedBlockIsDetectedAndRebuilt) {
  OpenTwice();
  Sql(path,
      "UPDATE cache_blocks SET data = substr(data, 1, length(data) / 2) "
      "WHERE section = 'analysis:full' AND seq = 0");
  Opened reopened = OpenThroughCache(path, EventColumnsNeeded::kAll);
  EXPECT_TRUE(HasNote(reopened, "analysis:full: a block does not decompress"));
  EXPECT_TRUE(HasNote(reopened, "analysis:full: written to the cache"));
  EXPECT_EQ(reopened.report, rows.report);
  Opened again = OpenThroughCache(path, EventColumnsNeeded::kAll);
  EXPECT_TRUE(HasNote(again, "analysis:full: read from the cache"));
}

TEST_F(TraceCache, AFlippedByteIsDetectedByTheChecksum) {
  OpenTwice();
  // Same length, one byte changed in the middle of the compressed block.
  Sql(path,
      "UPDATE cache_blocks SET data = substr(data, 1, length(data) / 2) || "
      "x'5a' || substr(data, length(data) / 2 + 2) WHERE section = 'recon' AND seq = 0");
  // A reader that loaded only the kept columns because the analyses were cached is told, and
  // reloads every column (what `report` does).
  EXPECT_THROW(OpenThroughCache(path, EventColumnsNeeded::kKept), core::cache::CacheDamaged);
  Opened reopened = OpenThroughCache(path, EventColumnsNeeded::kAll);
  EXPECT_TRUE(HasNote(reopened, "recon: a block does not decompress"))
      << ::testing::PrintToString(reopened.notes);
  EXPECT_EQ(reopened.report, rows.report);
}

TEST_F(TraceCache, AnotherSchemaVersionFormatOrLayoutIsNotUsed) {
  struct Case {
    const char* change;
    const char* note;
  };
  for (const Case& c : {
           Case{"UPDATE cache_sections SET schema_version = schema_version + 1 WHERE name = "
                "'store'",
                "store: written for schema version"},
           Case{"UPDATE cache_sections SET format = format + 1 WHERE name = 'recon'",
                "recon: written in cache format"},
           Case{"UPDATE cache_sections SET layout = layout + 1 WHERE name = 'analysis:full'",
                "analysis:full: written with data layout"},
       }) {
    OpenThroughCache(path, EventColumnsNeeded::kAll);  // a whole valid cache
    Sql(path, c.change);
    Opened reopened = OpenThroughCache(path, EventColumnsNeeded::kAll);
    EXPECT_TRUE(HasNote(reopened, c.note)) << c.change << "\n"
                                           << ::testing::PrintToString(reopened.notes);
    EXPECT_EQ(reopened.report, rows.report) << c.change;
  }
}

TEST_F(TraceCache, DroppedCacheTablesOnlyMakeTheOpenSlower) {
  OpenTwice();
  core::cache::DropCache(path);
  EXPECT_EQ(Sections(path), 0);
  EXPECT_EQ(test_support::FirstCell(
                path, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'cache%'"),
            "0");
  Opened reopened = OpenThroughCache(path, EventColumnsNeeded::kAll);
  EXPECT_EQ(reopened.report, rows.report);
}

TEST_F(TraceCache, ATraceLockedByAnotherWriterOpensWithoutWritingTheCache) {
  // Another program is reading the file in a transaction that outlasts the write's wait: the
  // cache is optional, the open goes on without it.
  core::store::Database other(path.string(), core::store::Database::Mode::kReadOnly);
  other.Exec("BEGIN");
  other.QueryInt("SELECT count(*) FROM meta");
  Opened o = OpenThroughCache(path, EventColumnsNeeded::kAll);
  other.Exec("COMMIT");
  EXPECT_TRUE(HasNote(o, "not written")) << ::testing::PrintToString(o.notes);
  EXPECT_EQ(o.report, rows.report);
  EXPECT_EQ(Sections(path), 0);
}

}  // namespace

// A store section whose event columns disagree in length (only damage makes one) is not used:
// each column of another length, and the columns that may be empty, checked on a hand-made store.
TEST(TraceCacheSections, EventColumnsOfDifferentLengthsAreNotUsed) {
  core::store::TraceStore s;
  s.events.ts.Assign({10, 20, 30});
  s.events.kind.Assign({core::model::EventKind(1), core::model::EventKind(2),
                        core::model::EventKind(3)});
  EXPECT_TRUE(core::cache::EventColumnsAgree(s));  // rowid and events_by_rowid empty
  s.events.rowid.Assign({5, 9});
  EXPECT_FALSE(core::cache::EventColumnsAgree(s));
  s.events.rowid.Assign({5, 9, 40000000000});
  EXPECT_TRUE(core::cache::EventColumnsAgree(s));
  s.events_by_rowid.Assign({0, 1});
  EXPECT_FALSE(core::cache::EventColumnsAgree(s));
  s.events_by_rowid.Assign({0, 1, 2});
  EXPECT_TRUE(core::cache::EventColumnsAgree(s));
  EXPECT_EQ(s.IndexOfRowId(40000000000), 2u);
  EXPECT_EQ(s.IndexOfRowId(9), 1u);
  EXPECT_EQ(s.IndexOfRowId(6), SIZE_MAX);
  s.events_by_rowid.Assign({0, 7, 2});  // an index past the events: found as nothing
  EXPECT_EQ(s.IndexOfRowId(9), SIZE_MAX);
  s.events.kind.Assign({core::model::EventKind(1)});
  EXPECT_FALSE(core::cache::EventColumnsAgree(s));
}
