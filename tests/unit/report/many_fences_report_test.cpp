// A trace with 6,000 fences keeps its HTML and Markdown reports readable: every table bounded
// (core/report/report_rows.h), the rows left out said in one line whose count and time are
// worked out here from the trace's own numbers and by SQL over it, and the JSON keeping every
// row. Before the bounds, a capture with 6,000 CUDA events gave 6,183 table rows and 1.5 MB.
#include <gtest/gtest.h>

#include "core/report/fail_if.h"
#include "core/report/report_html.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown.h"
#include "core/report/svg_chart.h"
#include "tests/support/hand_trace.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

using namespace core::report;
using core::store::TraceStore;
using test_support::Occurrences;
using test_support::ScratchDir;

namespace {

constexpr int kSteps = 6000;
constexpr int kQueues = 4;
// Step i: fence i's wait lasts Held(i) ns, all distinct, the last ones longest.
constexpr int64_t Held(int i) {
  return 1000 + i;
}

// kQueues queues chained round by kSteps fences (as CUDA streams by events): step i runs a
// packet on queue i % 4 over [T(i), T(i) + Held(i)], whose end executes the signal of fence
// "event i" (queued at T(i)); queue (i + 1) % 4 waits for it from T(i) and runs step i + 1's
// packet when it is released, so T(i + 1) = T(i) + Held(i), T(0) = 1000.
TraceStore WriteChain(const std::filesystem::path& path) {
  hand_trace::HandTrace t(path);
  std::vector<core::model::QueueId> queues;
  for (int q = 0; q < kQueues; ++q) {
    queues.push_back(t.Queue("stream " + std::to_string(q), core::model::QueueType::kCompute));
  }
  const auto th = t.Thread("main");
  core::model::TimeNs at = 1000;
  for (int i = 0; i < kSteps; ++i) {
    const auto fence = t.Fence("event " + std::to_string(i));
    t.Packet(queues[i % kQueues], th, i + 1, at, at, at + Held(i));
    t.Signal(queues[i % kQueues], th, fence, 1, i + 1, at, at + Held(i));
    t.Wait(queues[(i + 1) % kQueues], th, fence, 1, i + 1, at, at + Held(i), i + 1);
    at += Held(i);
  }
  return t.Finish(0, at + 1000);
}

// The text between `from` and the next `to` after it.
std::string Between(const std::string& text, const std::string& from, const std::string& to) {
  const size_t a = text.find(from);
  if (a == std::string::npos) return "";
  return text.substr(a, text.find(to, a + from.size()) - a);
}

}  // namespace

TEST(ManyFencesReport, TablesAreBoundedAndTheRestIsOneLine) {
  ScratchDir dir;
  const TraceStore store = WriteChain(dir / "chain.db");
  const ReportData d = AnalyseTrace(store, true);
  const std::string html = ReportHtml(d);
  const std::string md = ReportMarkdown(d);
  EXPECT_LE(Occurrences(html, "<tr"), 300u);
  EXPECT_LE(html.size(), 300'000u);
  size_t md_rows = 0;
  for (const std::string& line : test_support::Lines(md)) {
    md_rows += line.rfind("| ", 0) == 0 && line.rfind("| --- ", 0) != 0;
  }
  EXPECT_LE(md_rows, 300u);
  EXPECT_LE(md.size(), 300'000u);

  // Per fence: each fence has one wait, queued -> unblocked = Held(i); the 20 longest are
  // fences 5980..5999, the other 5,980 waited sum(Held(i), i < 5980) ns in all.
  int64_t rest_ns = 0;
  for (int i = 0; i < kSteps - 20; ++i) rest_ns += Held(i);
  EXPECT_EQ(rest_ns, 23'857'210);
  // ... and by SQL over the trace: every wait but the 20 longest
  EXPECT_EQ(test_support::RowsText(
                dir / "chain.db",
                "SELECT count(*), sum(t) FROM (SELECT u.ts_ns - q.ts_ns AS t FROM "
                "fence_wait_queued q JOIN fence_wait_unblocked u USING (wait_id) ORDER BY t DESC "
                "LIMIT -1 OFFSET 20)"),
            "5980|" + std::to_string(rest_ns) + "\n");
  const std::string line =
      "and 5,980 more fences, " + FormatDuration(static_cast<double>(rest_ns)) + " waited in all";
  EXPECT_EQ(line, "and 5,980 more fences, 23.9 ms waited in all");
  const std::string per_fence = Between(html, "<h3>Per fence</h3>", "<h3>");
  EXPECT_EQ(Occurrences(per_fence, "<tr><td>GPU</td>"), 20u);
  EXPECT_NE(per_fence.find("<td>event 5999</td>"), std::string::npos);
  EXPECT_EQ(per_fence.find("<td>event 5979</td>"), std::string::npos);
  EXPECT_NE(per_fence.find("<p class=\"more\">" + line + ".</p>"), std::string::npos) << per_fence;
  EXPECT_NE(md.find("_" + line + "._"), std::string::npos);

  // Idle-gap attribution, stream 1: it waits for fences i = 0, 4, ..., 5996 (signalled by
  // stream 0), each holding it Held(i) while it runs nothing. The cell names the 5 longest
  // (5996 .. 5980) and then the other 1,495 with their time.
  int64_t cell_rest = 0;
  for (int i = 0; i < 5980; i += 4) cell_rest += Held(i);
  const std::string cell_line =
      "and 1,495 more, " + FormatDuration(static_cast<double>(cell_rest)) + " in all";
  EXPECT_EQ(cell_line, "and 1,495 more, 5.96 ms in all");
  std::string cell;
  for (int i = 5996; i >= 5980; i -= 4) {
    cell += "event " + std::to_string(i) +
            " from stream 0: " + FormatDuration(static_cast<double>(Held(i))) + "; ";
  }
  cell += cell_line;
  EXPECT_EQ(cell.substr(0, 27), "event 5996 from stream 0: 7");  // 6,996 ns
  const std::string gaps = Between(html, "<h2 id=\"gaps\">", "</table>");
  EXPECT_NE(gaps.find("<td>stream 1</td>"), std::string::npos);
  EXPECT_NE(gaps.find("<td>" + cell + "</td>"), std::string::npos) << gaps;
  EXPECT_NE(md.find("| " + cell + " |"), std::string::npos);

  // The JSON keeps every row.
  const Json json = ReportJson(d);
  EXPECT_EQ(FindPath(json, "latency.per_fence")->size(), static_cast<size_t>(kSteps));
  EXPECT_EQ(FindPath(json, "idle_gaps[1].waiting_on")->size(), static_cast<size_t>(kSteps / 4));
}
