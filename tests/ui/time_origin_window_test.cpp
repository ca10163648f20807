// `view --window` and `--range` count from the trace's start, take @NS absolute values, and
// refuse a range outside the trace with its span; the window opens at the range asked for. The
// trace starts at 5000 s on its clock.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "app/gui/platform/headless_context.h"
#include "app/gui/views/main_window.h"
#include "app/gui/window_runner.h"
#include "core/model/error.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

namespace {

constexpr int64_t kBase = 5'000'000'000'000;
constexpr int64_t kMs = 1'000'000;

std::string Absolute(int64_t ns) {
  return fmt::format("@{}", ns);
}

class TimeOriginWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    path = dir / "late.db";
    hand_trace::HandTrace t(path);
    const auto q = t.Queue("gfx");
    const auto th = t.Thread("main");
    for (int i = 0; i < 10; ++i) {
      t.Packet(q, th, i + 1, kBase + i * 10 * kMs, kBase + i * 10 * kMs + kMs,
               kBase + i * 10 * kMs + 5 * kMs);
    }
    t.Finish(kBase, kBase + 100 * kMs);
    main.OpenNow(path);
  }
  app::gui::state::ViewState& View() { return main.document()->view; }

  test_support::ScratchDir dir;
  std::filesystem::path path;
  app::gui::platform::HeadlessContext context{1280, 800};
  app::gui::views::MainWindow main{{}, dir / "settings.txt"};
};

}  // namespace

TEST_F(TimeOriginWindow, WindowAndRangeCountFromTheTraceStart) {
  app::gui::RunOptions options;
  options.window = {"20ms", "30000000"};
  options.range = {"22ms", "25ms"};
  app::gui::ApplyOptions(main, options);
  EXPECT_EQ(View().visible.start, kBase + 20 * kMs);
  EXPECT_EQ(View().visible.end, kBase + 30 * kMs);
  EXPECT_EQ(View().selected_range.start, kBase + 22 * kMs);
  EXPECT_EQ(View().selected_range.end, kBase + 25 * kMs);
}

TEST_F(TimeOriginWindow, AbsoluteValuesWithAnAt) {
  app::gui::RunOptions options;
  options.window = {Absolute(kBase + 40 * kMs), Absolute(kBase + 50 * kMs)};
  app::gui::ApplyOptions(main, options);
  EXPECT_EQ(View().visible.start, kBase + 40 * kMs);
  EXPECT_EQ(View().visible.end, kBase + 50 * kMs);
}

TEST_F(TimeOriginWindow, OutsideTheTraceIsAnErrorNamingItsSpan) {
  const app::gui::state::TimeRange before = View().visible;
  for (const auto& window : std::vector<std::vector<std::string>>{
           {"1000000000", "1030000000"}, {"@1000000000", "@1030000000"}, {"200ms", "300ms"}}) {
    app::gui::RunOptions options;
    options.window = window;
    try {
      app::gui::ApplyOptions(main, options);
      ADD_FAILURE() << window[0] << " " << window[1] << " was accepted";
    } catch (const core::Error& e) {
      EXPECT_NE(std::string(e.what()).find("late.db spans 0 .. 100.000 ms from its start "
                                           "(@5000000000000 .. @5000100000000 ns)"),
                std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(View().visible.start, before.start);
  EXPECT_EQ(View().visible.end, before.end);
}

TEST(TimeOriginCli, ViewRefusesAWindowOutsideTheTrace) {
  test_support::ScratchDir dir;
  const auto path = dir / "late.db";
  {
    hand_trace::HandTrace t(path);
    const auto q = t.Queue("gfx");
    const auto th = t.Thread("main");
    t.Packet(q, th, 1, kBase, kBase + kMs, kBase + 2 * kMs);
    t.Finish(kBase, kBase + 10 * kMs);
  }
  const auto r = test_support::RunFencescope(
      "view " + test_support::Quote(path) + " --screenshot " +
      test_support::Quote(dir / "out.png") + " --window 1000000000 1030000000");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--window 1000000000 1030000000: outside the trace"), std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
}
