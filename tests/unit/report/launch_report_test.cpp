// The launch figures in the report (idle_gaps' launch-bound / synchronised keys, idle_split,
// launch_links, launch_delay, queue_length) on trace C of hand_trace.h, whose answers are worked
// out there and in tests/unit/analysis/launch_figures_test.cpp; the launch delays are checked a
// second way with SQL over the flows table and the per-kind views.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/report/fail_if.h"
#include "core/report/report_html.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown.h"
#include "core/store/query.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

using namespace core::report;
using core::store::TraceStore;
using test_support::ScratchDir;

namespace {

const Json& At(const Json& j, const std::string& path) {
  static const Json kMissing;
  const Json* v = FindPath(j, path);
  EXPECT_NE(v, nullptr) << path;
  return v ? *v : kMissing;
}

}  // namespace

TEST(LaunchReport, JsonKeysCarryTheHandWorkedFigures) {
  ScratchDir dir;
  TraceStore store = hand_trace::WriteCudaTrace(dir / "cuda.db");
  Json j = ReportJson(AnalyseTrace(store, true));
  // stream A: launch-bound 5 + 10 + 11, synchronised 25 in cudaDeviceSynchronize (µs)
  EXPECT_EQ(At(j, "idle_gaps[0].launch_bound_ns").Int(), 26000);
  EXPECT_EQ(At(j, "idle_gaps[0].synchronised_ns").Int(), 25000);
  EXPECT_EQ(At(j, "idle_gaps[0].nothing_submitted_ns").Int(), 100000);
  EXPECT_EQ(At(j, "idle_gaps[0].synchronised_on[0].call").String(), "cudaDeviceSynchronize");
  EXPECT_EQ(At(j, "idle_gaps[0].synchronised_on[0].thread").String(), "main");
  EXPECT_EQ(At(j, "idle_gaps[0].synchronised_on[0].fence").String(), "");
  EXPECT_EQ(At(j, "idle_gaps[1].synchronised_on[0].call").String(), "cudaMemcpy");
  // gap classes
  EXPECT_EQ(At(j, "idle_split[0].kernel_wait_max_ns").Int(), 30000);
  EXPECT_EQ(At(j, "idle_split[0].host_wait_ns").Int(), 50000);
  EXPECT_EQ(At(j, "idle_split[0].host_wait_gaps").Int(), 1);
  EXPECT_EQ(At(j, "idle_split[0].kernel_wait_ns").Int(), 4000);
  EXPECT_EQ(At(j, "idle_split[0].other_cross_stream_ns").Int(), 60000);
  EXPECT_EQ(At(j, "idle_split[0].other_waiting_on[0].fence").String(), "E");
  EXPECT_EQ(At(j, "idle_split[0].other_waiting_on[0].from").String(), "stream B");
  EXPECT_EQ(At(j, "idle_split[0].other_waiting_on[0].link_inferred_ns").Int(), 0);
  EXPECT_EQ(At(j, "idle_gaps[0].waiting_on[0].ns").Int(), 60000);
  EXPECT_EQ(At(j, "idle_gaps[0].waiting_on[0].link_inferred_ns").Int(), 0);
  EXPECT_EQ(At(j, "idle_split[0].unlinked_ns").Int(), 60000);
  EXPECT_EQ(At(j, "idle_split[0].outside_ns").Int(), 50000);
  EXPECT_EQ(At(j, "idle_split[1].other_host_sync_ns").Int(), 80000);
  EXPECT_EQ(At(j, "idle_split[1].other_synchronised_on[0].call").String(), "cudaMemcpy");
  EXPECT_EQ(At(j, "idle_split[2].other_unexplained_ns").Int(), 50000);
  // launch links: 9 packets, 8 with an ac2g flow
  EXPECT_EQ(At(j, "launch_links.cpu_launch_flows").Int(), 8);
  EXPECT_EQ(At(j, "launch_links.packets_linked").Int(), 8);
  EXPECT_EQ(At(j, "launch_links.packets").Int(), 9);
  EXPECT_EQ(At(j, "launch_links.flows_unmatched").Int(), 0);
  // launch delay, stream A: 4 5 25 76; K5 left out. Stream B: 128 and -15.
  EXPECT_EQ(At(j, "launch_delay[0].name").String(), "stream A");
  EXPECT_EQ(At(j, "launch_delay[0].count").Int(), 4);
  EXPECT_EQ(At(j, "launch_delay[0].p50_ns").Int(), 5000);
  EXPECT_EQ(At(j, "launch_delay[0].p99_ns").Int(), 76000);
  EXPECT_EQ(At(j, "launch_delay[0].max_ns").Int(), 76000);
  EXPECT_EQ(At(j, "launch_delay[0].without_launch").Int(), 1);
  EXPECT_EQ(At(j, "launch_delay[0].outliers[0].packet").String(), "kernel 4");
  EXPECT_EQ(At(j, "launch_delay[0].outliers[0].start_ns").Int(), 180000);
  EXPECT_EQ(At(j, "launch_delay[0].outliers[0].call_end_ns").Int(), 104000);
  EXPECT_EQ(At(j, "launch_delay[0].outliers[0].delay_ns").Int(), 76000);
  EXPECT_EQ(At(j, "launch_delay[1].negative").Int(), 1);
  EXPECT_EQ(At(j, "launch_delay[1].p50_ns").Int(), -15000);
  // queue length, stream A: max 2, mean 126 / 300
  EXPECT_EQ(At(j, "queue_length[0].source").String(), "launch_calls");
  EXPECT_EQ(At(j, "queue_length[0].max").Int(), 2);
  EXPECT_DOUBLE_EQ(At(j, "queue_length[0].mean").Number(), 126.0 / 300.0);
  EXPECT_EQ(At(j, "queue_length[0].packets_left_out").Int(), 1);
  EXPECT_EQ(At(j, "queue_length[0].series.bin_ns").Int(), 1500);
  EXPECT_EQ(At(j, "queue_length[0].series.max[4]").Int(), 2);
  EXPECT_EQ(At(j, "queue_length[0].series.max").size(), 200u);
}

