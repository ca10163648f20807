// A trace database damaged after it was written (bytes overwritten in a page of the events
// table): every command that reads it names the file and the damaged table and page, with the
// same exit code; `info --check` prints PRAGMA integrity_check's findings.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <vector>

#include "core/store/sqlite_db.h"
#include "tests/support/test_support.h"

using test_support::Quote;
using test_support::RunFencescope;
using test_support::ScratchDir;

namespace {

struct EventsPages {
  int64_t page_size = 0;
  int64_t leaf = 0;  // a leaf page of the events table other than the root
};

EventsPages FindEventsPages(const std::filesystem::path& db_path) {
  EventsPages pages;
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);
  pages.page_size = db.QueryInt("PRAGMA page_size");
  pages.leaf = db.QueryInt(
      "SELECT pageno FROM dbstat WHERE name = 'events' AND pagetype = 'leaf' "
      "ORDER BY pageno LIMIT 1 OFFSET 1");
  return pages;
}

// Overwrites `count` bytes at `offset` of page `page` (1-based) with `value`.
void Overwrite(const std::filesystem::path& path, int64_t page_size, int64_t page, int64_t offset,
               int count, char value) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp((page - 1) * page_size + offset);
  std::vector<char> bytes(static_cast<size_t>(count), value);
  f.write(bytes.data(), count);
}

std::filesystem::path Simulate(const ScratchDir& dir) {
  return test_support::SimulateTrace(dir / "trace.db", "cross_adapter_native");
}

// Every reading command: the same exit code and a message naming the file, table and page.
void ExpectEveryCommandNames(const std::filesystem::path& trace, const std::string& table_and_page) {
  const std::vector<std::string> commands = {
      "info " + Quote(trace),
      "stats " + Quote(trace) + " --json",
      "query " + Quote(trace) + " 'SELECT sum(ts_ns), sum(observed_ns) FROM fence_wait_unblocked'",
      "report " + Quote(trace) + " --format json",
      "export " + Quote(trace) + " -o " + Quote(trace.parent_path() / "out.json"),
  };
  for (const auto& command : commands) {
    auto r = RunFencescope(command);
    EXPECT_EQ(r.exit_code, core::store::kDamagedExitCode) << command << "\n" << r.err;
    EXPECT_NE(r.err.find(trace.string() + ": damaged database"), std::string::npos)
        << command << "\n" << r.err;
    EXPECT_NE(r.err.find(table_and_page), std::string::npos) << command << "\n" << r.err;
  }
}

}  // namespace

TEST(DamagedTrace, PageHeaderOverwrittenNamesTableAndPageInEveryCommand) {
  ScratchDir dir;
  auto trace = Simulate(dir);
  EventsPages pages = FindEventsPages(trace);
  ASSERT_GT(pages.leaf, 1);
  Overwrite(trace, pages.page_size, pages.leaf, 0, 64, '\xff');
  ExpectEveryCommandNames(trace, "table events: Page " + std::to_string(pages.leaf));
}

TEST(DamagedTrace, CellContentOverwrittenNamesTableAndPageInEveryCommand) {
  ScratchDir dir;
  auto trace = Simulate(dir);
  EventsPages pages = FindEventsPages(trace);
  ASSERT_GT(pages.leaf, 1);
  Overwrite(trace, pages.page_size, pages.leaf, pages.page_size - 300, 200, '\x7f');
  ExpectEveryCommandNames(trace, "table events: On tree page " + std::to_string(pages.leaf));
}

TEST(DamagedTrace, InfoCheckPrintsIntegrityCheck) {
  ScratchDir dir;
  auto trace = Simulate(dir);
  auto good = RunFencescope("info --check " + Quote(trace));
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_NE(good.out.find("\nintegrity_check\nok\n"), std::string::npos) << good.out;

  EventsPages pages = FindEventsPages(trace);
  Overwrite(trace, pages.page_size, pages.leaf, pages.page_size - 300, 200, '\x7f');
  auto bad = RunFencescope("info --check " + Quote(trace));
  EXPECT_EQ(bad.exit_code, core::store::kDamagedExitCode) << bad.err;
  EXPECT_NE(bad.out.find("\nintegrity_check\n"), std::string::npos) << bad.out;
  EXPECT_EQ(bad.out.find("\nintegrity_check\nok"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("table events: On tree page " + std::to_string(pages.leaf)),
            std::string::npos)
      << bad.out;
}

TEST(DamagedTrace, DamagedHeaderPastTheMagicIsReportedAsDamage) {
  ScratchDir dir;
  auto trace = Simulate(dir);
  // The page size field (offset 16) set to an invalid value: SQLITE_NOTADB past a valid magic.
  Overwrite(trace, 1, 17, 0, 2, '\x03');
  auto info = RunFencescope("info " + Quote(trace));
  auto stats = RunFencescope("stats " + Quote(trace) + " --json");
  EXPECT_EQ(info.exit_code, core::store::kDamagedExitCode) << info.err;
  EXPECT_EQ(stats.exit_code, info.exit_code) << stats.err;
  EXPECT_NE(info.err.find(trace.string() + ": damaged database"), std::string::npos) << info.err;
  EXPECT_NE(info.err.find("file header"), std::string::npos) << info.err;
  EXPECT_EQ(info.err, stats.err);
}
