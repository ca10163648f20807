// Arrows by level of detail (timeline/arrow_lod.h) and vsync lines, through whole headless
// frames of the window. Expected counts come from the traces the tests write: the waits and
// their releasing signals are counted with SQL over the trace file, the vsync markers from the
// times written.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>
#include <map>
#include <string>

#include "app/gui/bench/dense_wait_workload.h"
#include "app/gui/timeline/track_layout.h"
#include "app/gui/views/main_window.h"
#include "core/model/event_types.h"
#include "core/store/query.h"
#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"

namespace {

using namespace app::gui;  // NOLINT
using core::model::TimeNs;
namespace ev = core::model::events;

int64_t Count(const std::filesystem::path& db, const std::string& sql) {
  auto r = core::store::RunQuery(db, sql);
  EXPECT_FALSE(r.rows.empty()) << sql;
  return r.rows.empty() ? -1 : std::stoll(r.rows[0][0]);
}

// Links from `from_queue` to `to_queue` whose signal executed in [t0, t1], from the records.
int64_t LinksBetween(const std::filesystem::path& db, uint32_t from_queue, uint32_t to_queue,
                     TimeNs t0, TimeNs t1) {
  return Count(db,
               "SELECT count(*) FROM fence_wait_unblocked w JOIN fence_signal_executed s "
               "ON s.signal_id = w.released_by_signal_id WHERE s.queue_id = " +
                   std::to_string(from_queue) + " AND w.queue_id = " + std::to_string(to_queue) +
                   " AND s.ts_ns BETWEEN " + std::to_string(t0) + " AND " + std::to_string(t1));
}

class DenseArrows : public ::testing::Test {
 protected:
  static constexpr uint32_t kStreams = 6;
  static constexpr uint64_t kSteps = 3000;

  void SetUp() override {
    m_db = m_dir / "dense.db";
    bench::WriteDenseWaitWorkload(m_db, {kStreams, kSteps});
    m_main.OpenNow(m_db);
    ASSERT_NE(m_main.document(), nullptr);
    state::FitAll(m_main.document()->view);
    m_window.Frames(m_main, 3);
  }
  state::Document& doc() { return *m_main.document(); }
  const timeline::DrawCache& cache() { return m_main.timeline().cache(); }
  float width() { return m_main.timeline().area_max().x - m_main.timeline().area_min().x; }
  uint32_t QueueOf(int track) { return doc().model.tracks[track].id; }

