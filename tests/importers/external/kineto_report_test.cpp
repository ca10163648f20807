// A real PyTorch/Kineto capture (HTA's AlexNet benchmark trace) through import and report: the
// packet statistics of its CUDA kernels and memcpys agree with SQL over the imported records
// (tests/support/packet_stats_sql.h), critical-path steps name their kernels, and the HTML and
// Markdown reports leave out the sections a CUDA trace has no records for (interrupts, log
// buffers, PGO, preemption).
#include <gtest/gtest.h>

#include "core/report/report_html.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown.h"
#include "importers/import_file.h"
#include "tests/support/packet_stats_sql.h"
#include "tests/support/test_support.h"

using namespace core::report;

TEST(KinetoReport, PacketStatsNamedPathAndOnlyTheSectionsThatApply) {
  test_support::ScratchDir dir;
  const auto file = test_support::SharedDir() /
                    "traces/external/hta/critical_path/alexnet/"
                    "benchmark_result_2869224_1695835535_trace.json.gz";
  const auto db = dir / "alexnet.db";
  importers::ImportFile(file, db);
  auto store = core::store::LoadTrace(db);
  ReportData d = AnalyseTrace(store, true);
  Json j = ReportJson(d);

  auto expected = test_support::PacketStatsFromSql(db);
  ASSERT_FALSE(expected.empty());
  test_support::ExpectPacketStatsEqual(*j.Find("packet_stats"), expected);

  size_t named_runs = 0;
  for (const Json& step : j.Find("critical_path")->Find("steps")->items()) {
    if (step.Find("kind")->String() == "run" && !step.Find("name")->String().empty()) ++named_runs;
  }
  EXPECT_GT(named_runs, 0u);

  EXPECT_EQ(j.Find("sections_present")->size(), 0u);
  const std::string html = ReportHtml(d);
  for (const char* gone : {"id=\"interrupts\"", "id=\"pgo\"", "id=\"preemption\"",
                           "<td>log overruns</td>", "<td>interrupts (spurious)</td>"}) {
    EXPECT_EQ(html.find(gone), std::string::npos) << gone;
  }
  EXPECT_NE(html.find("id=\"packets\""), std::string::npos);
  const std::string md = ReportMarkdown(d);
  EXPECT_EQ(md.find("## PGO convergence"), std::string::npos);
  EXPECT_EQ(md.find("## Preemption"), std::string::npos);
}
