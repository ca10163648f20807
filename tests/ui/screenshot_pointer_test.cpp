// `view --screenshot` shows the trace whatever the X pointer does: the window is mapped on a
// display other programs share, under wherever the pointer is, and a hover highlight or tooltip
// drawn from it would make the same trace's screenshots differ.
#include <gtest/gtest.h>

#include <cstdlib>

#include "tests/support/test_support.h"
#include "tests/ui/window_test_env.h"

// Last: Xlib defines macros (None, Bool, Status) that other headers use as names.
#include <X11/Xlib.h>

namespace {

using namespace test_support;  // NOLINT

void WarpPointer(int x, int y) {
  Display* display = XOpenDisplay(nullptr);
  ASSERT_NE(display, nullptr);
  XWarpPointer(display, 0, DefaultRootWindow(display), 0, 0, 0, 0, x, y);
  XSync(display, False);
  XCloseDisplay(display);
}

TEST(ScreenshotPointer, ThePointerOverTheTimelineDoesNotShow) {
  ASSERT_TRUE(HaveDisplay()) << kNeedsDisplay;
  ScratchDir dir;
  IsolateUserDirs(dir);
  const auto trace = SimulateTrace(dir / "t.db", "default --duration-ms 80");
  // Several frames, so that the pointer's events have arrived by the last one.
  WarpPointer(700, 300);  // over the timeline's packets
  auto over =
      RunFencescope("view " + Quote(trace) + " --frames 8 --screenshot " + Quote(dir / "over.png"));
  ASSERT_EQ(over.exit_code, 0) << over.err;
  WarpPointer(1599, 999);  // the bottom right corner
  auto away =
      RunFencescope("view " + Quote(trace) + " --frames 8 --screenshot " + Quote(dir / "away.png"));
  ASSERT_EQ(away.exit_code, 0) << away.err;
  EXPECT_TRUE(ReadFile(dir / "over.png") == ReadFile(dir / "away.png"))
      << "the screenshots differ with the pointer over the timeline and away from it";
}

}  // namespace
