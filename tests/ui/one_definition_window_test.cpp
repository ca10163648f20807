// The window shows the numbers `stats` and `report` print, because it calls the same functions:
// whole frames of the window are drawn over a simulated trace, then its range statistics over the
// whole trace are checked against `stats --json` run by the real binary, its findings against
// the report's list, and its interrupt row's peak rate against the Interrupts panel's.
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/gui/platform/headless_context.h"
#include "app/gui/views/main_window.h"
#include "core/report/fail_if.h"
#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

namespace {

using namespace app::gui;  // NOLINT
using core::report::FindPath;
using core::report::Json;
using namespace test_support;  // NOLINT



// A window over `scenario` simulated into `dir`, every panel drawn for two frames.
class Window {
 public:
  Window(const ScratchDir& dir, const std::string& scenario)
      : trace(SimulateTrace(dir / (scenario + ".db"), scenario)) {
    main.OpenNow(trace);
    for (int p = 0; p < static_cast<int>(views::Panel::kCount); ++p) {
      main.ShowPanel(static_cast<views::Panel>(p));
      Frame();
      Frame();
    }
  }
  void Frame() {
    ImGui::NewFrame();
    main.DrawFrame();
    ImGui::Render();
    main.ApplyRequests();
  }
  state::Document& doc() { return *main.document(); }

