// Headless screenshots: `fencescope view FILE --screenshot out.png` under a display (Xvfb in CI),
// for every embedded simulator scenario and for the synthetic benchmark workload (which has a
// PGO lane). A screenshot passes when it is not blank: the window size, many distinct colours,
// and the track area (upper middle of the window) drawn with several colours.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stb/stb_image.h>
#include <sys/stat.h>
#include <zlib.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include "app/gui/bench/synthetic_workload.h"
#include "core/sim/scenario_loader.h"
#include "tests/support/test_support.h"
#include "tests/ui/window_test_env.h"

namespace {

using test_support::HaveDisplay;
using test_support::IsolateUserDirs;
using test_support::kNeedsDisplay;
using test_support::RunFencescope;
using test_support::ScratchDir;

struct Image {
  int width = 0, height = 0;
  std::vector<uint32_t> rgb;  // 0xRRGGBB per pixel
  uint32_t At(int x, int y) const { return rgb[static_cast<size_t>(y) * width + x]; }
};

Image LoadPng(const std::filesystem::path& path) {
  Image image;
  int channels = 0;
  unsigned char* data = stbi_load(path.string().c_str(), &image.width, &image.height, &channels, 3);
  if (!data) return image;
  image.rgb.resize(static_cast<size_t>(image.width) * image.height);
  for (size_t i = 0; i < image.rgb.size(); ++i) {
    image.rgb[i] = (data[i * 3] << 16) | (data[i * 3 + 1] << 8) | data[i * 3 + 2];
  }
  stbi_image_free(data);
  return image;
}

void ExpectNotBlank(const std::filesystem::path& png, int width, int height) {
  Image image = LoadPng(png);
  ASSERT_EQ(image.width, width) << png;
  ASSERT_EQ(image.height, height);
  std::set<uint32_t> colours(image.rgb.begin(), image.rgb.end());
  EXPECT_GE(colours.size(), 40u) << "too few colours: the window looks blank";
  // Track area: right of the label column, below the ruler, above the panels.
  std::map<uint32_t, size_t> histogram;
  size_t pixels = 0;
  for (int y = height / 10; y < height / 2; ++y) {
    for (int x = width / 5; x < width * 7 / 10; ++x) {
      ++histogram[image.At(x, y)];
      ++pixels;
    }
  }
  size_t background = 0;
  for (const auto& [colour, count] : histogram) background = std::max(background, count);
  EXPECT_GE(histogram.size(), 8u) << "the track area has almost no colours";
  EXPECT_GT(pixels - background, pixels / 20) << "the track area is mostly one colour";
}

// `view INPUT --screenshot PNG OPTIONS` succeeds and draws a width x height window that is not
// blank.
void ExpectScreenshot(const std::filesystem::path& input, const std::filesystem::path& png,
                      const std::string& options, int width, int height) {
  auto shot = RunFencescope(
      fmt::format("view '{}' --screenshot '{}' {}", input.string(), png.string(), options));
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  ExpectNotBlank(png, width, height);
}

TEST(Screenshot, EveryEmbeddedScenarioRendersATimeline) {
  ASSERT_TRUE(HaveDisplay()) << kNeedsDisplay;
  ScratchDir dir;
  IsolateUserDirs(dir);
  auto names = core::sim::EmbeddedScenarioNames();
  ASSERT_FALSE(names.empty());
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    auto db = dir / (name + ".db");
    auto png = dir / (name + ".png");
    test_support::SimulateTrace(db, name);
    ExpectScreenshot(db, png, "--size 1400 900", 1400, 900);
  }
}

TEST(Screenshot, SyntheticWorkloadWithPgoLaneAndPanels) {
  ASSERT_TRUE(HaveDisplay()) << kNeedsDisplay;
  ScratchDir dir;
  IsolateUserDirs(dir);
  auto db = dir / "synthetic.db";
  app::gui::bench::WriteSyntheticWorkload(db, 20'000);
  for (const char* panel : {"stats", "events", "interrupts", "pgo", "findings", "sql", "tracks"}) {
    SCOPED_TRACE(panel);
    auto png = dir / fmt::format("{}.png", panel);
    ExpectScreenshot(db, png,
                     fmt::format("--panel {} --select packet:1 --sql 'SELECT 1 AS one'", panel),
                     1600, 1000);
  }
}

// `view` opens any importable file: it is imported into the user's data directory first.
TEST(Screenshot, ViewOpensAnImportableChromeTrace) {
  ASSERT_TRUE(HaveDisplay()) << kNeedsDisplay;
  ScratchDir dir;
  IsolateUserDirs(dir);
  auto json = dir / "trace.json";
  {
    std::ofstream out(json);
    out << R"([{"name":"Render","ph":"X","ts":0,"dur":400,"pid":1,"tid":1},)"
        << R"({"name":"Draw","ph":"X","ts":50,"dur":200,"pid":1,"tid":1},)"
        << R"({"name":"Upload","ph":"X","ts":500,"dur":300,"pid":1,"tid":2}])";
  }
  auto png = dir / "chrome.png";
  ExpectScreenshot(json, png, "--panel events", 1600, 1000);
  unsetenv("XDG_DATA_HOME");
  // The imported trace was written beside the user's other data, not next to the input.
  EXPECT_TRUE(std::filesystem::exists(dir / "data" / "fencescope" / "imported"));
}

TEST(Screenshot, BadInputFailsWithAClearMessageAndNoImage) {
  ScratchDir dir;
  IsolateUserDirs(dir);
  auto png = dir / "out.png";
  auto missing = RunFencescope(
      fmt::format("view '{}' --screenshot '{}'", (dir / "nope.db").string(), png.string()));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("nope.db"), std::string::npos) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(png));

  auto db = dir / "synthetic.db";
  app::gui::bench::WriteSyntheticWorkload(db, 1000);
  auto bad_select = RunFencescope(
      fmt::format("view '{}' --screenshot '{}' --select wait:999999", db.string(), png.string()));
  EXPECT_EQ(bad_select.exit_code, 1);
  EXPECT_NE(bad_select.err.find("no wait with id 999999"), std::string::npos) << bad_select.err;
  EXPECT_FALSE(std::filesystem::exists(png));
  // a screenshot path that is a FIFO is refused, not replaced by a regular file
  const auto fifo = dir / "fifo.png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto onto_fifo =
      RunFencescope(fmt::format("view '{}' --screenshot '{}'", db.string(), fifo.string()));
  EXPECT_EQ(onto_fifo.exit_code, 1);
  EXPECT_NE(onto_fifo.err.find("is a FIFO, not a regular file"), std::string::npos)
      << onto_fifo.err;
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
}

TEST(Screenshot, ViewStopsAGzipBombAtMaxInflated) {
  ScratchDir dir;
  IsolateUserDirs(dir);
  const auto gz = dir / "bomb.json.gz";
  gzFile out = gzopen(gz.c_str(), "wb9");
  ASSERT_NE(out, nullptr);
  const std::string chunk(1 << 20, '\0');
  gzwrite(out, "{\"traceEvents\":[", 16);
  for (int i = 0; i < 16; ++i) gzwrite(out, chunk.data(), static_cast<unsigned>(chunk.size()));
  gzclose(out);
  auto png = dir / "out.png";
  auto r = RunFencescope(fmt::format("view '{}' --max-inflated 1M --screenshot '{}'", gz.string(),
                                     png.string()));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(gz.string() + ": byte "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--max-inflated limit of 1048576 bytes"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(png));
}

}  // namespace
