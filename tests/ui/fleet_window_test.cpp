// `fencescope view FLEETDIR`: the fleet window over a generated fleet (tests/fleet/make_fleet.py),
// drawn headless; a heat-map cell asks for its rank's trace at its step, checked against the
// ProfilerStep slice of that rank's raw file, and the window opens it zoomed to that step.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <thread>

#include "app/gui/views/fleet_heat_map.h"
#include "app/gui/views/fleet_view.h"
#include "app/gui/views/main_window.h"
#include "tests/support/json_text.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"
#include "tests/ui/png_pixels.h"

namespace {

using core::report::Json;
using test_support::Quote;

// A fleet of 4 ranks and `steps` steps from tests/fleet/make_fleet.py (`slow`: its --slow options)
// in DIR/gen, imported into DIR/fleet.
void MakeFleet(const std::filesystem::path& dir, const std::string& slow, int steps = 3) {
  auto gen = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/fleet/make_fleet.py") + " --out " +
      Quote(dir / "gen") + " --ranks 4 --steps " + std::to_string(steps) + " " + slow);
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  auto imported = test_support::RunFencescope("fleet import " + Quote(dir / "gen/ranks") + " -o " +
                                              Quote(dir / "fleet"));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
}

// Opens the fleet in a headless main window and draws each of its tabs for a few frames.
void DrawEveryTab(std::unique_ptr<app::gui::views::FleetView> fleet) {
  app::gui::views::FleetView* view = fleet.get();
  app::gui::views::MainWindow main({}, {});
  main.OpenNow(fleet->FirstDatabase());
  main.SetFleet(std::move(fleet));
  test_support::HeadlessWindow window;
  using Tab = app::gui::views::FleetView::Tab;
  for (Tab tab : {Tab::kHeatMap, Tab::kTimeline, Tab::kStragglers, Tab::kRanks}) {
    view->ShowTab(tab);
    window.Frames(main, 3);
  }
}

