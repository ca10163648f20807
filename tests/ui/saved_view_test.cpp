// Per-trace view state kept between runs: the file round-trips every field (the What-if
// panel's question too), is refused for another trace (span or track tree differ) or when
// malformed, and the window restores it when the same trace is opened again.
#include <gtest/gtest.h>
#include <imgui.h>

#include <fstream>

#include "app/gui/platform/headless_context.h"
#include "app/gui/state/saved_view.h"
#include "app/gui/state/simulation_job.h"
#include "app/gui/views/main_window.h"
#include "tests/support/test_support.h"

namespace {

using namespace app::gui::state;  // NOLINT

ViewState FreshView(TimeRange trace, size_t tracks, size_t groups) {
  ViewState view;
  ResetView(view, trace, tracks, groups);
  return view;
}

TEST(SavedView, EveryFieldRoundTrips) {
  test_support::ScratchDir dir;
  ViewState view = FreshView({1000, 901000}, 3, 2);
  view.visible = {2000, 7000};
  view.selected_range = {2500, 2600};
  view.bookmarks = {{3000, "first frame"}, {4000, "bookmark 2"}};
  view.track_order = {2, 0, 1};
  view.track_hidden = {0, 1, 0};
  view.group_collapsed = {1, 0};
  view.track_expanded = {0, 0, 1};
  auto file = dir / "views" / "t.view";
  ASSERT_TRUE(SaveView(view, "/traces/t.db", file));

  ViewState loaded = FreshView({1000, 901000}, 3, 2);
  ASSERT_TRUE(LoadView(loaded, file));
  EXPECT_EQ(loaded.visible.start, 2000);
  EXPECT_EQ(loaded.visible.end, 7000);
  EXPECT_EQ(loaded.selected_range.start, 2500);
  EXPECT_EQ(loaded.selected_range.end, 2600);
  ASSERT_EQ(loaded.bookmarks.size(), 2u);
  EXPECT_EQ(loaded.bookmarks[0].ts, 3000);
  EXPECT_EQ(loaded.bookmarks[0].label, "first frame");
  EXPECT_EQ(loaded.bookmarks[1].label, "bookmark 2");
  EXPECT_EQ(loaded.track_order, (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(loaded.track_hidden, (std::vector<uint8_t>{0, 1, 0}));
  EXPECT_EQ(loaded.group_collapsed, (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(loaded.track_expanded, (std::vector<uint8_t>{0, 0, 1}));
}

TEST(SavedView, AnotherTraceKeepsItsDefaultView) {
  test_support::ScratchDir dir;
  ViewState view = FreshView({1000, 901000}, 3, 2);
  view.bookmarks = {{3000, "b"}};
  auto file = dir / "t.view";
  ASSERT_TRUE(SaveView(view, "t.db", file));

  ViewState other_span = FreshView({1000, 902000}, 3, 2);
  EXPECT_FALSE(LoadView(other_span, file));
  EXPECT_TRUE(other_span.bookmarks.empty());
  ViewState other_tracks = FreshView({1000, 901000}, 4, 2);
  EXPECT_FALSE(LoadView(other_tracks, file));
  EXPECT_EQ(other_tracks.track_order.size(), 4u);
  ViewState missing = FreshView({1000, 901000}, 3, 2);
  EXPECT_FALSE(LoadView(missing, dir / "absent.view"));
}

TEST(SavedView, MalformedFileIsRefused) {
  test_support::ScratchDir dir;
  ViewState view = FreshView({0, 1000}, 3, 1);
  auto file = dir / "t.view";
  ASSERT_TRUE(SaveView(view, "t.db", file));
  std::string text = test_support::ReadFile(file);
  // An order that is not a permutation of the tracks would index past the model.
  auto at = text.find("order = 0 1 2");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 13, "order = 0 1 7");
  std::ofstream(file) << text;
  ViewState loaded = FreshView({0, 1000}, 3, 1);
  EXPECT_FALSE(LoadView(loaded, file));
  EXPECT_EQ(loaded.track_order, (std::vector<int>{0, 1, 2}));

  std::ofstream(file) << "trace = 0 1000\ntracks = 3\ngroups = 1\nvisible = ten 20\n";
  EXPECT_FALSE(LoadView(loaded, file));
}

// Every kind of edit, with a label, as the What-if panel holds a question.
SavedWhatIf EveryEdit() {
  SavedWhatIf q;
  q.label = "What if gemm 1 were 2x faster?";
  q.edits.scale = {{"gemm 1", 0.5}, {"copy*", 1.0 / 3.0}};
  q.edits.scale_queue = {{"3d queue", 2}};
  q.edits.remove_wait = {42};
  q.edits.remove_waits = {{"compute queue", "copy queue <- 2"}};
  q.edits.remove_sync = {"cudaStreamSynchronize"};
  q.edits.remove_cpu_waits = {"render thread"};
  q.edits.remove_cpu_wait = {7};
  q.edits.cpu_scale = 0.25;
  q.edits.launch_latency_ns = 1500;
  q.edits.priority = {{"compute queue", -2}};
  q.edits.fence_mode = "native";
  q.edits.preemption_granularity = "dma";
  return q;
}

TEST(SavedView, TheWhatIfQuestionRoundTrips) {
  test_support::ScratchDir dir;
  ViewState view = FreshView({0, 1000}, 3, 1);
  view.whatif = EveryEdit();
  auto file = dir / "t.view";
  ASSERT_TRUE(SaveView(view, "t.db", file));
  ViewState loaded = FreshView({0, 1000}, 3, 1);
  ASSERT_TRUE(LoadView(loaded, file));
  EXPECT_EQ(loaded.whatif.label, view.whatif.label);
  // Describe() prints every edit as `fencescope whatif` takes it; the 1/3 factor must come back
  // to the last bit.
  EXPECT_EQ(loaded.whatif.edits.Describe(), view.whatif.edits.Describe());
  ASSERT_EQ(loaded.whatif.edits.scale.size(), 2u);
  EXPECT_EQ(loaded.whatif.edits.scale[1].second, 1.0 / 3.0);
  EXPECT_EQ(loaded.whatif.edits.remove_waits[0].second, "copy queue <- 2");

  // No question: no what-if line, and none loaded.
  view.whatif = {};
  ASSERT_TRUE(SaveView(view, "t.db", file));
  EXPECT_EQ(test_support::ReadFile(file).find("whatif"), std::string::npos);
  loaded.whatif = EveryEdit();
  ASSERT_TRUE(LoadView(loaded, file));
  EXPECT_TRUE(loaded.whatif.Empty());
}

TEST(SavedView, AMalformedWhatIfLineRefusesTheFile) {
  test_support::ScratchDir dir;
  ViewState view = FreshView({0, 1000}, 3, 1);
  auto file = dir / "t.view";
  ASSERT_TRUE(SaveView(view, "t.db", file));
  const std::string text = test_support::ReadFile(file);
  for (const char* line : {"whatif_scale = half gemm\n", "whatif_scale = -1 gemm\n",
                           "whatif_remove_wait = 12x\n", "whatif_remove_waits = no tab\n",
                           "whatif_cpu_scale = nan\n"}) {
    std::ofstream(file) << text << line;
    ViewState loaded = FreshView({0, 1000}, 3, 1);
    EXPECT_FALSE(LoadView(loaded, file)) << line;
  }
}

TEST(SavedView, TheWindowRestoresBookmarksAndRangeOfTheSameTrace) {
  test_support::ScratchDir dir;
  SimulationRequest request;
  request.output = dir / "default.db";
  ASSERT_GT(Simulate(request), 0u);
  app::gui::platform::HeadlessContext context(1280, 800);
  const auto settings_file = dir / "config" / "settings.txt";
  std::filesystem::create_directories(settings_file.parent_path());
  TimeRange visible;
  {
    app::gui::views::MainWindow main({}, settings_file);
    main.OpenNow(request.output);
    auto& view = main.document()->view;
    ZoomAround(view, view.visible.start, 0.25);
    visible = view.visible;
    view.bookmarks.push_back({view.visible.start + 10, "stall here"});
    view.track_hidden[0] = 1;
    // A question in the What-if panel about this trace (not predicted: Show).
    main.whatif().Show(request.output, EveryEdit().edits, EveryEdit().label);
  }
  app::gui::views::MainWindow again({}, settings_file);
  again.OpenNow(request.output);
  const auto& view = again.document()->view;
  ASSERT_EQ(view.bookmarks.size(), 1u);
  EXPECT_EQ(view.bookmarks[0].label, "stall here");
  EXPECT_EQ(view.visible.start, visible.start);
  EXPECT_EQ(view.visible.end, visible.end);
  EXPECT_EQ(view.track_hidden[0], 1);
  // The panel shows the same question again, about the same trace.
  EXPECT_EQ(again.whatif().trace(), request.output);
  EXPECT_EQ(again.whatif().label(), EveryEdit().label);
  EXPECT_EQ(again.whatif().edits().Describe(), EveryEdit().edits.Describe());
}

}  // namespace