  test_support::ScratchDir m_dir;
  std::filesystem::path m_db;
  test_support::HeadlessWindow m_window{1600, 1000};
  views::MainWindow m_main{{}, {}};
};

TEST_F(DenseArrows, FullZoomOutBundlesEveryLinkWithinABound) {
  const int64_t links =
      Count(m_db, "SELECT count(*) FROM fence_wait_unblocked WHERE released_by_signal_id != 0");
  ASSERT_EQ(links, int64_t{kStreams} * (kSteps - 1));
  // Every link is in exactly one arrow or bundle.
  EXPECT_EQ(cache().arrow_links(), static_cast<size_t>(links));
  // Per pair of rows: the links of that pair, and at most 2 items per max_bundle_px of width.
  const timeline::ArrowLod lod;  // the timeline's, at scale 1
  std::map<uint32_t, size_t> items_of_pair, links_of_pair;
  std::map<uint32_t, std::pair<int, int>> tracks_of_pair;
  for (const auto& d : cache().arrows()) {
    ++items_of_pair[d.pair];
    links_of_pair[d.pair] += d.count;
    tracks_of_pair[d.pair] = {d.from_track, d.to_track};
  }
  ASSERT_EQ(items_of_pair.size(), kStreams);
  const size_t bound = static_cast<size_t>(2 * width() / lod.max_bundle_px) + 2;
  for (const auto& [pair, items] : items_of_pair) {
    EXPECT_LE(items, bound) << "pair " << pair;
    const auto [from, to] = tracks_of_pair[pair];
    EXPECT_EQ(static_cast<int64_t>(links_of_pair[pair]),
              LinksBetween(m_db, QueueOf(from), QueueOf(to), 0, INT64_MAX));
  }
  // What the frame drew: bundles, within the bound, standing for the links in view.
  const auto& drawn = m_main.timeline().links();
  EXPECT_FALSE(drawn.held_back);
  EXPECT_GT(drawn.bundles, 0u);
  EXPECT_LE(drawn.arrows + drawn.bundles, kStreams * bound);
  EXPECT_EQ(drawn.bundled + drawn.arrows, static_cast<size_t>(links));
}

TEST_F(DenseArrows, SelectedItemsArrowsAreDrawnInFullAtFullZoomOut) {
  const auto& r = doc().analysis.recon;
  // A wait in the middle of the trace, and the signal that released it.
  uint32_t wait = static_cast<uint32_t>(r.waits.size() / 2);
  while (wait < r.waits.size() && r.waits[wait].signal == core::analysis::kNoIndex) ++wait;
  ASSERT_LT(wait, r.waits.size());
  doc().view.selection = {state::SelectionKind::kWait, wait, 0};
  m_window.Frame(m_main);
  // fence_wait_unblocked names one releasing signal: one arrow, drawn in full.
  EXPECT_EQ(m_main.timeline().links().highlighted, 1u);
  EXPECT_GT(m_main.timeline().links().bundles, 0u);  // the rest stays bundled

  const uint32_t signal = r.waits[wait].signal;
  doc().view.selection = {state::SelectionKind::kSignal, signal, 0};
  m_window.Frame(m_main);
  const int64_t released =
      Count(m_db, "SELECT count(*) FROM fence_wait_unblocked WHERE released_by_signal_id = " +
                      std::to_string(r.signals[signal].signal_id));
  ASSERT_GE(released, 1);
  EXPECT_EQ(static_cast<int64_t>(m_main.timeline().links().highlighted), released);
}

TEST_F(DenseArrows, ZoomingInSeparatesABundleIntoItsArrows) {
  // A bundle in the middle of the first pair.
  const auto& arrows = cache().arrows();
  const timeline::ArrowDraw* bundle = nullptr;
  for (const auto& d : arrows) {
    if (d.pair == arrows.front().pair && d.count > 1 && d.from_x0 > width() / 2) {
      bundle = &d;
      break;
    }
  }
  ASSERT_NE(bundle, nullptr);
  const int from = bundle->from_track, to = bundle->to_track;
  const uint32_t pair = bundle->pair;
  EXPECT_EQ(static_cast<int64_t>(bundle->count),
            LinksBetween(m_db, QueueOf(from), QueueOf(to), bundle->start, bundle->last_start));
  // Zoomed in on the bundle's first 4 ms: starts at least ~230 us apart, ~25 px at this zoom.
  const TimeNs t0 = bundle->start;
  doc().view.visible = {t0 - 100'000, t0 + 4'000'000};
  m_window.Frames(m_main, 2);
  const auto& view = doc().view.visible;
  size_t singles = 0;
  for (const auto& d : cache().arrows()) {
    if (d.pair != pair || d.start < view.start || d.start > view.end) continue;
    EXPECT_EQ(d.count, 1u) << "at " << d.start;
    singles += d.count == 1;
  }
  EXPECT_EQ(static_cast<int64_t>(singles),
            LinksBetween(m_db, QueueOf(from), QueueOf(to), view.start, view.end));
  EXPECT_GE(singles, 5u);
}

TEST_F(DenseArrows, HoveringAWaitBoxDrawsItsArrow) {
  // Zoomed in on one step (period 400 us; its waits last 3 us from 1 us in), so that wait
  // boxes are single items; the mouse on the first one of the top row.
  const TimeNs period = 400'000;
  const TimeNs step = (doc().view.trace.start + doc().view.trace.Length() / 2) / period * period;
  doc().view.visible = {step - 5'000, step + 45'000};
  m_window.Frames(m_main, 2);
  const float s = ImGui::GetFontSize() / 15.0f;  // the timeline's DPI factor
  const auto rows = timeline::LayoutRows(doc().model, doc().view, s);
  const ImVec2 area = m_main.timeline().area_min();
  ImVec2 box{-1, -1};
  uint32_t wait = 0;
  for (const auto& row : rows) {
    if (row.group) continue;
    const auto& track = doc().model.tracks[row.index];
    for (size_t l = 0; l < track.lanes.size() && box.x < 0; ++l) {
      if (track.lanes[l].kind != timeline::LaneKind::kWaits) continue;
      for (const auto& d : cache().Track(row.index).lanes[l]) {
        if (d.count != 1 || d.x0 < 0 || d.x1 > width() || d.x1 - d.x0 < 4) continue;
        box = {area.x + (d.x0 + d.x1) / 2,
               area.y + row.y + timeline::LaneOffset(track, l, s, row.expanded) +
                   timeline::LaneHeight(track.lanes[l].kind, s) / 2};
        wait = track.lanes[l].items[d.first];
        break;
      }
    }
    if (box.x >= 0) break;
  }
  ASSERT_GE(box.x, 0) << "no single wait box in view";
  ImGui::GetIO().MousePos = box;
  m_window.Frames(m_main, 2);
  const int64_t releasing = Count(
      m_db, "SELECT count(*) FROM fence_wait_unblocked WHERE released_by_signal_id != 0 AND "
            "wait_id = " + std::to_string(doc().analysis.recon.waits[wait].wait_id));
  EXPECT_EQ(static_cast<int64_t>(m_main.timeline().links().hovered), releasing);
  EXPECT_EQ(releasing, 1);
}

TEST_F(DenseArrows, HiddenArrowsBuildNothing) {
  doc().view.show_arrows = false;
  ++doc().view.layout_generation;
  m_window.Frame(m_main);
  EXPECT_TRUE(cache().arrows().empty());
  EXPECT_EQ(m_main.timeline().links().arrows + m_main.timeline().links().bundles, 0u);
}

// One adapter with a queue running a packet per frame and a vsync marker every 1/60 s.
TEST(VsyncLines, OneLinePerVsyncMarkerAcrossTheAdaptersRows) {
  test_support::ScratchDir dir;
  const auto db = dir / "vsync.db";
  std::vector<TimeNs> vsyncs;
  {
    using namespace core::store;  // NOLINT
    TraceWriter w(db, "unit-test");
    AdapterId gpu = w.AddAdapter({"GPU", 1});
    EngineId engine = w.AddEngine({gpu, EngineType::k3D, 0, "3D"});
    ProcessId process = w.AddProcess({1, "game"});
    QueueId queue = w.AddQueue({engine, gpu, QueueType::k3D, 0, process, "3D queue", 0});
    ThreadId thread = w.AddThread({process, 2, ThreadKind::kApplication, "render", 0});
    StringId vsync_name = w.Intern("VSync");
    StringId present_name = w.Intern("Present");
    const TimeNs period = 16'666'667;
    for (int64_t f = 0; f < 60; ++f) {
      const TimeNs t = 1'000'000 + f * period;
      w.Append(ev::PacketSubmitted{.ts_ns = t,
                                   .queue_id = queue,
                                   .thread_id = thread,
                                   .packet_id = f + 1,
                                   .planned_duration_ns = 5'000'000});
      w.Append(ev::PacketStarted{.ts_ns = t + 1'000'000, .queue_id = queue, .packet_id = f + 1});
      w.Append(ev::PacketCompleted{.ts_ns = t + 6'000'000, .queue_id = queue, .packet_id = f + 1});
      w.Append(ev::Marker{.ts_ns = t + 7'000'000,
                          .thread_id = thread,
                          .name_sid = present_name,
                          .adapter_id = gpu,
                          .marker_type = 2});
      w.Append(ev::Marker{
          .ts_ns = t + 10'000'000, .name_sid = vsync_name, .adapter_id = gpu, .marker_type = 1});
      vsyncs.push_back(t + 10'000'000);
    }
    w.Commit();
  }
  test_support::HeadlessWindow window{1600, 1000};
  views::MainWindow main({}, {});
  main.OpenNow(db);
  ASSERT_NE(main.document(), nullptr);
  auto& doc = *main.document();
  state::FitAll(doc.view);
  window.Frames(main, 3);
  // ~1 s over the timeline's width: vsyncs ~20 px apart, each its own line.
  EXPECT_EQ(main.timeline().vsync_lines(), vsyncs.size());
  // The present markers are on the thread's row, not lines.
  size_t presents = 0;
  for (const auto& track : doc.model.tracks) {
    if (track.kind != timeline::TrackKind::kThread) continue;
    for (const auto& marks : track.marks) {
      for (size_t i = 0; i < marks.marker_type.size(); ++i) {
        presents += marks.marker_type[i] == timeline::kMarkerPresent;
      }
    }
  }
  EXPECT_EQ(presents, vsyncs.size());
  // Zoomed in: the vsyncs inside the window.
  const state::TimeRange window_range{vsyncs[10] - 5'000'000, vsyncs[20] + 5'000'000};
  doc.view.visible = window_range;
  window.Frames(main, 2);
  EXPECT_EQ(main.timeline().vsync_lines(),
            static_cast<size_t>(std::count_if(vsyncs.begin(), vsyncs.end(), [&](TimeNs t) {
              return t >= window_range.start && t <= window_range.end;
            })));
  // The View menu's toggle.
  doc.view.show_vsync = false;
  ++doc.view.layout_generation;
  window.Frame(main);
  EXPECT_EQ(main.timeline().vsync_lines(), 0u);
}

}  // namespace
