// seed 004 preemption on a hand-made trace: the reconstruction's markers, the stats, and the
// report sections.
//
//   packet 11  started 90, preempted 130 (request 1, pixel, requested 100, completed 150: 50 ns)
//              resumed 150, completed 190
//   packet 12  started 195, completed 300 (request 2, pixel, requested 200, completed 300: 100 ns)
//   packet 13  started 350 (request 3, dma_buffer, requested 400) -> TDR at 500 (2 packets lost,
//              1 context lost)
//
// Answers: requests 3, completed 2, packets_preempted 1, max 100, p99 (nearest rank of 2
// samples: rank 2) 100, tdrs 1; per granularity: dma_buffer 1 request / 0 completed, pixel
// 2 / 2 with p50 (rank 1) 50 and max 100. The hand trace's adapter is pixel / dispatch.
#include <gtest/gtest.h>

#include "core/analysis/preemption_stats.h"
#include "core/analysis/reconstruction.h"
#include "core/report/report_data.h"
#include "core/report/report_html.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

namespace events = core::model::events;

using core::model::EventKind;
using core::model::PreemptionGranularity;
using core::model::TimeNs;
using hand_trace::HandTrace;
using test_support::ScratchDir;

namespace {

core::store::TraceStore PreemptionTrace(const ScratchDir& dir) {
  HandTrace t(dir / "t.db");
  const auto q = t.Queue("game");
  const auto dwm = t.Queue("dwm");
  const auto kPixel = PreemptionGranularity::kPixel;
  const auto kDma = PreemptionGranularity::kDmaBuffer;
  for (int64_t id : {11, 12, 13})
    t.Append(events::PacketSubmitted{.ts_ns = 0,
                                     .queue_id = q,
                                     .packet_id = id,
                                     .planned_duration_ns = 100,
                                     .fence_submission_id = id});
  t.Append(events::PacketStarted{.ts_ns = 90, .queue_id = q, .packet_id = 11});
  t.PreemptionRequest(q, dwm, 1, 11, 100, kPixel);  // dwm asks while 11 runs
  t.Append(events::PacketPreempted{.ts_ns = 130,
                                   .queue_id = q,
                                   .packet_id = 11,
                                   .remaining_ns = 60,
                                   .preemption_id = 1,
                                   .granularity = kPixel});
  t.PreemptionDone(q, 1, 11, 150, 50, kPixel);
  t.Append(events::PacketResumed{
      .ts_ns = 150, .queue_id = q, .packet_id = 11, .fence_submission_id = 99});
  t.Append(events::PacketCompleted{.ts_ns = 190, .queue_id = q, .packet_id = 11});
  t.Append(events::PacketStarted{.ts_ns = 195, .queue_id = q, .packet_id = 12});
  t.PreemptionRequest(q, dwm, 2, 12, 200, kPixel);
  t.Append(events::PacketCompleted{.ts_ns = 300, .queue_id = q, .packet_id = 12});
  t.PreemptionDone(q, 2, 12, 300, 100, kDma);
  t.Append(events::PacketStarted{.ts_ns = 350, .queue_id = q, .packet_id = 13});
  t.PreemptionRequest(q, dwm, 3, 13, 400, kDma);
  t.Tdr(q, 500, 2, 1, /*preemption_id=*/3);
  return t.Finish(0, 600);
}

}  // namespace

TEST(PreemptionReport, MarkersPerQueueAndTdrEndsTheLostPacket) {
  ScratchDir dir;
  auto store = PreemptionTrace(dir);
  const auto r = core::analysis::Reconstruct(store);
  ASSERT_EQ(r.preemptions.size(), 3u);
  ASSERT_EQ(r.queues[1].preemptions.size(), 3u);
  const auto& first = r.preemptions[r.queues[1].preemptions[0]];
  EXPECT_EQ(first.requested, 100);
  EXPECT_EQ(first.preempted, 130);
  EXPECT_EQ(first.completed, 150);
  EXPECT_EQ(first.latency_ns, 50);
  EXPECT_EQ(first.requesting_queue, 2u);
  EXPECT_EQ(first.granularity, PreemptionGranularity::kPixel);
  ASSERT_NE(first.packet, core::analysis::kNoIndex);
  EXPECT_EQ(r.packets[first.packet].packet_id, 11);
  const auto& last = r.preemptions[r.queues[1].preemptions[2]];
  EXPECT_EQ(last.completed, core::analysis::kUnknownTime);
  ASSERT_EQ(last.tdr, 0u);
  ASSERT_EQ(r.queues[1].tdrs.size(), 1u);
  const auto& tdr = r.tdrs[0];
  EXPECT_EQ(tdr.ts, 500);
  EXPECT_EQ(tdr.packets_lost, 2u);
  EXPECT_EQ(tdr.contexts_lost, 1u);
  EXPECT_TRUE(r.packets[last.packet].lost);
  // Segments: 90-130 (preempted), 150-190, 195-300, 350-500 (reset), nothing left open.
  ASSERT_EQ(r.queues[1].segments.size(), 4u);
  EXPECT_EQ(r.queues[1].segments[3].end, 500);
  EXPECT_TRUE(r.queues[1].segments[3].reset);
  EXPECT_EQ(r.Problem("packet_running_at_end"), 0u);
}

TEST(PreemptionReport, StatsJsonAndSections) {
  ScratchDir dir;
  auto store = PreemptionTrace(dir);
  const auto d = core::report::AnalyseTrace(store, /*full=*/true);
  const auto j = core::report::StatsJson(d);
  const auto* p = j.Find("preemption");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->Find("requests")->Int(), 3);
  EXPECT_EQ(p->Find("completed")->Int(), 2);
  EXPECT_EQ(p->Find("packets_preempted")->Int(), 1);
  EXPECT_EQ(p->Find("max_latency_ns")->Int(), 100);
  EXPECT_EQ(p->Find("p99_latency_ns")->Int(), 100);
  EXPECT_EQ(p->Find("tdrs")->Int(), 1);
  EXPECT_EQ(p->Find("granularity_graphics")->String(), "pixel");
  EXPECT_EQ(p->Find("granularity_compute")->String(), "dispatch");

  ASSERT_EQ(d.preemption.per_granularity.size(), 2u);
  EXPECT_EQ(d.preemption.per_granularity[0].granularity, PreemptionGranularity::kDmaBuffer);
  EXPECT_EQ(d.preemption.per_granularity[0].requests, 1u);
  EXPECT_EQ(d.preemption.per_granularity[0].latency.count, 0u);
  EXPECT_EQ(d.preemption.per_granularity[1].latency.p50, 50);
  EXPECT_EQ(d.preemption.per_granularity[1].latency.max, 100);

  const std::string md = core::report::ReportMarkdown(d);
  EXPECT_NE(md.find("## Preemption"), std::string::npos);
  EXPECT_NE(md.find("| pixel | 2 | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("1 packets preempted mid-packet, 1 TDRs."), std::string::npos);
  const std::string html = core::report::ReportHtml(d);
  EXPECT_NE(html.find("id=\"preemption\""), std::string::npos);
  EXPECT_NE(html.find("<title>TDR: 2 packets, 1 contexts lost</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>preemption, never completed</title>"), std::string::npos);
  const auto report = core::report::ReportJson(d);
  const auto* per = report.Find("preemption_latency");
  ASSERT_NE(per, nullptr);
  EXPECT_EQ(per->items().size(), 2u);
}
