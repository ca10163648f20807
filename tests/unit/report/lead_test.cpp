// The opening lines of the HTML and Markdown reports (core/report/lead.h: what held the GPU
// back) and the timeline overview's crop to the queues' active span (core/analysis/
// active_span.h), on hand-made traces whose figures are worked out below from their records.
#include "core/report/lead.h"

#include <gtest/gtest.h>

#include "core/analysis/active_span.h"
#include "core/report/report_html.h"
#include "core/report/report_markdown.h"
#include "tests/support/hand_trace.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

using namespace core::report;
using core::analysis::GapCause;
using core::store::TraceStore;
using test_support::ScratchDir;

namespace {

bool Contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// Span [0, 1000]:
//   copy (q1) "upload" submitted 250, runs [400, 600]; signal f = 1 queued 250, executed 600
//   gfx  (q2) wait f >= 1 queued 100, unblocked 600; "draw" submitted 100, runs [600, 900]
// By hand:
//   gfx   busy 300 (30%); held by the wait [100, 600) = 500 (50%), all of it on f from copy;
//         nothing submitted [0, 100) + [900, 1000) = 200
//   copy  busy 200 (20%); nothing submitted [0, 250) + [600, 1000) = 650 (65%); submitted, not
//         running [250, 400) = 150
//   active span: the wait queued at 100 .. draw's end at 900; lead-in 100, tail 100
//   longest wait: gfx, from 100 (queued; no observed time) to 600 = 500, released by copy's
//         signal, executed by upload's completion
//   critical path from 900: draw [600, 900] on gfx, the wait [600, 600], upload [400, 600] and
//         its submit [250, 400] on copy, then main from the start [0, 250]: 900 long; copy 350
//         (38.9%; 200 of it running upload), gfx 300 (33.3%; 300 running draw), thread main 250
//         (27.8%; all of it running)
TraceStore WriteLeadTrace(const std::filesystem::path& path) {
  hand_trace::HandTrace t(path);
  const auto copy = t.Queue("copy", core::model::QueueType::kCopy);
  const auto gfx = t.Queue("gfx");
  const auto main = t.Thread("main");
  const auto f = t.Fence("f");
  t.Packet(copy, main, 1, 250, 400, 600, 0, t.Name("upload"));
  t.Signal(copy, main, f, 1, 100, 250, 600);
  t.Wait(gfx, main, f, 1, 200, 100, 600, 100);
  t.Packet(gfx, main, 2, 100, 600, 900, 0, t.Name("draw"));
  return t.Finish(0, 1000);
}

// The ids of the HTML elements, for checking that every link has a target.
bool HasId(const std::string& html, const std::string& id) {
  return Contains(html, "id=\"" + id + "\"");
}

}  // namespace

