// Systrace files of ../shared/traces/external (catapult's legacy HTML page and escaped text,
// perfetto's systrace text): every figure is counted by systrace_counts.py (next to this file)
// over the raw file, with nothing of fencescope, and compared with the imported trace.
#include <gtest/gtest.h>

#include <map>

#include "core/store/query.h"
#include "tests/support/test_support.h"

using test_support::Quote;
using test_support::RunFencescope;
using test_support::ScratchDir;

namespace {

namespace fs = std::filesystem;

std::map<std::string, int64_t> ScriptCounts(const fs::path& file) {
  return test_support::ScriptFigures(
      test_support::SourceDir() / "tests/importers/external/ftrace/systrace_counts.py", file);
}

// "prefix<key>" -> count for every script key starting with `prefix` and a nonzero count.
std::map<std::string, int64_t> Figures(const std::map<std::string, int64_t>& all,
                                       const std::string& prefix) {
  std::map<std::string, int64_t> out;
  for (const auto& [key, count] : all) {
    if (key.rfind(prefix, 0) == 0 && count) out[key] = count;
  }
  return out;
}

std::map<std::string, int64_t> Counts(const fs::path& db, const std::string& sql) {
  std::map<std::string, int64_t> out;
  for (const auto& row : core::store::RunQuery(db, sql).rows) {
    if (std::stoll(row[1])) out[row[0]] = std::stoll(row[1]);
  }
  return out;
}

int64_t Problem(const fs::path& db, const std::string& name) {
  auto rows =
      core::store::RunQuery(db, "SELECT count FROM import_problems WHERE name = '" + name + "'")
          .rows;
  return rows.empty() ? 0 : std::stoll(rows[0][0]);
}

void ExpectScriptFigures(const std::string& relative) {
  SCOPED_TRACE(relative);
  const fs::path file = test_support::SharedDir() / "traces/external" / relative;
  const auto all = ScriptCounts(file);
  ASSERT_FALSE(Figures(all, "events ").empty()) << "systrace_counts.py found no event";
  ScratchDir dir;
  const fs::path db = dir / "t.db";
  auto r = RunFencescope("import " + Quote(file) + " -o " + Quote(db));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Counts(db, "SELECT 'events ' || substr(name, 14), count FROM import_problems "
                       "WHERE name LIKE 'ftrace_event %'"),
            Figures(all, "events "));
  EXPECT_EQ(Problem(db, "ftrace_bad_line"), all.count("bad_lines") ? all.at("bad_lines") : 0);
  EXPECT_EQ(Counts(db, "SELECT 'slices ' || t.tid || ' ' || n.value, count(*) FROM cpu_slice c "
                       "JOIN threads t ON t.id = c.thread_id JOIN strings n ON "
                       "n.id = c.name_sid JOIN strings k ON k.id = c.category_sid "
                       "WHERE k.value = 'atrace' GROUP BY 1"),
            Figures(all, "slices "));
  EXPECT_EQ(Counts(db, "SELECT 'counter ' || p.pid || ' ' || n.value, count(*) FROM "
                       "counter_samples x JOIN counter_series c ON c.id = x.series_id "
                       "JOIN processes p ON p.id = c.process_id JOIN strings n ON "
                       "n.id = c.name_sid GROUP BY 1"),
            Figures(all, "counter "));
  EXPECT_EQ(Counts(db, "SELECT 'async ' || n.value, count(*) FROM async_slice a JOIN strings n "
                       "ON n.id = a.name_sid GROUP BY 1"),
            Figures(all, "async "));
  EXPECT_EQ(Counts(db, "SELECT 'text_markers', count(*) FROM marker WHERE marker_type = 0"),
            Figures(all, "text_markers"));
  EXPECT_EQ(Problem(db, "ftrace_atrace_open_at_end"), all.at("open_slices"));
  EXPECT_EQ(Problem(db, "ftrace_atrace_end_without_begin"),
            all.count("end_without_begin") ? all.at("end_without_begin") : 0);
}

}  // namespace

// The ftrace text is a JavaScript string (`var linuxPerfData = "\`) in the page; its four
// events are atrace counters written as `0: C|124|VSYNC|1`.
TEST(SystraceSample, LegacyHtmlPageCounters) {
  ExpectScriptFigures("catapult/trivial_systrace.html");
  ScratchDir dir;
  auto r = RunFencescope("import " +
                         Quote(test_support::SharedDir() /
                               "traces/external/catapult/trivial_systrace.html") +
                         " -o " + Quote(dir / "t.db"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto rows = core::store::RunQuery(dir / "t.db", "SELECT value FROM meta WHERE key = 'source'");
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0][0], "systrace-html");
}

// Every line still ends in the string's `\n\` escape.
TEST(SystraceSample, TextCutOutOfAPageKeepsItsEscapes) {
  ExpectScriptFigures("catapult/android_systrace.txt");
}

TEST(SystraceSample, AtraceBeginEndAfterContinuationLines) {
  ExpectScriptFigures("perfetto/bad_print.systrace");
}

TEST(SystraceSample, TgidColumnAndFlags) {
  ExpectScriptFigures("perfetto/sched_blocked_systrace.systrace");
  ExpectScriptFigures("perfetto/unknown_thread_name.systrace");
  ExpectScriptFigures("perfetto/cpu_frequency_limits.systrace");
}
