// Per-trace view state kept between runs: the file round-trips every field, is refused for
// another trace (span or track tree differ) or when malformed, and the window restores it when
// the same trace is opened again.
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
  }
  app::gui::views::MainWindow again({}, settings_file);
  again.OpenNow(request.output);
  const auto& view = again.document()->view;
  ASSERT_EQ(view.bookmarks.size(), 1u);
  EXPECT_EQ(view.bookmarks[0].label, "stall here");
  EXPECT_EQ(view.visible.start, visible.start);
  EXPECT_EQ(view.visible.end, visible.end);
  EXPECT_EQ(view.track_hidden[0], 1);
}

}  // namespace