TEST(FleetWindow, HeatMapCellOpensThatRankAtThatStep) {
  test_support::ScratchDir dir;
  ASSERT_NO_FATAL_FAILURE(MakeFleet(dir.path(), "--slow 2:1:1.7"));

  ASSERT_TRUE(app::gui::views::IsFleetDirectory(dir / "fleet"));
  EXPECT_FALSE(app::gui::views::IsFleetDirectory(dir / "gen"));
  std::unique_ptr<app::gui::views::FleetView> fleet = app::gui::views::LoadFleet(dir / "fleet");
  ASSERT_EQ(fleet->analysis().ranks.size(), 4u);
  const Json truth = test_support::ParseJsonText(test_support::ReadFile(dir / "gen/truth.json"));
  EXPECT_EQ(fleet->analysis().steps.at(1).straggler.rank,
            truth.Find("steps")->items().at(1).Find("straggler")->Int());

  // Rank 2, step 1: its database, and the step as the raw file's ProfilerStep#1 says (us -> ns).
  const auto request = fleet->RequestFor(2, 1);
  const std::string inputs = test_support::ReadFile(dir / "fleet/fleet-inputs.txt");
  EXPECT_NE(inputs.find("worker_2.pt.trace.json"), std::string::npos);
  const size_t line = std::count(inputs.begin(), inputs.begin() + inputs.find("worker_2."), '\n');
  EXPECT_EQ(request.database.filename().string(), fmt::format("{:05}.db", line));
  const Json raw = test_support::ParseJsonText(
      test_support::ReadFile(dir / "gen/ranks/worker_2.pt.trace.json"));
  int64_t start = -1, end = -1;
  for (const Json& e : raw.Find("traceEvents")->items()) {
    if (const Json* name = e.Find("name"); name && name->String() == "ProfilerStep#1") {
      start = e.Find("ts")->Int() * 1000;
      end = start + e.Find("dur")->Int() * 1000;
    }
  }
  EXPECT_EQ(request.start, start);
  EXPECT_EQ(request.end, end);

  app::gui::views::MainWindow main({}, {});
  main.OpenNow(fleet->FirstDatabase());
  main.SetFleet(std::move(fleet));
  test_support::HeadlessWindow window;
  window.Frames(main, 3);
  main.RequestOpenAt(request);
  for (int frame = 0; frame < 500; ++frame) {
    window.Frame(main);
    if (main.document() && main.document()->path == request.database) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_NE(main.document(), nullptr);
  EXPECT_EQ(main.document()->path, request.database);
  EXPECT_EQ(main.document()->view.visible.start, start);
  EXPECT_EQ(main.document()->view.visible.end, end);
  window.Frames(main, 2);
}

// The timeline tab: every rank's steps and collectives on the reference rank's clock. By
// construction (tests/fleet/make_fleet.py) a step starts at one true instant on every rank and
// each rank's collective starts at its true arrival; truth.json gives the arrivals and the
// waits, the raw files give the times on each rank's own clock.
TEST(FleetWindow, TimelineShowsRanksOnOneAlignedClock) {
  test_support::ScratchDir dir;
  ASSERT_NO_FATAL_FAILURE(MakeFleet(dir.path(), "--slow 2:1:1.7 --slow 3:2:1.5"));
  std::unique_ptr<app::gui::views::FleetView> fleet = app::gui::views::LoadFleet(dir / "fleet");
  const auto& a = fleet->analysis();
  const Json truth = test_support::ParseJsonText(test_support::ReadFile(dir / "gen/truth.json"));
  ASSERT_EQ(a.lanes.size(), 4u);
  ASSERT_EQ(a.reference_rank, 0);

  // Rank 0's raw ProfilerStep#k and NCCL kernel starts (its clock is the reference's).
  const Json raw0 = test_support::ParseJsonText(
      test_support::ReadFile(dir / "gen/ranks/worker_0.pt.trace.json"));
  std::vector<int64_t> step_start(3, -1), nccl_start, nccl_end;
  for (const Json& e : raw0.Find("traceEvents")->items()) {
    const Json* name = e.Find("name");
    if (!name) continue;
    for (int k = 0; k < 3; ++k) {
      if (name->String() == fmt::format("ProfilerStep#{}", k))
        step_start[k] = e.Find("ts")->Int() * 1000;
    }
    if (name->String().find("nccl") != std::string::npos && e.Find("dur")) {
      nccl_start.push_back(e.Find("ts")->Int() * 1000);
      nccl_end.push_back((e.Find("ts")->Int() + e.Find("dur")->Int()) * 1000);
    }
  }
  ASSERT_EQ(nccl_start.size(), 3u);
  for (size_t r = 0; r < 4; ++r) {
    const auto& lane = a.lanes[r];
    ASSERT_EQ(lane.steps.size(), 3u) << "rank " << r;
    ASSERT_EQ(lane.collectives.size(), 3u) << "rank " << r;
    for (size_t k = 0; k < 3; ++k) {
      const Json& step = truth.Find("steps")->items().at(k);
      const int64_t arrival_r = step.Find("arrival_ns")->items().at(r).Int();
      const int64_t arrival_0 = step.Find("arrival_ns")->items().at(0).Int();
      const int64_t straggler = step.Find("straggler")->Int();
      EXPECT_EQ(lane.steps[k].start_ns, step_start[k]) << "rank " << r << " step " << k;
      EXPECT_EQ(lane.collectives[k].start_ns, nccl_start[k] + arrival_r - arrival_0)
          << "rank " << r << " step " << k;
      EXPECT_EQ(lane.collectives[k].end_ns, nccl_end[k]) << "rank " << r << " step " << k;
      EXPECT_EQ(lane.collectives[k].others_arrived - lane.collectives[k].start_ns,
                step.Find("collective_wait_ns")->items().at(r).Int())
          << "rank " << r << " step " << k;
      EXPECT_EQ(lane.collectives[k].straggler, static_cast<int64_t>(r) == straggler)
          << "rank " << r << " step " << k;
    }
  }

  // Fitted to 1000 px: per rank its 3 steps, its 3 collectives, and a red part for each one
  // it waited in (wait > 0 in truth.json).
  auto& timeline = fleet->timeline();
  const auto& items = timeline.Items(a, 1000.0f);
  for (size_t r = 0; r < 4; ++r) {
    size_t expected = 6;
    for (const Json& step : truth.Find("steps")->items()) {
      expected += step.Find("collective_wait_ns")->items().at(r).Int() > 0 ? 1 : 0;
    }
    EXPECT_EQ(std::count_if(items.begin(), items.end(),
                            [&](const auto& item) { return item.rank == r; }),
              static_cast<std::ptrdiff_t>(expected))
        << "rank " << r;
  }
  // Zoomed into step 1 alone: no other step is drawn.
  timeline.SetVisible(a.lanes[0].steps[1].start_ns + 1, a.lanes[0].steps[1].end_ns - 1);
  for (const auto& item : timeline.Items(a, 1000.0f)) {
    if (item.kind == app::gui::views::FleetTimeline::Kind::kStep) {
      EXPECT_EQ(a.lanes[item.rank].steps[item.index].id, 1);
    }
  }

  // Clicking rank 2's step 1 asks for its raw ProfilerStep#1 on its own clock.
  const auto request = fleet->RequestFor(app::gui::views::FleetTimeline::Click{2, 1});
  const Json raw2 = test_support::ParseJsonText(
      test_support::ReadFile(dir / "gen/ranks/worker_2.pt.trace.json"));
  for (const Json& e : raw2.Find("traceEvents")->items()) {
    if (const Json* name = e.Find("name"); name && name->String() == "ProfilerStep#1") {
      EXPECT_EQ(request.start, e.Find("ts")->Int() * 1000);
      EXPECT_EQ(request.end, (e.Find("ts")->Int() + e.Find("dur")->Int()) * 1000);
    }
  }
  EXPECT_EQ(request.database, fleet->RequestFor(2, 1).database);

  // `view FLEETDIR --fleet-tab timeline`: the screenshot shows the waits in red and the
  // stragglers' collectives in orange (FleetTimeline's colours); a tab that does not exist is
  // an error naming the ones that do.
  auto shot = test_support::RunFencescope("view " + Quote(dir / "fleet") +
                                          " --fleet-tab timeline --screenshot " +
                                          Quote(dir / "timeline.png"));
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  int w = 0, h = 0;
  const auto pixels = test_support::PngPixels(dir / "timeline.png", &w, &h);
  ASSERT_FALSE(pixels.empty());
  size_t red = 0, orange = 0;
  for (size_t i = 0; i + 2 < pixels.size(); i += 3) {
    red += pixels[i] == 215 && pixels[i + 1] == 70 && pixels[i + 2] == 60;
    orange += pixels[i] == 240 && pixels[i + 1] == 150 && pixels[i + 2] == 30;
  }
  EXPECT_GT(red, 100u);
  EXPECT_GT(orange, 10u);
  auto bad = test_support::RunFencescope("view " + Quote(dir / "fleet") +
                                         " --fleet-tab nope --screenshot " + Quote(dir / "x.png"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("heat-map, timeline, stragglers, ranks"), std::string::npos) << bad.err;

  // Drawn headless, fitted again.
  test_support::HeadlessWindow window;
  timeline.FitAll(a);
  for (int frame = 0; frame < 3; ++frame) {
    ImGui::NewFrame();
    ImGui::Begin("fleet timeline");
    EXPECT_FALSE(timeline.Draw(a).has_value());
    ImGui::End();
    ImGui::Render();
  }
}

// The heat map's step row: every step id's label fits its column with room to spare (real
// PyTorch traces number steps from 1000 and more, whose labels ran together in 30 px columns),
// and short ids keep the 30 px columns.
TEST(FleetWindow, HeatMapColumnsFitTheirStepIds) {
  test_support::HeadlessWindow window;
  ImGui::NewFrame();  // sets the font the labels are measured in
  for (const std::vector<int64_t>& ids :
       std::vector<std::vector<int64_t>>{{1, 2, 3}, {1009, 1010}, {-5000, 3}, {7, 1234567}}) {
    core::fleet::FleetAnalysis a;
    for (int64_t id : ids) a.steps.emplace_back().step = id;
    const float width = app::gui::views::HeatMapColumnWidth(a);
    EXPECT_GE(width, 30.0f);
    for (int64_t id : ids) {
      const float label = ImGui::CalcTextSize(std::to_string(id).c_str()).x;
      EXPECT_GE(width, label + 6.0f) << "step " << id << " in columns of " << width << " px";
    }
  }
  core::fleet::FleetAnalysis small;
  small.steps.emplace_back().step = 99;
  EXPECT_EQ(app::gui::views::HeatMapColumnWidth(small), 30.0f);
  ImGui::Render();
}

// Runs with no step id in common: every tab draws (the heat map and the straggler list say
// why they are empty), and the timeline lines the runs up by their starts: their clocks are a
// day apart, their lanes begin together.
TEST(FleetWindow, RunsWithNoStepInCommonDrawSideBySide) {
  test_support::ScratchDir dir;
  std::filesystem::create_directories(dir / "runs");
  auto run = [&](const char* file, int64_t origin_us, int step) {
    std::ofstream(dir / "runs" / file)
        << fmt::format(R"({{"traceEvents": [{{"ph": "X", "cat": "user_annotation", )"
                       R"("name": "ProfilerStep#{0}", "pid": 1, "tid": 1, "ts": {1}, )"
                       R"("dur": 1000}}, {{"ph": "X", "cat": "cpu_op", "name": "after", )"
                       R"("pid": 1, "tid": 1, "ts": {2}, "dur": 5}}]}})",
                       step, origin_us, origin_us + 2000);
  };
  run("a.json", 1000, 7);
  run("b.json", 86'400'000'000, 9);  // a day later
  auto imported = test_support::RunFencescope("fleet import " + Quote(dir / "runs") + " -o " +
                                              Quote(dir / "fleet") + " --traces-are runs");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  std::unique_ptr<app::gui::views::FleetView> fleet = app::gui::views::LoadFleet(dir / "fleet");
  const core::fleet::FleetAnalysis& a = fleet->analysis();
  EXPECT_TRUE(a.steps.empty());
  EXPECT_EQ(a.clock_method, "trace_start");
  ASSERT_EQ(a.lanes.size(), 2u);
  ASSERT_EQ(a.lanes[1].steps.size(), 1u);
  EXPECT_EQ(a.lanes[0].steps[0].start_ns, a.lanes[1].steps[0].start_ns);
  EXPECT_EQ(a.lanes_end_ns - a.lanes_start_ns, 1'000'000);  // one step's length, not a day
  DrawEveryTab(std::move(fleet));
}

// More steps than a table has columns (ImGui's tables stop at 64): every tab draws, and the
// heat map's last step is there to click.
TEST(FleetWindow, EveryTabDrawsSeventyStepsOfFourRanks) {
  test_support::ScratchDir dir;
  ASSERT_NO_FATAL_FAILURE(MakeFleet(dir.path(), "--slow 1:69:1.5", 70));
  std::unique_ptr<app::gui::views::FleetView> fleet = app::gui::views::LoadFleet(dir / "fleet");
  ASSERT_EQ(fleet->analysis().steps.size(), 70u);
  EXPECT_EQ(fleet->analysis().steps.back().straggler.rank, 1);
  const auto last = fleet->RequestFor(1, 69);
  EXPECT_EQ(last.end - last.start, fleet->analysis().steps.back().step_ns.at(1));
  DrawEveryTab(std::move(fleet));
}

}  // namespace
