// The window on the real SteamVR ETW capture (../shared/traces/external/gpuvis/windows_etl.zip):
// vsync lines and arrows at full zoom-out, context rows under their process, the label column. The
// vsync markers are the capture's VSyncDPC events (438, counted apart from the importer by
// tests/importers/external/etl/etl_counts.py and checked by etl_sample_test.cpp); the expected line
// counts are those markers in the window, counted with SQL over the imported trace.
#include <gtest/gtest.h>
#include <imgui.h>

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

// Each context's row sits under the group of the process that owns it (queues.process_id), named
// without repeating the process; its whole name (the queue's) is kept for the hover.
TEST_F(EtlWindow, ContextRowsGroupUnderTheirProcess) {
  const auto& model = doc().model;
  size_t contexts = 0;
  for (const auto& track : model.tracks) {
    if (track.kind != timeline::TrackKind::kQueue) continue;
    const auto* queue = doc().store.FindQueue(track.id);
    ASSERT_NE(queue, nullptr);
    if (queue->type != core::model::QueueType::kSoftware) continue;
    ++contexts;
    const auto* process = doc().store.FindProcess(queue->process);
    ASSERT_NE(process, nullptr) << queue->name;
    ASSERT_GE(track.group, 0);
    const std::string pid = "pid " + std::to_string(process->pid);
    EXPECT_NE(model.groups[track.group].label.find(pid), std::string::npos)
        << model.groups[track.group].label << " / " << queue->name;
    EXPECT_EQ(model.groups[track.group].parent, -1);
    EXPECT_EQ(track.full_name, queue->name);
    EXPECT_EQ(queue->name.size(), track.label.size() + queue->name.find(": ") + 2) << track.label;
  }
  EXPECT_EQ(static_cast<int64_t>(contexts),
            Count(m_db, "SELECT count(*) FROM queues WHERE type = 4"));
}

// The row names' column is as wide as the settings say, and dragging its edge widens it.
TEST_F(EtlWindow, TheLabelColumnResizesByItsEdge) {
  const float before = m_main.timeline().label_width();
  const ImVec2 area_min = m_main.timeline().area_min();
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 edge(area_min.x - 2, area_min.y + 40);
  io.MousePos = edge;
  m_window.Frame(m_main);
  io.MouseDown[0] = true;
  m_window.Frame(m_main);
  io.MousePos = ImVec2(edge.x + 60, edge.y);
  m_window.Frame(m_main);
  io.MouseDown[0] = false;
  m_window.Frame(m_main);
  const float scale = ImGui::GetFontSize() / 15.0f;
  EXPECT_NEAR(m_main.timeline().label_width(), before + 60 / scale, 1.0f);
  EXPECT_NEAR(m_main.timeline().area_min().x, area_min.x + 60, 1.0f);
}
