// The SQL console's query runs off the UI thread: frames go on while a runaway query runs, the
// console shows "Running..." with a Stop button, a click on Stop ends the query ("stopped after
// N s") and the console runs the next query. Driven through ImGui's input state, headless.
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <thread>

#include "app/gui/views/main_window.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"

namespace {

using namespace app::gui;  // NOLINT
using Clock = std::chrono::steady_clock;

class SqlConsoleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    main_.SetDocument(state::MakeDocument(hand_trace::WriteNamedPacketTrace(dir_ / "n.db")));
    ASSERT_NE(main_.document(), nullptr);
    main_.ShowPanel(views::Panel::kSql);
    Frame();
  }
  void Frame() { window_.Frame(main_); }
  // Frames, 10 ms apart, until `done` or `bound` has passed; whether `done` became true.
  template <class Done>
  bool FramesUntil(Done done, std::chrono::milliseconds bound) {
    const auto until = Clock::now() + bound;
    while (!done()) {
      if (Clock::now() > until) return false;
      Frame();
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    Frame();
    return true;
  }
  views::SqlConsoleView& console() { return main_.sql_console(); }

  test_support::ScratchDir dir_;
  test_support::HeadlessWindow window_;
  views::MainWindow main_{{}, {}};
};

TEST_F(SqlConsoleTest, StopEndsARunawayQueryAndTheConsoleRunsTheNext) {
  console().Run(*main_.document(),
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                "SELECT count(*) FROM c");
  // The frames keep coming while it runs (each one returns at once).
  const auto before = Clock::now();
  for (int i = 0; i < 20; ++i) {
    Frame();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(console().Running());
  EXPECT_EQ(console().status().rfind("Running... ", 0), 0u) << console().status();
  EXPECT_LT(Clock::now() - before, std::chrono::seconds(10));

  // Click Stop as a user would: move there, press, release.
  const ImVec2 a = console().stop_button_min(), b = console().stop_button_max();
  ASSERT_GT(b.x - a.x, 0.0f);
  ASSERT_GT(b.y - a.y, 0.0f);
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
  Frame();
  io.MouseDown[0] = true;
  Frame();
  io.MouseDown[0] = false;
  Frame();
  ASSERT_TRUE(FramesUntil([&] { return !console().Running(); }, std::chrono::seconds(3)))
      << "the query did not stop";
  EXPECT_EQ(console().status().rfind("stopped after ", 0), 0u) << console().status();
  EXPECT_EQ(console().stop_button_max().x, 0.0f);  // Run is back

  // The console is usable: the next query runs and shows its rows.
  console().Run(*main_.document(), "SELECT name FROM pragma_table_info('meta')");
  ASSERT_TRUE(FramesUntil([&] { return !console().Running(); }, std::chrono::seconds(10)));
  EXPECT_EQ(console().status(), "2 rows");
}

TEST_F(SqlConsoleTest, ErrorsAreShownAndTheWindowGoesAwayWhileAQueryRuns) {
  console().Run(*main_.document(), "SELECT nope FROM nowhere");
  console().Wait();
  Frame();
  EXPECT_FALSE(console().Running());
  EXPECT_EQ(console().status(), "");
  // A query still running when the window is destroyed is stopped, not waited for.
  console().Run(*main_.document(),
                "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                "SELECT count(*) FROM c");
  Frame();
  EXPECT_TRUE(console().Running());
}

}  // namespace