TEST(LaunchReport, LaunchDelaysAgreeWithSqlOverFlows) {
  ScratchDir dir;
  TraceStore store = hand_trace::WriteCudaTrace(dir / "cuda.db");
  Json j = ReportJson(AnalyseTrace(store, true));
  // packet start - (call start + duration), joined through the cpu_launch flows
  const std::string delays =
      "SELECT p.queue_id, p.ts_ns - (c.ts_ns + c.duration_ns) AS delay FROM flows f "
      "JOIN cpu_slice c ON c.event_id = f.from_event "
      "JOIN packet_started p ON p.event_id = f.to_event WHERE f.kind = 1";
  auto per_queue = core::store::RunQuery(
      dir / "cuda.db", "SELECT queue_id, COUNT(*), MAX(delay), SUM(delay < 0) FROM (" + delays +
                           ") GROUP BY queue_id ORDER BY queue_id");
  ASSERT_EQ(per_queue.rows.size(), 3u);
  for (const auto& row : per_queue.rows) {
    const std::string q = "launch_delay[" + std::to_string(std::stoi(row[0]) - 1) + "].";
    EXPECT_EQ(At(j, q + "count").Int(), std::stoll(row[1])) << q;
    EXPECT_EQ(At(j, q + "max_ns").Int(), std::stoll(row[2])) << q;
    EXPECT_EQ(At(j, q + "negative").Int(), std::stoll(row[3])) << q;
  }
  // packets that started with no flow into their packet_started record
  auto unlinked = core::store::RunQuery(
      dir / "cuda.db", "SELECT COUNT(*) FROM packet_started p WHERE NOT EXISTS (SELECT 1 FROM "
                       "flows f WHERE f.kind = 1 AND f.to_event = p.event_id) AND p.queue_id = 1");
  EXPECT_EQ(At(j, "launch_delay[0].without_launch").Int(), std::stoll(unlinked.rows.at(0).at(0)));
}

