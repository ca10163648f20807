// A file the window imports before opening it (a Kineto JSON here) is converted once into the
// user's data directory and the conversion reused while it is newer than the file and this build
// of fencescope made it: a conversion made by another version is made again, so that importer
// fixes reach a file opened before an upgrade.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "app/gui/state/document.h"
#include "app/version.h"
#include "tests/support/kineto_text.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

using namespace test_support;  // NOLINT
namespace fs = std::filesystem;

// Opens `json` as the window does; returns the conversion it read.
fs::path Open(const fs::path& json) {
  fs::path converted;
  app::gui::state::LoadDocument(json, {}, importers::kDefaultMaxInflated,
                                [&](const fs::path& db) { converted = db; });
  return converted;
}

TEST(ImportedConversion, ReusedByThisBuildMadeAgainByAnother) {
  ScratchDir dir;
  setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1);
  const fs::path json = dir / "trace.json";
  std::ofstream(json) << kineto_text::Trace(kineto_text::Call(1, "cudaLaunchKernel", 0, 1) +
                                            kineto_text::Kernel(1, "K1", 7, 10, 100));
  const fs::path converted = Open(json);
  ASSERT_TRUE(fs::exists(converted));
  const std::string by = "SELECT value FROM meta WHERE key = 'converted_by'";
  EXPECT_EQ(FirstCell(converted, by), std::string(app::Version()));
  // Opened again by this build: the same conversion, not written again.
  const auto written = fs::last_write_time(converted);
  EXPECT_EQ(Open(json), converted);
  EXPECT_EQ(fs::last_write_time(converted), written);
  // A conversion another version made is made again, though newer than the file.
  EXPECT_EQ(ExecSql(converted, "UPDATE meta SET value = '0.0.1-older' WHERE key = 'converted_by'"),
            "");
  EXPECT_EQ(FirstCell(converted, by), "0.0.1-older");
  EXPECT_EQ(Open(json), converted);
  EXPECT_EQ(FirstCell(converted, by), std::string(app::Version()));
  unsetenv("XDG_DATA_HOME");
}

}  // namespace
