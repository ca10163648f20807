// Progressive opening: a trace opens on a worker thread while the window keeps drawing frames;
// the outline (tracks and event density, from the block index) shows before the timeline; and a
// second trace asked for while the first still loads is the one that opens.
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <cstdlib>
#include <thread>
#include <numeric>

#include "app/gui/bench/synthetic_workload.h"
#include "app/gui/platform/headless_context.h"
#include "app/gui/views/main_window.h"
#include "core/store/trace_outline.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"
#include "tests/ui/window_test_env.h"

namespace {

using namespace app::gui;  // NOLINT
using namespace test_support;  // NOLINT

void Frame(views::MainWindow& main) {
  ImGui::NewFrame();
  main.DrawFrame();
  ImGui::Render();
  main.ApplyRequests();
}

TEST(TraceOutline, CountsAreTheEventsOfEachQueueAndThread) {
  ScratchDir dir;
  const auto trace = SimulateTrace(dir / "t.db", "async_compute_graphics --duration-ms 40");
  const auto outline = core::store::ReadTraceOutline(trace, 50);
  EXPECT_EQ(std::to_string(outline.events), FirstCell(trace, "SELECT count(*) FROM events"));
  EXPECT_EQ(std::to_string(outline.start), FirstCell(trace, "SELECT value FROM meta WHERE key = 'start_ns'"));
  size_t queues = 0;
  for (const auto& t : outline.tracks) {
    const uint64_t sum = std::accumulate(t.events.begin(), t.events.end(), uint64_t{0});
    const std::string column = t.thread ? "thread_id" : "queue_id";
    EXPECT_EQ(std::to_string(sum),
              FirstCell(trace, "SELECT count(*) FROM events WHERE " + column + " = " +
                                   std::to_string(t.id)))
        << t.label;
    queues += t.thread ? 0 : 1;
  }
  EXPECT_EQ(std::to_string(queues), FirstCell(trace, "SELECT count(*) FROM queues"));
}

TEST(ProgressiveOpen, FramesGoOnWhileATraceLoadsAndTheOutlineShowsFirst) {
  ScratchDir dir;
  setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1);
  const auto big = dir / "big.db";
  const auto small = dir / "small.db";
  bench::WriteSyntheticWorkload(big, 1'000'000);
  bench::WriteSyntheticWorkload(small, 2000);
  platform::HeadlessContext context(1280, 800);
  views::MainWindow main({}, {});
  main.RequestOpen(big);
  main.ApplyRequests();
  int frames_while_loading = 0, frames_with_outline = 0;
  double longest_frame = 0;
  while (main.Loading()) {
    const auto t0 = std::chrono::steady_clock::now();
    Frame(main);
    longest_frame = std::max(
        longest_frame, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    ++frames_while_loading;
    frames_with_outline += main.ShowingOutline() ? 1 : 0;
  }
  Frame(main);
  ASSERT_NE(main.document(), nullptr);
  EXPECT_EQ(main.document()->path, big);
  // The window drew frames all along (not one frame blocked for the whole load), the outline
  // among them.
  EXPECT_GT(frames_while_loading, 3);
  EXPECT_GT(frames_with_outline, 0);
  EXPECT_FALSE(main.ShowingOutline());  // the timeline replaced it

  // A second trace asked for while the first loads is the one that opens.
  main.RequestOpen(big);
  main.ApplyRequests();
  main.RequestOpen(small);
  main.ApplyRequests();
  while (main.Loading()) Frame(main);
  Frame(main);
  EXPECT_EQ(main.document()->path, small);
  // The earlier request opens too, as a tab behind the shown trace, once it has loaded.
  for (int i = 0; i < 2000 && main.OpenDocuments() < 3; ++i) {
    Frame(main);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(main.OpenDocuments(), 3u);
  EXPECT_EQ(main.document()->path, small);
  // Closing the shown trace shows the one opened last among the others.
  main.RequestClose();
  main.ApplyRequests();
  Frame(main);
  EXPECT_EQ(main.OpenDocuments(), 2u);
  ASSERT_NE(main.document(), nullptr);
  EXPECT_EQ(main.document()->path, big);
}

TEST(ProgressiveOpen, SeveralFilesOnTheCommandLineOpenAsTabs) {
  ASSERT_TRUE(HaveDisplay()) << kNeedsDisplay;
  ScratchDir dir;
  IsolateUserDirs(dir);
  const auto a = SimulateTrace(dir / "a.db", "default --duration-ms 30");
  const auto b = SimulateTrace(dir / "b.db", "async_compute_graphics --duration-ms 30");
  auto one = RunFencescope("view " + Quote(a) + " --screenshot " + Quote(dir / "one.png"));
  ASSERT_EQ(one.exit_code, 0) << one.err;
  auto two = RunFencescope("view " + Quote(a) + " " + Quote(b) + " --screenshot " +
                           Quote(dir / "two.png"));
  ASSERT_EQ(two.exit_code, 0) << two.err;
  // The same trace shown, with a tab bar above it: the pictures differ.
  EXPECT_NE(ReadFile(dir / "one.png"), ReadFile(dir / "two.png"));
  auto bad = RunFencescope("view " + Quote(a) + " " + Quote(dir / "missing.db") +
                           " --screenshot " + Quote(dir / "three.png"));
  ExpectFailure(bad, 1, "missing.db");
}

}  // namespace