TEST(Lead, FiguresAgreeWithTheHandWorkedQueues) {
  ScratchDir dir;
  const TraceStore store = WriteLeadTrace(dir / "lead.db");
  const ReportData d = AnalyseTrace(store, true);
  const Lead lead = ComputeLead(d);
  EXPECT_EQ(lead.span_ns, 1000);
  ASSERT_EQ(lead.queues.size(), 2u);
  const QueueLead& gfx = lead.queues[0];  // most busy first
  EXPECT_EQ(d.QueueName(gfx.queue), "gfx");
  EXPECT_EQ(gfx.busy_ns, 300);
  EXPECT_EQ(gfx.cause, GapCause::kWaitingOnFence);
  EXPECT_EQ(gfx.cause_ns, 500);
  ASSERT_TRUE(gfx.fence.has_value());
  EXPECT_EQ(d.FenceName(gfx.fence->fence), "f");
  EXPECT_EQ(d.QueueName(gfx.fence->signalling), "copy");
  EXPECT_EQ(gfx.fence->ns, 500);
  EXPECT_FALSE(gfx.sync.has_value());
  const QueueLead& copy = lead.queues[1];
  EXPECT_EQ(d.QueueName(copy.queue), "copy");
  EXPECT_EQ(copy.busy_ns, 200);
  EXPECT_EQ(copy.cause, GapCause::kNothingSubmitted);
  EXPECT_EQ(copy.cause_ns, 650);
  EXPECT_FALSE(copy.fence.has_value());
  EXPECT_EQ(lead.queues_left_out, 0u);
  ASSERT_EQ(lead.waits.size(), 1u);
  EXPECT_EQ(lead.waits[0].Held(), 500);
  EXPECT_EQ(lead.path_ns, 900);
  const std::vector<std::pair<std::string, int64_t>> tracks = {
      {"copy", 350}, {"gfx", 300}, {"thread main", 250}};
  ASSERT_EQ(lead.path.size(), tracks.size());
  for (size_t i = 0; i < tracks.size(); ++i) {
    EXPECT_EQ(d.TrackName(lead.path[i].queue, lead.path[i].thread), tracks[i].first);
    EXPECT_EQ(lead.path[i].ns, tracks[i].second) << tracks[i].first;
  }
  EXPECT_EQ(lead.path[0].running_ns, 200);

  // Each line and the section it links to.
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"The queues were active for 800 ns of the 1 us capture, from 100 ns to 900 ns: nothing ran "
       "or waited on a queue in the first 100 ns and the last 100 ns.",
       "timeline"},
      {"gfx was busy 300 ns (30.0% of the capture); its largest idle cause: waiting on fence, "
       "500 ns (50.0%), longest on f from copy (500 ns).",
       "gaps"},
      {"copy was busy 200 ns (20.0% of the capture); its largest idle cause: nothing submitted, "
       "650 ns (65.0%).",
       "gaps"},
      {"The longest wait: gfx was held 500 ns from 100 ns, waiting for f >= 1, released by copy "
       "when upload completed.",
       "longest-waits"},
      {"The critical path (900 ns) runs longest on copy 350 ns (38.9%; 200 ns running), gfx "
       "300 ns (33.3%; 300 ns running), thread main 250 ns (27.8%; 250 ns running).",
       "critical-path"}};
  const std::vector<LeadLine> lines = LeadLines(d, lead);
  ASSERT_EQ(lines.size(), expected.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].text, expected[i].first);
    EXPECT_EQ(lines[i].section, expected[i].second) << lines[i].text;
  }
}

TEST(Lead, ReportsOpenWithItAndLinkToTheSections) {
  ScratchDir dir;
  const TraceStore store = WriteLeadTrace(dir / "lead.db");
  const ReportData d = AnalyseTrace(store, true);
  const std::string html = ReportHtml(d);
  const size_t lead = html.find("<h2 id=\"lead\">What held the GPU back</h2>");
  ASSERT_NE(lead, std::string::npos);
  EXPECT_LT(lead, html.find("id=\"timeline\""));
  EXPECT_LT(html.find("id=\"timeline\""), html.find("id=\"summary\""));
  for (const char* id : {"timeline", "gaps", "longest-waits", "critical-path"}) {
    EXPECT_TRUE(Contains(html, std::string("<a href=\"#") + id + "\">")) << id;
    EXPECT_TRUE(HasId(html, id)) << id;
  }
  EXPECT_TRUE(Contains(html,
                       "<li>gfx was busy 300 ns (30.0% of the capture); its largest idle "
                       "cause: waiting on fence, 500 ns (50.0%), longest on f from copy "
                       "(500 ns). <a href=\"#gaps\">"));
  const std::string md = ReportMarkdown(d);
  const size_t md_lead = md.find("## What held the GPU back\n\n- The queues were active");
  ASSERT_NE(md_lead, std::string::npos);
  EXPECT_LT(md_lead, md.find("## Summary"));
  for (const char* link :
       {"[Queues](#queues)", "[Idle-gap attribution](#idle-gap-attribution)",
        "[Longest waits and what released them](#longest-waits-and-what-released-them)",
        "[Critical path](#critical-path)"}) {
    EXPECT_TRUE(Contains(md, link)) << link;
  }
  for (const char* heading :
       {"\n## Queues\n", "\n### Idle-gap attribution\n",
        "\n## Longest waits and what released them\n", "\n## Critical path\n"}) {
    EXPECT_TRUE(Contains(md, heading)) << heading;
  }
  EXPECT_TRUE(Contains(md,
                       "- copy was busy 200 ns (20.0% of the capture); its largest idle "
                       "cause: nothing submitted, 650 ns (65.0%). ([Idle-gap attribution]"));
}

