// A Kineto trace with 6,000 CUDA events (tests/cli/make_many_event_trace.py), imported and
// reported through the binary: the HTML and Markdown reports stay under 300 table rows and
// 300 KB (before their tables were bounded a capture like it gave 6,183 rows and 1.5 MB), the
// per-fence latency table's line for the rest counts and adds up what SQL over the trace finds,
// and the JSON keeps every fence.
#include <gtest/gtest.h>

#include "core/report/fail_if.h"
#include "core/report/svg_chart.h"
#include "tests/support/json_text.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

using test_support::Occurrences;
using test_support::Quote;
using test_support::ReadFile;
using test_support::RunCommand;
using test_support::RunFencescope;
using test_support::ScratchDir;

TEST(ManyEventsReport, KinetoTraceWithSixThousandEventsStaysReadable) {
  ScratchDir dir;
  const auto script = test_support::SourceDir() / "tests/cli/make_many_event_trace.py";
  auto made =
      RunCommand("python3 " + Quote(script) + " " + Quote(dir / "many.json") + " --steps 6000");
  ASSERT_EQ(made.exit_code, 0) << made.err;
  const auto db = dir / "many.db";
  auto imported = RunFencescope("import " + Quote(dir / "many.json") + " -o " + Quote(db));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  // One fence per event, each waited on once, every wait released.
  ASSERT_EQ(test_support::RowsText(db,
                                   "SELECT count(DISTINCT q.fence_id), count(*) FROM "
                                   "fence_wait_queued q JOIN fence_wait_unblocked u USING "
                                   "(wait_id)"),
            "6000|6000\n");
  for (const char* name : {"r.html", "r.md", "r.json"}) {
    auto r = RunFencescope("report " + Quote(db) + " -o " + Quote(dir / name));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  const std::string html = ReadFile(dir / "r.html");
  const std::string md = ReadFile(dir / "r.md");
  EXPECT_LE(Occurrences(html, "<tr"), 300u);
  EXPECT_LE(html.size(), 300'000u);
  EXPECT_LE(Occurrences(md, "\n| ") - Occurrences(md, "\n| --- "), 300u);
  EXPECT_LE(md.size(), 300'000u);
  // The per-fence table shows the 20 fences whose waits took longest (queued -> unblocked); the
  // line for the others counts them and adds their time up as SQL does.
  const std::string rest = test_support::RowsText(
      db,
      "SELECT count(*), sum(t) FROM (SELECT u.ts_ns - q.ts_ns AS t FROM fence_wait_queued q "
      "JOIN fence_wait_unblocked u USING (wait_id) ORDER BY t DESC LIMIT -1 OFFSET 20)");
  const size_t bar = rest.find('|');
  ASSERT_EQ(rest.substr(0, bar), "5980");
  const double rest_ns = std::stod(rest.substr(bar + 1));
  const std::string line =
      "and 5,980 more fences, " + core::report::FormatDuration(rest_ns) + " waited in all.";
  EXPECT_NE(html.find("<p class=\"more\">" + line + "</p>"), std::string::npos);
  EXPECT_NE(md.find("_" + line + "_"), std::string::npos);
  const core::report::Json json = test_support::ParseJsonText(ReadFile(dir / "r.json"));
  EXPECT_EQ(core::report::FindPath(json, "latency.per_fence")->size(), 6000u);
}
