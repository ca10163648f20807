// The window on a Vulkan capture: `fencescope capture` of vkcube for a fixed number of frames
// on the machine's Vulkan driver (Mesa's lavapipe in CI, under Xvfb), opened like any trace. The
// queue row draws the packets with their signal and wait boxes, the presents are markers, the
// vkcube thread's row draws its CPU waits, and arrows join signals to the waits they released.
// Skipped, saying why, where vkcube cannot run (no display, not installed, no Vulkan driver).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "app/gui/views/main_window.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"
#include "tests/ui/window_test_env.h"

namespace {

using namespace app::gui;  // NOLINT
using test_support::Quote;
using test_support::RunCommand;
using test_support::RunFencescope;

constexpr int kFrames = 30;

// Empty when vkcube runs here; else why it cannot.
std::string VkcubeUnavailable() {
  if (!test_support::HaveDisplay()) return "no display (DISPLAY unset): run under xvfb-run";
  if (RunCommand("command -v vkcube").exit_code != 0) {
    return "vkcube is not installed (vulkan-tools)";
  }
  auto run = RunCommand("LP_NUM_THREADS=1 vkcube --c 1");
  if (run.exit_code != 0) {
    return fmt::format("vkcube does not run here (exit {}): {}", run.exit_code, run.err);
  }
  return {};
}

size_t Items(const timeline::Track& track, timeline::LaneKind kind) {
  size_t n = 0;
  for (const auto& lane : track.lanes) {
    if (lane.kind == kind) n += lane.size();
  }
  return n;
}

size_t Presents(const timeline::Track& track) {
  size_t n = 0;
  for (const auto& marks : track.marks) {
    if (marks.kind != timeline::MarkKind::kMarkers) continue;
    for (size_t i = 0; i < marks.size(); ++i) {
      n += marks.marker_type[i] == timeline::kMarkerPresent;
    }
  }
  return n;
}

TEST(VulkanCaptureWindow, VkcubeCaptureDrawsPacketsPresentsAndCpuWaits) {
  if (auto why = VkcubeUnavailable(); !why.empty()) GTEST_SKIP() << why;
  test_support::ScratchDir dir;
  test_support::IsolateUserDirs(dir);
  setenv("LP_NUM_THREADS", "1", 1);
  const auto db = dir / "vkcube.db";
  auto run = RunFencescope(fmt::format("capture -o {} -- vkcube --c {}", Quote(db), kFrames));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;

  test_support::HeadlessWindow window(1600, 1000);
  views::MainWindow main({}, dir / "settings.txt");
  main.OpenNow(db);
  ASSERT_NE(main.document(), nullptr);
  state::FitAll(main.document()->view);
  window.Frames(main, 3);

  const auto& model = main.document()->model;
  int queue = -1, thread = -1;
  for (size_t i = 0; i < model.tracks.size(); ++i) {
    const auto& track = model.tracks[i];
    if (track.kind == timeline::TrackKind::kQueue && queue < 0) queue = int(i);
    if (track.kind == timeline::TrackKind::kThread && Items(track, timeline::LaneKind::kCpuWaits)) {
      thread = int(i);
    }
  }
  ASSERT_GE(queue, 0) << "no queue row";
  ASSERT_GE(thread, 0) << "no thread row with CPU waits";
  // vkcube submits at least one batch per frame, each waiting for its acquire semaphore and
  // signalling its present semaphore and frame fence; it presents once per frame and waits for
  // its frame fences on the CPU (the first frames' fences were created signalled). A present
  // marks both the queue it was queued on and the thread that presented.
  EXPECT_GE(Items(model.tracks[queue], timeline::LaneKind::kRunSegments), size_t(kFrames));
  EXPECT_GE(Items(model.tracks[queue], timeline::LaneKind::kWaits), size_t(kFrames));
  EXPECT_GE(Items(model.tracks[queue], timeline::LaneKind::kSignals), size_t(2 * kFrames));
  EXPECT_EQ(Presents(model.tracks[queue]), size_t(kFrames));
  EXPECT_EQ(Presents(model.tracks[thread]), size_t(kFrames));
  EXPECT_GE(Items(model.tracks[thread], timeline::LaneKind::kCpuWaits), size_t(kFrames - 2));

  // Drawn at full zoom-out: the queue row's and the thread row's lanes have items in view, and
  // arrows (or bundles of them) join the signals to the waits they released.
  const auto& cache = main.timeline().cache();
  auto drawn = [&](int track) {
    size_t n = 0;
    for (const auto& lane : cache.Track(size_t(track)).lanes) n += lane.size();
    return n;
  };
  EXPECT_GT(drawn(queue), 0u);
  EXPECT_GT(drawn(thread), 0u);
  EXPECT_GT(cache.items(), 0u);
  EXPECT_GT(main.timeline().links().arrows + main.timeline().links().bundles, 0u);
}

}  // namespace
