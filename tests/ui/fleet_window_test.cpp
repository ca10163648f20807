// `fencescope view FLEETDIR`: the fleet window over a generated fleet (tests/fleet/make_fleet.py),
// drawn headless; a heat-map cell asks for its rank's trace at its step, checked against the
// ProfilerStep slice of that rank's raw file, and the window opens it zoomed to that step.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "app/gui/views/fleet_view.h"
#include "app/gui/views/main_window.h"
#include "tests/support/json_text.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"

namespace {

using core::report::Json;
using test_support::Quote;

TEST(FleetWindow, HeatMapCellOpensThatRankAtThatStep) {
  test_support::ScratchDir dir;
  auto gen = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/fleet/make_fleet.py") + " --out " +
      Quote(dir / "gen") + " --ranks 4 --steps 3 --slow 2:1:1.7");
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  auto imported = test_support::RunFencescope("fleet import " + Quote(dir / "gen/ranks") + " -o " +
                                              Quote(dir / "fleet"));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;

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

}  // namespace
