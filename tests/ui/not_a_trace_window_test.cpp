// `fencescope view FILE` on a file that is neither a trace nor importable: the window is not
// opened, and the message says what the file is and what fencescope imports (the importers'
// message, tests/cli/not_a_trace_test.cpp has the kinds of files).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "app/gui/views/main_window.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"
#include "tests/ui/window_test_env.h"

using test_support::IsolateUserDirs;
using test_support::Quote;
using test_support::RunFencescope;
using test_support::ScratchDir;

TEST(NotATraceWindow, ViewSaysWhatTheFileIsAndWritesNoImage) {
  ScratchDir dir;
  IsolateUserDirs(dir);
  std::ofstream(dir / "photo.db", std::ios::binary)
      << std::string("\xff\xd8\xff\xe0\0\x10JFIF\0", 11);
  auto r =
      RunFencescope("view " + Quote(dir / "photo.db") + " --screenshot " + Quote(dir / "out.png"));
  unsetenv("XDG_CONFIG_HOME");
  unsetenv("XDG_DATA_HOME");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("photo.db"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not a format fencescope imports: it is a JPEG image"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("ETW captures (.etl)"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "out.png"));
}

// The same file opened from inside the window (File > Open, a drop, a recent file): the error
// shown says what it is and what fencescope imports, and no trace opens.
TEST(NotATraceWindow, OpeningItInTheWindowShowsWhatItIs) {
  ScratchDir dir;
  std::ofstream(dir / "photo.db", std::ios::binary)
      << std::string("\xff\xd8\xff\xe0\0\x10JFIF\0", 11);
  test_support::HeadlessWindow window;
  app::gui::views::MainWindow main({}, {});
  main.RequestOpen(dir / "photo.db");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (main.error().empty() && std::chrono::steady_clock::now() < deadline) {
    window.Frame(main);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(main.document(), nullptr);
  EXPECT_NE(main.error().find("photo.db"), std::string::npos) << main.error();
  EXPECT_NE(main.error().find("not a format fencescope imports: it is a JPEG image"),
            std::string::npos)
      << main.error();
  EXPECT_NE(main.error().find("ETW captures (.etl)"), std::string::npos) << main.error();
}
