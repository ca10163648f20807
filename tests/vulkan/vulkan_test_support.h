// What the Vulkan capture tests share: the timeline program (tests/vulkan/program, whose
// pattern of calls gives every expected count), whether it can run here, and a capture of it.
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/store/sqlite_db.h"
#include "tests/support/test_support.h"

namespace vulkan_test {

using test_support::Quote;
using test_support::RunCommand;
using test_support::RunFencescope;
using test_support::ScratchDir;

inline const std::string kProgram = FENCESCOPE_VK_TIMELINE_PROGRAM;

// LP_NUM_THREADS=1 for lavapipe: the machine's cores are shared.
class VulkanCapture : public ::testing::Test {
 protected:
  void SetUp() override { setenv("LP_NUM_THREADS", "1", 1); }
};

// Empty when the timeline program runs here; else why it cannot.
inline std::string ProgramUnavailable() {
  if (kProgram.empty()) return "the Vulkan test program is not built (no libvulkan-dev)";
  static const std::string reason = [] {
    auto run = RunCommand(Quote(kProgram));
    if (run.exit_code == 0) return std::string();
    return fmt::format("no usable Vulkan device (timeline program exit {}): {}", run.exit_code,
                       run.err);
  }();
  return reason;
}

inline int64_t Count(core::store::Database& db, const std::string& sql) {
  return db.QueryInt(sql);
}

// The first column of the first row ("" when there is none).
inline std::string Text(core::store::Database& db, const std::string& sql) {
  auto statement = db.Prepare(sql);
  return statement.Step() ? statement.ColumnText(0) : std::string();
}

// `fencescope capture` of the timeline program into dir/NAME.db, with `env` (e.g.
// "FENCESCOPE_CAPTURE_CALIBRATION=samples ") before the command.
inline std::filesystem::path CaptureProgram(const ScratchDir& dir, const std::string& name,
                                            const std::string& env = {}) {
  const auto db_path = dir / (name + ".db");
  auto run = RunCommand(fmt::format("{}{} capture -o {} -- {}", env, Quote(FENCESCOPE_EXECUTABLE),
                                    Quote(db_path), Quote(kProgram)));
  EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
  return db_path;
}

}  // namespace vulkan_test
