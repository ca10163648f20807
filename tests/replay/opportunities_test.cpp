// The report's opportunities: each a replay with one change. Checked by hand on a tiny CUDA
// trace (a busy kernel off the critical path saves nothing, one on it saves what it loses), and
// against `fencescope whatif` run with each opportunity's own options on a simulated trace.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

#include "core/report/report_data.h"
#include "core/report/report_opportunities.h"
#include "importers/import_file.h"
#include "tests/support/json_text.h"
#include "tests/support/kineto_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using namespace kineto_text;
using test_support::Quote;
using test_support::RunFencescope;

const core::replay::Opportunity* Find(const core::replay::Opportunities& o, const std::string& kind,
                                      const std::string& name) {
  for (const auto& p : o.list) {
    if (p.kind == kind && p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace

TEST(Opportunities, ABusyKernelOffTheCriticalPathSavesNothingOneOnItSavesWhatItLoses) {
  // Stream 7: K1 10..110, then K2 111..161 (it waited for K1); stream 13: K3 12..142 beside
  // them, busier than K1 but waited for by nothing. The critical path runs K1 then K2.
  test_support::ScratchDir dir;
  const fs::path json = dir / "t.json", db = dir / "t.db";
  std::ofstream(json) << Trace(Call(1, "cudaLaunchKernel", 0, 1) + Kernel(1, "K1", 7, 10, 100) +
                               Call(2, "cudaLaunchKernel", 2, 1) + Kernel(2, "K3", 13, 12, 130) +
                               Call(3, "cudaLaunchKernel", 4, 1) + Kernel(3, "K2", 7, 111, 50));
  importers::ImportFile(json, db);
  const core::store::TraceStore store = core::store::LoadTrace(db);
  core::report::ReportData d = core::report::AnalyseTrace(store, /*full=*/true);
  core::report::ComputeOpportunities(d);
  ASSERT_TRUE(d.opportunities.computed);
  // K3 twice as fast ends at 77: the span (to K2's end, 161) does not move.
  const auto* k3 = Find(d.opportunities, "faster_packets", "K3");
  ASSERT_NE(k3, nullptr) << "the busiest kernel is tried though it is off the critical path";
  EXPECT_EQ(k3->why_ns, 0);
  EXPECT_EQ(k3->busy_ns, 130'000);
  EXPECT_EQ(k3->predicted_span_ns, 161'000);
  EXPECT_EQ(k3->gain_pct, 0.0);
  // K1 twice as fast: K1 10..60, K2 61..111; K3 (to 142) now ends last: 19 of 161 saved, no
  // more, because the other path takes over.
  const auto* k1 = Find(d.opportunities, "faster_packets", "K1");
  ASSERT_NE(k1, nullptr);
  EXPECT_EQ(k1->predicted_span_ns, 142'000);
  EXPECT_NEAR(k1->gain_pct, 19.0 / 161.0 * 100, 1e-9);
  // Largest gain first.
  EXPECT_EQ(d.opportunities.list.front().name, "K1");
  // The host's time between its calls (0 -> 2 -> 4) is tried twice as fast.
  EXPECT_NE(Find(d.opportunities, "faster_host", "host"), nullptr);
  // The trace has no steps: the report's "mean step saved" says "-", not 0.0%.
  EXPECT_EQ(d.opportunities.fidelity.steps_compared, 0);
  const std::string md = core::report::OpportunitiesMarkdown(d);
  const std::string k1_row = "| twice as fast: K1 | 142 us | 11.8% | - |";
  EXPECT_NE(md.find(k1_row), std::string::npos) << md;
}

TEST(Opportunities, ATraceOfGpuWorkAloneHasNoHostToSpeedUp) {
  // Kernels with no launch call in the trace (a kernel-only capture): a stand-in launches each
  // when it started, and no thread of the trace spends CPU time, so no faster host is tried.
  test_support::ScratchDir dir;
  const fs::path json = dir / "t.json", db = dir / "t.db";
  std::ofstream(json) << Trace(Kernel(1, "K1", 7, 10, 100) + Kernel(2, "K2", 7, 150, 50));
  importers::ImportFile(json, db);
  const core::store::TraceStore store = core::store::LoadTrace(db);
  core::report::ReportData d = core::report::AnalyseTrace(store, /*full=*/true);
  core::report::ComputeOpportunities(d);
  ASSERT_TRUE(d.opportunities.computed);
  EXPECT_EQ(d.opportunities.fidelity.launches_not_in_trace, 2u);
  EXPECT_EQ(Find(d.opportunities, "faster_host", "host"), nullptr);
  // K2 twice as fast ends at 175 (its launch stays at 150): 25 of the 190 from 10 to 200 saved.
  const auto* k2 = Find(d.opportunities, "faster_packets", "K2");
  ASSERT_NE(k2, nullptr);
  EXPECT_EQ(k2->predicted_span_ns, 165'000);
}

TEST(Opportunities, EachIsWhatWhatifPredictsWithItsOptions) {
  test_support::ScratchDir dir;
  const fs::path db = dir / "t.db";
  ASSERT_EQ(RunFencescope("simulate ring_buffer -o " + Quote(db)).exit_code, 0);
  auto report = RunFencescope("report " + Quote(db) + " --format json");
  ASSERT_EQ(report.exit_code, 0) << report.err;
  const core::report::Json j = test_support::ParseJsonText(report.out);
  const core::report::Json* list = j.Find("opportunities");
  ASSERT_NE(list, nullptr);
  ASSERT_GT(list->size(), 3u);
  for (const core::report::Json& o : list->items()) {
    const std::string edit = o.Find("edit")->String();
    SCOPED_TRACE(edit);
    auto w = RunFencescope("whatif " + Quote(db) + " -o " + Quote(dir / "p.db") + " " + edit +
                           " --json");
    ASSERT_EQ(w.exit_code, 0) << w.err;
    const core::report::Json p = test_support::ParseJsonText(w.out);
    EXPECT_EQ(test_support::At(p, "span_ns.after"), o.Find("predicted_span_ns")->Number());
    EXPECT_NEAR(test_support::At(p, "gain_pct"), o.Find("gain_pct")->Number(), 1e-9);
  }
}

// The progress the window shows: one step per replay (the unedited one and each candidate's),
// rising to 1; a progress callback that throws stops the ranking, which throws it.
TEST(Opportunities, ProgressCountsEachReplayAndAThrowCancels) {
  test_support::ScratchDir dir;
  const fs::path db = test_support::SimulateTrace(dir / "t.db", "default");
  const core::store::TraceStore store = core::store::LoadTrace(db);
  core::report::ReportData d = core::report::AnalyseTrace(store, /*full=*/true);
  std::vector<double> seen;
  std::mutex lock;
  core::report::ComputeOpportunities(d, [&](double f) {
    std::lock_guard<std::mutex> hold(lock);
    seen.push_back(f);
  });
  ASSERT_TRUE(d.opportunities.computed);
  // The replays: the unedited one, then one per opportunity listed.
  ASSERT_EQ(seen.size(), d.opportunities.list.size() + 1);
  for (size_t i = 0; i < seen.size(); ++i) {
    EXPECT_DOUBLE_EQ(seen[i], static_cast<double>(i + 1) / static_cast<double>(seen.size()));
  }
  struct Stop {};
  int calls = 0;
  EXPECT_THROW(core::report::ComputeOpportunities(d,
                                                  [&](double) {
                                                    ++calls;
                                                    throw Stop{};
                                                  }),
               Stop);
  // The first replay to finish throws; no replay starts after it, so each worker reports at
  // most the one it was running.
  const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_GE(calls, 1);
  EXPECT_LE(calls, static_cast<int>(workers));
  EXPECT_LT(static_cast<size_t>(calls), d.opportunities.list.size() + 1);
}
