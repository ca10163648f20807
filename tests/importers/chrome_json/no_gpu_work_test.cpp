// A Kineto capture taken with CUPTI's range profiler has per-kernel counter ranges
// (cuda_profiler_range) and no GPU timeline: the import says so in import_problems, and the
// report says there is no GPU work instead of printing empty queue tables.
#include <gtest/gtest.h>

#include "core/report/report_html.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown.h"
#include "tests/importers/chrome_json/import_fixture.h"

namespace {

// Two CPU ops on thread 10 and three profiler ranges on the device's pid 0: counts by hand.
constexpr const char* kRangeProfilerTrace = R"({"traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 7, "tid": 10, "ts": 100, "dur": 20},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 7, "tid": 10, "ts": 130, "dur": 20},
  {"ph": "X", "cat": "cuda_profiler_range", "name": "k1", "pid": 0, "tid": 0, "ts": 200, "dur": 50},
  {"ph": "X", "cat": "cuda_profiler_range", "name": "k2", "pid": 0, "tid": 0, "ts": 250, "dur": 50},
  {"ph": "X", "cat": "cuda_profiler_range", "name": "k3", "pid": 0, "tid": 0, "ts": 300, "dur": 50}
]})";

}  // namespace

using ChromeJsonNoGpuWork = ChromeJsonImport;

TEST_F(ChromeJsonNoGpuWork, RangeProfilerCaptureIsCountedAndTheReportSaysSo) {
  const auto db = Import(kRangeProfilerTrace);
  EXPECT_EQ(Problem(db, "kineto_cupti_range_profiler"), "3");
  EXPECT_EQ(One(db, "SELECT count(*) FROM packet_submitted"), "0");

  auto store = core::store::LoadTrace(db);
  const core::report::ReportData d = core::report::AnalyseTrace(store, true);
  const core::report::Json j = core::report::ReportJson(d);
  const core::report::Json* problems = j.Find("import_problems");
  ASSERT_NE(problems, nullptr);
  bool found = false;
  for (const core::report::Json& p : problems->items()) {
    if (p.Find("name")->String() != "kineto_cupti_range_profiler") continue;
    found = true;
    EXPECT_EQ(p.Find("count")->Int(), 3);
    EXPECT_EQ(p.Find("severity")->String(), "info");
  }
  EXPECT_TRUE(found);

  const std::string md = core::report::ReportMarkdown(d);
  EXPECT_NE(md.find("No GPU work in this trace"), std::string::npos) << md;
  EXPECT_EQ(md.find("## Queues"), std::string::npos) << md;
  EXPECT_EQ(md.find("## Critical path"), std::string::npos) << md;
  EXPECT_NE(md.find("| kineto_cupti_range_profiler | info | 3 |"), std::string::npos) << md;
  const std::string html = core::report::ReportHtml(d);
  EXPECT_NE(html.find("No GPU work in this trace"), std::string::npos);
  EXPECT_EQ(html.find("id=\"queues\""), std::string::npos);
  EXPECT_NE(html.find("<td>kineto_cupti_range_profiler</td><td>info</td><td>3</td>"),
            std::string::npos);
}