TEST(LaunchReport, HtmlAndMarkdownShowTheLaunchSections) {
  ScratchDir dir;
  TraceStore store = hand_trace::WriteCudaTrace(dir / "cuda.db");
  ReportData d = AnalyseTrace(store, true);
  const std::string html = ReportHtml(d);
  for (const char* text : {"<th>launch-bound</th>", "<th>synchronised</th>", "id=\"idle-split\"",
                           "id=\"launch\"", "cudaMemcpy on main", "Queue length over time",
                           "kernel 4", "cross-stream wait on E from stream B"}) {
    EXPECT_NE(html.find(text), std::string::npos) << text;
  }
  const std::string md = ReportMarkdown(d);
  for (const char* text : {"| launch-bound |", "### Idle time between packets", "### Launch delay",
                           "### Queue length", "cudaDeviceSynchronize on main: 25 us",
                           "| stream A | 4 | 5 us |",
                           "| queue | host wait | kernel wait | other | unlinked |"}) {
    EXPECT_NE(md.find(text), std::string::npos) << text << "\n" << md;
  }
  EXPECT_EQ(md.find(d.NoLaunchCallsGapSentence()), std::string::npos);
}

// A trace with no launch call (as D3D12, ETW and ftrace captures are): the gap classes would
// all be "unlinked"; a sentence says why there are none, in place of their table and chart.
TEST(LaunchReport, NoLaunchCallsSayWhyTheGapsHaveNoClass) {
  ScratchDir dir;
  TraceStore store = [&] {
    hand_trace::HandTrace t(dir / "d3d.db");
    auto q = t.Queue("gfx");
    auto main = t.Thread("main");
    t.Packet(q, main, 1, 0, 10, 20);
    t.Packet(q, main, 2, 25, 40, 50);
    return t.Finish(0, 60);
  }();
  const ReportData d = AnalyseTrace(store, true);
  EXPECT_EQ(At(ReportJson(d), "idle_split[0].unlinked_gaps").Int(), 1);  // the JSON keeps it
  const std::string md = ReportMarkdown(d);
  EXPECT_NE(md.find("### Idle time between packets"), std::string::npos);
  EXPECT_NE(md.find(d.NoLaunchCallsGapSentence()), std::string::npos) << md;
  EXPECT_EQ(md.find("| host wait |"), std::string::npos) << md;
  const std::string html = ReportHtml(d);
  EXPECT_NE(html.find("<p>" + d.NoLaunchCallsGapSentence() + "</p>"), std::string::npos);
  EXPECT_EQ(html.find("Idle time between packets by class"), std::string::npos);
  EXPECT_EQ(html.find("<th>kernel wait</th>"), std::string::npos);
}

// A 300-byte kernel name (templated CUDA kernels run to kilobytes) among the longest launch
// delays: shortened to 160 bytes and an ellipsis, in HTML with the whole name as the tooltip,
// as in the other tables of packet names. Launched at 1 us (call 1..2 us), started at 10 us.
TEST(LaunchReport, LongKernelNamesAmongTheLongestDelaysAreShortened) {
  ScratchDir dir;
  const std::string name(300, 'k');
  TraceStore store = [&] {
    hand_trace::HandTrace t(dir / "long.db");
    auto q = t.Queue("stream 7", core::model::QueueType::kCompute);
    auto main = t.Thread("main");
    const auto call = t.RuntimeCall(main, 1000, 1000);
    t.LaunchedPacket(q, main, 1, call, 1000, 10000, 20000, name);
    return t.Finish(0, 30000);
  }();
  const ReportData d = AnalyseTrace(store, true);
  EXPECT_EQ(At(ReportJson(d), "launch_delay[0].outliers[0].delay_ns").Int(), 8000);
  const std::string shown = std::string(160, 'k') + "\u2026";
  const std::string md = ReportMarkdown(d);
  EXPECT_NE(md.find("| stream 7 | " + shown + " | 10000 ns | 8 us |"), std::string::npos) << md;
  EXPECT_EQ(md.find(name), std::string::npos);
  const std::string html = ReportHtml(d);
  EXPECT_NE(html.find("<td class=\"name\" title=\"" + name + "\">" + shown + "</td>"),
            std::string::npos);
}