  std::filesystem::path trace;
  platform::HeadlessContext context{1280, 800};
  views::MainWindow main{{}, {}};
};

// Regression: the window split busy / waiting itself (a wait from its observed time), counted
// run segments as "packets" (88 on Graphics where stats said 90), and had its own fence latency.
TEST(OneDefinitionWindow, RangeStatisticsOverTheWholeTraceAreStatsJson) {
  ScratchDir dir;
  Window w(dir, "default");
  ASSERT_NE(w.main.document(), nullptr);
  state::Document& doc = w.doc();
  ASSERT_FALSE(doc.view.selected_range.Valid());
  const auto range = views::RangeStatsView::RangeShown(doc);
  const auto& stats = w.main.range_stats().StatsFor(doc, range);
  Json json = RunFencescopeJson("stats --json " + Quote(w.trace));
  EXPECT_EQ(range.start, IntAt(json, "start_ns"));
  EXPECT_EQ(range.end, IntAt(json, "end_ns"));
  const auto& queues = stats.queue_time.queues;
  ASSERT_EQ(queues.size(), FindPath(json, "queues")->size());
  for (size_t i = 0; i < queues.size(); ++i) {
    const std::string q = "queues[" + std::to_string(i) + "].";
    const auto& t = queues[i];
    EXPECT_EQ(doc.store.FindQueue(t.queue)->name, FindPath(json, q + "name")->String());
    EXPECT_EQ(t.busy_ns, IntAt(json, q + "busy_ns")) << q;
    EXPECT_EQ(t.waiting_ns, IntAt(json, q + "waiting_ns")) << q;
    EXPECT_EQ(t.idle_ns, IntAt(json, q + "idle_ns")) << q;
    EXPECT_EQ(static_cast<int64_t>(t.counts.submitted), IntAt(json, q + "packets_submitted")) << q;
    EXPECT_EQ(static_cast<int64_t>(t.counts.started), IntAt(json, q + "packets_started")) << q;
    EXPECT_EQ(static_cast<int64_t>(t.counts.completed), IntAt(json, q + "packets_completed")) << q;
    EXPECT_EQ(static_cast<int64_t>(t.counts.running_at_end), IntAt(json, q + "packets_running_at_end"))
        << q;
    EXPECT_EQ(static_cast<int64_t>(t.signals_executed), IntAt(json, q + "signals_executed")) << q;
    EXPECT_EQ(static_cast<int64_t>(t.waits_unblocked), IntAt(json, q + "waits_unblocked")) << q;
  }
  EXPECT_EQ(static_cast<int64_t>(stats.interrupts.total), IntAt(json, "interrupts.total"));
  EXPECT_EQ(static_cast<int64_t>(stats.interrupts.spurious), IntAt(json, "interrupts.spurious"));
  EXPECT_EQ(static_cast<int64_t>(stats.interrupts.peak_per_ms), IntAt(json, "interrupts.peak_per_ms"));
  EXPECT_EQ(static_cast<int64_t>(stats.cpu_waits_released), IntAt(json, "fences.cpu_waits_released"));
  for (const char* kind : {"gpu", "cpu"}) {
    const auto& g = std::string(kind) == "gpu" ? stats.latency.gpu : stats.latency.cpu;
    const std::string l = std::string("latency.") + kind + ".";
    EXPECT_EQ(static_cast<int64_t>(g.to_unblock.count), IntAt(json, l + "to_unblock.count"));
    EXPECT_EQ(g.to_unblock.p50, IntAt(json, l + "to_unblock.p50_ns")) << kind;
    EXPECT_EQ(g.to_unblock.p90, IntAt(json, l + "to_unblock.p90_ns")) << kind;
    EXPECT_EQ(g.before_reached.p50, IntAt(json, l + "to_unblock_before_reached.p50_ns")) << kind;
    EXPECT_EQ(g.after_reached.p90, IntAt(json, l + "to_unblock_after_reached.p90_ns")) << kind;
    EXPECT_EQ(g.to_signal.p50, IntAt(json, l + "to_signal.p50_ns")) << kind;
  }
  // A selected range is a parameter of the same functions: a range that is the whole trace
  // gives the same figures.
  doc.view.selected_range = {range.start, range.end};
  w.Frame();
  const auto& selected = w.main.range_stats().StatsFor(doc, views::RangeStatsView::RangeShown(doc));
  EXPECT_EQ(selected.queue_time.queues[0].busy_ns, IntAt(json, "queues[0].busy_ns"));
}

// Regression: the window collected its own findings beside the report's.
TEST(OneDefinitionWindow, FindingsAreTheReportsFindings) {
  ScratchDir dir;
  for (const char* scenario : {"log_overrun", "never_signalled", "default"}) {
    Window w(dir, scenario);
    ASSERT_NE(w.main.document(), nullptr) << scenario;
    const auto& shown = w.main.findings().FindingsOf(w.doc());
    Json report = RunFencescopeJson("report " + Quote(w.trace) + " --format json");
    EXPECT_EQ(static_cast<int64_t>(shown.size()), IntAt(report, "findings.count")) << scenario;
    const Json* list = FindPath(report, "findings.list");
    ASSERT_NE(list, nullptr);
    ASSERT_LE(list->size(), shown.size()) << scenario;
    for (size_t i = 0; i < list->size(); ++i) {
      const Json& f = list->items()[i];
      EXPECT_EQ(shown[i].kind, f.Find("kind")->String()) << scenario << " " << i;
      EXPECT_EQ(shown[i].ts, f.Find("ts_ns")->Int()) << scenario << " " << i;
      EXPECT_EQ(shown[i].message, f.Find("message")->String()) << scenario << " " << i;
    }
  }
}

// Regression: the interrupt row said "peak 80/ms" (one interrupt in a 12.5 us pixel bucket,
// scaled to a millisecond) while the Interrupts panel said 1.
TEST(OneDefinitionWindow, InterruptRowAndPanelShowOnePeakRate) {
  ScratchDir dir;
  Window w(dir, "default");
  state::Document& doc = w.doc();
  state::FitAll(doc.view);
  w.Frame();
  Json json = RunFencescopeJson("report " + Quote(w.trace) + " --format json");
  const auto& model = doc.model;
  size_t rows = 0;
  for (size_t t = 0; t < model.tracks.size(); ++t) {
    if (model.tracks[t].kind != timeline::TrackKind::kInterrupts) continue;
    const auto* adapter = doc.store.FindAdapter(model.tracks[t].id);
    ASSERT_NE(adapter, nullptr);
    int64_t panel = -1;
    for (const auto& a : doc.analysis.interrupts.per_adapter) {
      if (a.adapter == model.tracks[t].id) panel = static_cast<int64_t>(a.peak_per_ms);
    }
    const Json* per_adapter = FindPath(json, "interrupt_rate.per_adapter");
    ASSERT_NE(per_adapter, nullptr);
    int64_t reported = -2;
    for (const Json& a : per_adapter->items()) {
      if (a.Find("adapter")->String() == adapter->name) reported = a.Find("peak_per_ms")->Int();
    }
    const auto& draw = w.main.timeline().cache().Track(t);
    EXPECT_EQ(static_cast<int64_t>(draw.peak_per_ms), panel) << adapter->name;
    EXPECT_EQ(panel, reported) << adapter->name;
    EXPECT_EQ(timeline::PeakRateLabel(draw.peak_per_ms),
              "peak " + std::to_string(reported) + " per ms");
    ++rows;
  }
  EXPECT_GT(rows, 0u);
}

}  // namespace
