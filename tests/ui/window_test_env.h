// What the window tests that run `fencescope view` on the display share: whether there is a
// display (xvfb-run under ./build.sh test), and settings and data folders of the test's own.
#pragma once

#include <cstdlib>

#include "tests/support/test_support.h"

namespace test_support {

inline constexpr const char* kNeedsDisplay =
    "needs a display: run under xvfb-run (./build.sh test does)";

inline bool HaveDisplay() {
  const char* display = std::getenv("DISPLAY");
  return display && *display;
}

// Each test gets its own settings and data directories (XDG_CONFIG_HOME, XDG_DATA_HOME), so tests
// running side by side never read each other's half-written settings files, nor the user's.
inline void IsolateUserDirs(const ScratchDir& dir) {
  setenv("XDG_CONFIG_HOME", (dir / "config").c_str(), 1);
  setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1);
}

}  // namespace test_support
