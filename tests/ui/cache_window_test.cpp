// The window drawn from a trace's packed cache is the window drawn from its rows: the screenshot
// of `view` is the same pixel for pixel, and the document's analyses, timeline model and
// whole-trace panel figures are the same (JSON and serialized bytes compared).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "app/gui/state/document.h"
#include "core/cache/serialize.h"
#include "core/report/report_json.h"
#include "core/store/trace_store.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"
#include "tests/ui/png_pixels.h"
#include "tests/ui/window_test_env.h"

namespace {

using namespace test_support;  // NOLINT

std::string CacheSections(const std::filesystem::path& db) {
  return RowsText(db, "SELECT group_concat(name, ' ') FROM (SELECT name FROM cache_sections "
                      "ORDER BY name)");
}

TEST(CacheWindow, ScreenshotFromTheCacheIsTheScreenshotFromTheRows) {
  ASSERT_TRUE(HaveDisplay()) << kNeedsDisplay;
  ScratchDir dir;
  IsolateUserDirs(dir);
  const auto trace = SimulateTrace(dir / "t.db", "default --duration-ms 80");
  // From the rows, the cache neither read nor written.
  auto rows = RunCommand(fmt::format("FENCESCOPE_NO_CACHE=1 {} view {} --screenshot {}",
                                     FENCESCOPE_EXECUTABLE, Quote(trace), Quote(dir / "rows.png")));
  ASSERT_EQ(rows.exit_code, 0) << rows.err;
  ASSERT_EQ(FirstCell(trace, "SELECT count(*) FROM sqlite_master WHERE name = 'cache_sections'"),
            "0");
  // First open writes the cache, the second reads it.
  for (const char* name : {"first.png", "cached.png"}) {
    auto r = RunFencescope(
        fmt::format("view {} --screenshot {}", Quote(trace), Quote(dir / name)));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  EXPECT_EQ(CacheSections(trace),
            "analysis:findings events recon store timeline window:whole-trace\n");
  int w0 = 0, h0 = 0, w1 = 0, h1 = 0;
  const auto a = PngPixels(dir / "rows.png", &w0, &h0);
  const auto b = PngPixels(dir / "cached.png", &w1, &h1);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(w0, w1);
  EXPECT_EQ(h0, h1);
  size_t differ = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) differ += a[i] != b[i];
  EXPECT_EQ(differ, 0u) << "bytes of pixels differing between the rows' and the cache's window";
}

TEST(CacheWindow, DocumentFromTheCacheHoldsWhatTheRowsGive) {
  ScratchDir dir;
  setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1);
  const auto trace = SimulateTrace(dir / "t.db", "async_compute_graphics --duration-ms 60");
  auto rows = app::gui::state::MakeDocument(core::store::LoadTrace(trace));
  app::gui::state::LoadDocument(trace);  // writes the cache
  auto cached = app::gui::state::LoadDocument(trace);
  ASSERT_FALSE(cached->cache_notes.empty());
  for (const auto& note : cached->cache_notes) {  // everything read, nothing computed
    EXPECT_EQ(note.find("rebuilt"), std::string::npos) << note;
    EXPECT_EQ(note.find("written"), std::string::npos) << note;
  }
  for (const char* section :
       {"store", "recon", "analysis:findings", "timeline", "window:whole-trace"}) {
    const std::string read = std::string(section) + ": read from the cache";
    EXPECT_TRUE(std::any_of(cached->cache_notes.begin(), cached->cache_notes.end(),
                            [&](const std::string& n) { return n.rfind(read, 0) == 0; }))
        << section;
  }
  // The bulk columns were never read: the window's columns are the same.
  EXPECT_TRUE(cached->store.events.bulk_released);
  EXPECT_TRUE(cached->store.events.ts == rows->store.events.ts);
  EXPECT_TRUE(cached->store.events.kind == rows->store.events.kind);
  EXPECT_EQ(core::report::StatsJson(cached->analysis).Dump(),
            core::report::StatsJson(rows->analysis).Dump());
  EXPECT_EQ(core::cache::ToBytes(cached->analysis.recon), core::cache::ToBytes(rows->analysis.recon));
  EXPECT_EQ(core::cache::ToBytes(cached->model), core::cache::ToBytes(rows->model));
  EXPECT_EQ(core::cache::ToBytes(cached->whole.packets), core::cache::ToBytes(rows->whole.packets));
  EXPECT_EQ(cached->whole.range.queue_time.queues.size(), rows->whole.range.queue_time.queues.size());
}

}  // namespace
