// Progressive opening: a trace opens on a worker thread while the window keeps drawing frames;
// the outline (tracks and event density, from the block index) shows before the timeline; and a
// second trace asked for while the first still loads is the one that opens.
#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <numeric>

#include "app/gui/bench/synthetic_workload.h"
#include "app/gui/platform/headless_context.h"
#include "app/gui/views/main_window.h"
#include "core/store/trace_outline.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

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
  for (int i = 0; i < 200 && main.document()->path != small; ++i) Frame(main);
  EXPECT_EQ(main.document()->path, small);
}

}  // namespace