// The overview is drawn over the span in which the queues did something: from the first packet
// start or wait queued to the last packet end or wait unblocked, as SQL over the trace finds.
TEST(TimelineOverview, CroppedToTheActiveSpanWithTheLeadInAndTailSaid) {
  ScratchDir dir;
  const TraceStore store = WriteLeadTrace(dir / "lead.db");
  const ReportData d = AnalyseTrace(store, true);
  const std::string first = test_support::FirstCell(
      dir / "lead.db",
      "SELECT min(ts_ns) FROM (SELECT ts_ns FROM packet_started UNION ALL SELECT ts_ns FROM "
      "fence_wait_queued)");
  const std::string last = test_support::FirstCell(
      dir / "lead.db",
      "SELECT max(ts_ns) FROM (SELECT ts_ns FROM packet_completed UNION ALL SELECT ts_ns FROM "
      "fence_wait_unblocked)");
  EXPECT_EQ(first, "100");
  EXPECT_EQ(last, "900");
  const core::analysis::ActiveSpan span = core::analysis::ComputeActiveSpan(d.recon);
  EXPECT_TRUE(span.any);
  EXPECT_EQ(std::to_string(span.active.start), first);
  EXPECT_EQ(std::to_string(span.active.end), last);
  EXPECT_EQ(span.lead_in_ns, 100);
  EXPECT_EQ(span.tail_ns, 100);
  const std::string html = ReportHtml(d);
  EXPECT_TRUE(Contains(html, "data-t0=\"" + first + "\" data-t1=\"" + last + "\""));
  EXPECT_TRUE(Contains(html, "text-anchor=\"start\">100 ns</text>"));
  EXPECT_TRUE(Contains(html, "text-anchor=\"end\">900 ns</text>"));
  EXPECT_TRUE(Contains(html,
                       "Drawn over the 800 ns in which the queues were active, from 100 ns "
                       "to 900 ns of the 1 us capture: nothing ran or waited on a queue in the "
                       "first 100 ns and the last 100 ns."));
  // zoomable by the inline script, which loads nothing
  EXPECT_TRUE(Contains(html, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"zoomable\""));
  EXPECT_TRUE(Contains(html, "document.querySelectorAll('svg.zoomable')"));
  EXPECT_FALSE(Contains(html, "<script src"));
}

// Activity over the whole span: nothing cropped, no line about it. A lead-in of 1% of the
// capture: cropped and said in the caption, too short for a line of the lead.
TEST(TimelineOverview, NothingCroppedWhenTheQueuesWereActiveThroughout) {
  ScratchDir dir;
  {
    const TraceStore store = hand_trace::WriteTraceA(
        dir / "a.db", [](auto&) {}, 100);
    const ReportData d = AnalyseTrace(store, true);
    const core::analysis::ActiveSpan span = core::analysis::ComputeActiveSpan(d.recon);
    EXPECT_EQ(span.active.start, 0);  // compute runs from 0; 3d ends at 100, the trace's end
    EXPECT_EQ(span.active.end, 100);
    const std::string html = ReportHtml(d);
    EXPECT_TRUE(Contains(html, "data-t0=\"0\" data-t1=\"100\""));
    EXPECT_FALSE(Contains(html, "Drawn over"));
    EXPECT_FALSE(Contains(html, "The queues were active"));
  }
  hand_trace::HandTrace t(dir / "b.db");
  t.Packet(t.Queue("gfx"), t.Thread("main"), 1, 10, 10, 1000);
  const TraceStore store = t.Finish(0, 1000);
  const ReportData d = AnalyseTrace(store, true);
  const std::string html = ReportHtml(d);
  EXPECT_TRUE(Contains(html,
                       "Drawn over the 990 ns in which the queues were active, from 10 ns to "
                       "1.000 us of the 1 us capture: nothing ran or waited on a queue in the "
                       "first 10 ns."));
  EXPECT_FALSE(Contains(html, "The queues were active"));
}

// A trace without GPU work has no lead: the sentence saying so stands instead.
TEST(Lead, NoneWithoutGpuWork) {
  ScratchDir dir;
  hand_trace::HandTrace t(dir / "cpu.db");
  t.Thread("main");
  const TraceStore store = t.Finish(0, 100);
  const ReportData d = AnalyseTrace(store, true);
  EXPECT_FALSE(Contains(ReportHtml(d), "What held the GPU back"));
  EXPECT_FALSE(Contains(ReportMarkdown(d), "What held the GPU back"));
  EXPECT_FALSE(ComputeActiveSpan(d.recon).any);
}
