// How the report states waits open at the end: the fences.waits_* and findings.* counts, the
// finding sentences and the CI gate, on the hand traces of tests/support/hand_trace.h (the
// expected answers are worked out there and in tests/unit/analysis/wait_findings_test.cpp).
#include <gtest/gtest.h>

#include "core/report/fail_if.h"
#include "core/report/report_html.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

using namespace core::report;
using test_support::At;
using test_support::ScratchDir;

namespace {

std::vector<std::string> Messages(const Json& j, const std::string& kind) {
  std::vector<std::string> out;
  for (const Json& f : FindPath(j, "findings.list")->items()) {
    if (f.Find("kind")->String() == kind) out.push_back(f.Find("message")->String());
  }
  return out;
}

}  // namespace

TEST(OpenWaitsReport, NeverUnblockedStatesTheFencesCurrentValueAtTheEnd) {
  // WriteReportTrace: 3d waits f>=5 from 105; f's only signal wrote 1, and the pending record
  // says CurrentValue 1 at the end.
  ScratchDir dir;
  auto store = hand_trace::WriteReportTrace(dir / "r.db");
  Json j = ReportJson(AnalyseTrace(store, true));
  auto never = Messages(j, "never_unblocked");
  ASSERT_EQ(never.size(), 1u);
  EXPECT_NE(never[0].find("f was 1 at the end"), std::string::npos) << never[0];
  EXPECT_NE(never[0].find("never signalled"), std::string::npos) << never[0];
  EXPECT_EQ(never[0].find("fence value 0"), std::string::npos) << never[0];
}

TEST(OpenWaitsReport, WaitsPendingAtTheEndOfAHealthyTraceDoNotTripTheGate) {
  // WriteCrossAdapterEnd: both open waits are released by signals queued ahead on queues that
  // still run: 2 pending at the end, nothing never unblocked, no cycle, no finding.
  ScratchDir dir;
  auto store = hand_trace::WriteCrossAdapterEnd(dir / "ca.db");
  Json j = ReportJson(AnalyseTrace(store, true));
  EXPECT_EQ(At(j, "fences.waits_never_unblocked"), 0);
  EXPECT_EQ(At(j, "fences.gpu_waits_never_unblocked"), 0);
  EXPECT_EQ(At(j, "fences.waits_pending_at_end"), 2);
  EXPECT_EQ(At(j, "fences.waits_unprocessed_at_end"), 0);
  EXPECT_EQ(At(j, "fences.waits_signal_not_in_capture"), 0);
  EXPECT_EQ(At(j, "fences.waits_stuck_after_rewind"), 0);
  EXPECT_EQ(At(j, "findings.wait_cycles"), 0);
  EXPECT_EQ(At(j, "findings.waits_never_unblocked"), 0);
  EXPECT_EQ(At(j, "findings.count"), 0);
  EXPECT_FALSE(EvaluateFailIf(j, "fences.waits_never_unblocked > 0 || findings.wait_cycles > 0"));
  EXPECT_TRUE(EvaluateFailIf(j, "fences.waits_pending_at_end == 2"));
}

TEST(OpenWaitsReport, WaitsStuckAfterARewindAreTheirOwnFinding) {
  // WriteRewoundFence: the GPU and the CPU wait for f>=5 are stuck after the rewind to 2 at 20;
  // the wait for f>=2 is unprocessed. The rewind itself is a finding too.
  ScratchDir dir;
  auto store = hand_trace::WriteRewoundFence(dir / "rw.db");
  ReportData d = AnalyseTrace(store, true);
  Json j = ReportJson(d);
  EXPECT_EQ(At(j, "fences.waits_stuck_after_rewind"), 2);
  EXPECT_EQ(At(j, "findings.stuck_after_rewind"), 2);
  EXPECT_EQ(At(j, "fences.waits_unprocessed_at_end"), 1);
  EXPECT_EQ(At(j, "fences.waits_never_unblocked"), 0);
  EXPECT_EQ(At(j, "findings.rewinds"), 1);
  auto stuck = Messages(j, "stuck_after_rewind");
  ASSERT_EQ(stuck.size(), 2u);
  for (const std::string& m : stuck) {
    EXPECT_NE(m.find("f reached 10 at 10 ns, then was rewound to 2 at 20 ns by a CPU signal"),
              std::string::npos)
        << m;
  }
  EXPECT_TRUE(EvaluateFailIf(j, "findings.stuck_after_rewind > 0"));
  EXPECT_NE(ReportMarkdown(d).find("| waits stuck after a rewind | 2 |"), std::string::npos);
  EXPECT_NE(ReportHtml(d).find("waits stuck after a rewind"), std::string::npos);
}
