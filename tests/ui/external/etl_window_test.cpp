// The window on the real SteamVR ETW capture (../shared/traces/external/gpuvis/windows_etl.zip):
// vsync lines and arrows at full zoom-out. The vsync markers are the capture's VSyncDPC events
// (438, counted apart from the importer by tests/importers/external/etl/etl_counts.py and
// checked by etl_sample_test.cpp); the expected line counts are those markers in the window,
// counted with SQL over the imported trace.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "app/gui/views/main_window.h"
#include "core/store/query.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"

namespace {

using namespace app::gui;  // NOLINT
using core::model::TimeNs;

int64_t Count(const std::filesystem::path& db, const std::string& sql) {
  auto r = core::store::RunQuery(db, sql);
  EXPECT_FALSE(r.rows.empty()) << sql;
  return r.rows.empty() ? -1 : std::stoll(r.rows[0][0]);
}

class EtlWindow : public ::testing::Test {
 protected:
  void SetUp() override {
    m_db = m_dir / "etl.db";
    const auto zip = test_support::SharedDir() / "traces/external/gpuvis/windows_etl.zip";
    auto r =
        test_support::RunFencescope("import '" + zip.string() + "' -o '" + m_db.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    m_main.OpenNow(m_db);
    ASSERT_NE(m_main.document(), nullptr);
    state::FitAll(m_main.document()->view);
    m_window.Frames(m_main, 3);
  }
  state::Document& doc() { return *m_main.document(); }
  float width() { return m_main.timeline().area_max().x - m_main.timeline().area_min().x; }

  test_support::ScratchDir m_dir;
  std::filesystem::path m_db;
  test_support::HeadlessWindow m_window{1600, 1000};
  views::MainWindow m_main{{}, {}};
};

TEST_F(EtlWindow, VsyncLinesAreTheCapturesVsyncsInTheWindow) {
  ASSERT_EQ(Count(m_db, "SELECT count(*) FROM marker WHERE marker_type = 1"), 438);
  // 100 ms from 1 s in: the two targets' vsyncs are at least 595 us apart, ~7 px here.
  const TimeNs t0 = doc().view.trace.start + 1'000'000'000;
  doc().view.visible = {t0, t0 + 100'000'000};
  m_window.Frames(m_main, 2);
  const int64_t expected =
      Count(m_db, "SELECT count(*) FROM marker WHERE marker_type = 1 AND ts_ns BETWEEN " +
                      std::to_string(t0) + " AND " + std::to_string(t0 + 100'000'000));
  ASSERT_GT(expected, 10);
  EXPECT_EQ(static_cast<int64_t>(m_main.timeline().vsync_lines()), expected);
  // Zoomed out to the whole 2.15 s they are closer than 5 px: not drawn as a hatch.
  state::FitAll(doc().view);
  m_window.Frames(m_main, 2);
  EXPECT_LE(m_main.timeline().vsync_lines(), static_cast<size_t>(width() / 5) + 1);
}

TEST_F(EtlWindow, ArrowsAtFullZoomOutStayWithinTheBound) {
  const auto& cache = m_main.timeline().cache();
  std::map<uint32_t, size_t> items_of_pair;
  for (const auto& d : cache.arrows()) ++items_of_pair[d.pair];
  ASSERT_FALSE(items_of_pair.empty());
  const timeline::ArrowLod lod;
  const size_t bound = static_cast<size_t>(2 * width() / lod.max_bundle_px) + 2;
  for (const auto& [pair, items] : items_of_pair) EXPECT_LE(items, bound) << "pair " << pair;
  const auto& drawn = m_main.timeline().links();
  EXPECT_FALSE(drawn.held_back);
  EXPECT_GT(drawn.bundles, 0u);
  // Far fewer than the waits the capture unblocked (1,736).
  EXPECT_EQ(Count(m_db, "SELECT count(*) FROM fence_wait_unblocked"), 1736);
  EXPECT_LT(drawn.arrows + drawn.bundles, 1736u / 2);
}

}  // namespace
