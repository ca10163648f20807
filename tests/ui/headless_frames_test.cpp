// The whole window built headless (ImGui's example_null pattern: a context with no backend,
// NewFrame / Render only) over a simulated default scenario, every panel shown, with a
// selection and a selected range; plus the timeline model's lanes and the range statistics on a
// hand-made trace whose answers are worked out by hand below.
#include <gtest/gtest.h>
#include <imgui.h>

#include "app/gui/bench/synthetic_workload.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/state/simulation_job.h"
#include "app/gui/views/main_window.h"
#include "app/gui/views/range_stats_view.h"
#include "app/gui/views/tracks_view.h"
#include "core/store/trace_writer.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"

namespace {

using namespace app::gui;  // NOLINT
using core::model::EventKind;

using HeadlessImGui = test_support::HeadlessWindow;

// A renderer without vertex offsets (OpenGL < 3.2) addresses 65536 vertices per draw list;
// ImGui asserts when a list grows past that. Thousands of arrows in view (a 30K-event trace
// zoomed out: ~2,400 of ~40 vertices each) must then be held back, not drawn.
TEST(HeadlessFrames, ManyArrowsFitA16BitVertexRange) {
  test_support::ScratchDir dir;
  auto path = dir / "synthetic.db";
  app::gui::bench::WriteSyntheticWorkload(path, 30'000);
  HeadlessImGui imgui;
  ImGui::GetIO().BackendFlags &= ~ImGuiBackendFlags_RendererHasVtxOffset;
  views::MainWindow main({}, {});
  main.OpenNow(path);
  ASSERT_NE(main.document(), nullptr);
  ASSERT_GT(main.document()->model.links.size(), 1'000u);
  state::FitAll(main.document()->view);
  for (int i = 0; i < 4; ++i) imgui.Frame(main);
  const ImDrawData* data = ImGui::GetDrawData();
  ASSERT_NE(data, nullptr);
  for (int i = 0; i < data->CmdListsCount; ++i) {
    EXPECT_LT(data->CmdLists[i]->VtxBuffer.Size, 1 << 16) << data->CmdLists[i]->_OwnerName;
  }
}

TEST(HeadlessFrames, EveryPanelOfTheDefaultScenario) {
  test_support::ScratchDir dir;
  state::SimulationRequest request;
  request.output = dir / "default.db";
  ASSERT_GT(state::Simulate(request), 0u);
  HeadlessImGui imgui;
  views::MainWindow main({}, {});
  main.OpenNow(request.output);
  ASSERT_NE(main.document(), nullptr);
  auto& doc = *main.document();
  ASSERT_FALSE(doc.model.tracks.empty());
  for (int p = 0; p < static_cast<int>(views::Panel::kCount); ++p) {
    main.ShowPanel(static_cast<views::Panel>(p));
    imgui.Frame(main);
    imgui.Frame(main);
  }
  EXPECT_GT(main.timeline().cache().items(), 0u);
  // Select the first packet and a range, zoom in, move: frames keep working.
  ASSERT_FALSE(doc.analysis.recon.packets.empty());
  state::JumpTo(doc, {state::SelectionKind::kPacket, 0, 0});
  doc.view.selected_range = {doc.model.start,
                             doc.model.start + (doc.model.end - doc.model.start) / 4};
  for (int p = 0; p < static_cast<int>(views::Panel::kCount); ++p) {
    main.ShowPanel(static_cast<views::Panel>(p));
    state::ZoomAround(doc.view, doc.view.visible.start, 0.5);
    imgui.Frame(main);
  }
  EXPECT_EQ(doc.view.selection.kind, state::SelectionKind::kPacket);
}

TEST(HeadlessFrames, CudaStreamsDrawTheirQueueLengthRow) {
  // Trace C of hand_trace.h: three CUDA streams with launch calls, each with a counter row.
  test_support::ScratchDir dir;
  hand_trace::WriteCudaTrace(dir / "cuda.db");
  HeadlessImGui imgui;
  views::MainWindow main({}, {});
  main.OpenNow(dir / "cuda.db");
  ASSERT_NE(main.document(), nullptr);
  auto& doc = *main.document();
  state::FitAll(doc.view);
  imgui.Frame(main);
  imgui.Frame(main);
  size_t rows_with_bars = 0;
  for (size_t t = 0; t < doc.model.tracks.size(); ++t) {
    if (doc.model.tracks[t].counter.empty()) continue;
    const auto& counter = main.timeline().cache().Track(t).counter;
    rows_with_bars += std::any_of(counter.begin(), counter.end(), [](uint32_t v) { return v > 0; });
  }
  EXPECT_EQ(rows_with_bars, 3u);
  state::ZoomAround(doc.view, doc.view.visible.start, 0.25);
  imgui.Frame(main);
}

// Queue A runs packets [100, 200] and [300, 400]; its wait (queued 120, observed by the GPU at
// 150, unblocked at 300) is released by queue B's signal executed at 290.
//   range [0, 1000]: A busy 200; waiting = wait [120, 300] minus busy [100, 200] = 100 (the
//   same from the GPU's observed 150); idle = 1000 - 200 - 100 = 700. Signal executed ->
//   unblocked = 300 - 290 = 10 ns.
TEST(RangeStats, BusyBlockedIdleWorkedOutByHand) {
  test_support::ScratchDir dir;
  auto path = dir / "hand.db";
  {
    hand_trace::HandTrace h(path);
    const auto engine = h.Engine("3D");
    const auto a = h.Queue("A", engine), b = h.Queue("B", engine);
    const auto t = h.Thread("main");
    const auto f = h.Fence("F");
    h.Packet(a, t, 1, 50, 100, 200);
    h.Signal(b, t, f, 1, 10, 110, 290);
    h.Wait(a, t, f, 1, 20, 120, 300, 10, /*observed=*/150);
    h.Packet(a, t, 2, 250, 300, 400);
    h.Finish(0, 1000);
  }
  auto doc = state::LoadDocument(path);
  views::RangeStatsView view;
  const auto& stats = view.StatsFor(*doc, {0, 1000}).queue_time;
  ASSERT_EQ(stats.queues.size(), 2u);
  const auto& qa = stats.queues[0];
  EXPECT_EQ(doc->store.FindQueue(qa.queue)->name, "A");
  EXPECT_EQ(qa.busy_ns, 200);
  EXPECT_EQ(qa.waiting_ns, 100);
  EXPECT_EQ(qa.idle_ns, 700);
  EXPECT_EQ(qa.counts.started, 2u);
  EXPECT_EQ(qa.waits_unblocked, 1u);
  EXPECT_EQ(stats.queues[1].signals_executed, 1u);
  const auto& latency = view.StatsFor(*doc, {0, 1000}).latency;
  ASSERT_EQ(latency.gpu.to_unblock.count, 1u);
  EXPECT_EQ(latency.gpu.to_unblock.p50, 10);

  // Timeline model: A has one packet lane and one wait lane, B one signal lane; one arrow from
  // B's signal (290) to A's unblock (300).
  const auto& model = doc->model;
  ASSERT_GE(model.tracks.size(), 2u);
  const auto& ta = model.tracks[0];
  EXPECT_EQ(ta.label, "A");
  ASSERT_EQ(ta.lanes.size(), 2u);
  EXPECT_EQ(ta.lanes[0].size(), 2u);
  EXPECT_EQ(ta.lanes[0].Start(1), 300);
  EXPECT_EQ(ta.lanes[1].kind, timeline::LaneKind::kWaits);
  EXPECT_EQ(ta.lanes[1].Start(0), 120);
  EXPECT_EQ(ta.lanes[1].End(0), 300);
  ASSERT_EQ(model.links.size(), 1u);
  EXPECT_EQ(model.links[0].from_ts, 290);
  EXPECT_EQ(model.links[0].to_ts, 300);
  EXPECT_EQ(model.links[0].from_track, 1);
  EXPECT_EQ(model.links[0].to_track, 0);
  // The arrow ends on the wait box's lane of A and starts on the signal box's lane of B.
  EXPECT_EQ(model.links[0].to_lane, 1u);
  const auto& tb = model.tracks[1];
  ASSERT_LT(model.links[0].from_lane, tb.lanes.size());
  EXPECT_EQ(tb.lanes[model.links[0].from_lane].kind, timeline::LaneKind::kSignals);

  // Reordering stays within a group: A and B share the engine group.
  EXPECT_TRUE(views::MoveTrack(*doc, 1, -1));
  EXPECT_EQ(doc->view.track_order[0], 1);
  EXPECT_FALSE(views::MoveTrack(*doc, 1, -1));
}

}  // namespace

namespace {

// Navigation driven through ImGui's input state, as the GLFW backend would feed it.
class NavigationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_ / "synthetic.db";
    app::gui::bench::WriteSyntheticWorkload(path_, 20'000);
    main_.OpenNow(path_);
    Frame();
    Frame();
  }
  void Frame() { window_.Frame(main_); }
  state::Document& doc() { return *main_.document(); }
  float Width() const { return main_.timeline().area_max().x - main_.timeline().area_min().x; }
  core::model::TimeNs TimeAt(float x) {
    const auto& v = main_.document()->view.visible;
    return v.start + static_cast<core::model::TimeNs>((x - main_.timeline().area_min().x) /
                                                      Width() * v.Length());
  }

  test_support::ScratchDir dir_;
  std::filesystem::path path_;
  test_support::HeadlessWindow window_;
  views::MainWindow main_{{}, {}};
};

TEST_F(NavigationTest, WheelZoomsAroundTheCursor) {
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 a = main_.timeline().area_min(), b = main_.timeline().area_max();
  const float x = a.x + (b.x - a.x) * 0.25f;
  io.MousePos = ImVec2(x, (a.y + b.y) * 0.5f);
  Frame();
  const auto before = doc().view.visible;
  const auto pivot = TimeAt(x);
  io.MouseWheel = 1.0f;  // one notch in: the range shrinks to 0.8 of itself
  Frame();
  io.MouseWheel = 0.0f;
  const auto after = doc().view.visible;
  EXPECT_NEAR(static_cast<double>(after.Length()), before.Length() * 0.8, before.Length() * 0.001);
  // The time under the cursor stays under the cursor (to within a pixel).
  const double ns_per_px = static_cast<double>(after.Length()) / Width();
  EXPECT_NEAR(static_cast<double>(TimeAt(x)), static_cast<double>(pivot), 1.5 * ns_per_px);
}

TEST_F(NavigationTest, DragPansAndClickSelects) {
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 a = main_.timeline().area_min(), b = main_.timeline().area_max();
  // Zoom in first so that panning is not clamped at the trace edges.
  state::ZoomTo(doc().view, {doc().view.trace.start + doc().view.trace.Length() / 3,
                             doc().view.trace.start + doc().view.trace.Length() / 2});
  Frame();
  const auto before = doc().view.visible;
  const float y = a.y + 5.0f;
  io.MousePos = ImVec2(a.x + 400.0f, y);
  Frame();
  io.MouseDown[0] = true;
  Frame();
  for (int step = 1; step <= 4; ++step) {
    io.MousePos = ImVec2(a.x + 400.0f + 25.0f * step, y);
    Frame();
  }
  io.MouseDown[0] = false;
  Frame();
  // Dragging 100 px to the right shows what was 100 px to the left.
  const double ns_per_px = static_cast<double>(before.Length()) / (b.x - a.x);
  EXPECT_NEAR(static_cast<double>(doc().view.visible.start), before.start - 100.0 * ns_per_px,
              2.0 * ns_per_px);
  EXPECT_EQ(doc().view.visible.Length(), before.Length());
  // A click (press and release without moving) on empty space clears the selection.
  doc().view.selection = {state::SelectionKind::kPacket, 0, 0};
  io.MousePos = ImVec2(b.x - 2.0f, b.y - 2.0f);
  Frame();
  io.MouseDown[0] = true;
  Frame();
  io.MouseDown[0] = false;
  Frame();
  EXPECT_TRUE(doc().view.selection.Empty());
}

TEST_F(NavigationTest, KeysZoomPanAndFit) {
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 a = main_.timeline().area_min(), b = main_.timeline().area_max();
  io.MousePos = ImVec2((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
  Frame();
  const auto fit = doc().view.visible;
  io.KeysDown['W'] = true;  // GLFW key codes of letters are their upper-case ASCII codes
  Frame();
  io.KeysDown['W'] = false;
  Frame();
  EXPECT_NEAR(static_cast<double>(doc().view.visible.Length()), fit.Length() * 0.8,
              fit.Length() * 0.001);
  const auto zoomed = doc().view.visible;
  io.KeysDown['D'] = true;
  Frame();
  io.KeysDown['D'] = false;
  Frame();
  EXPECT_EQ(doc().view.visible.start, zoomed.start + zoomed.Length() / 10);
  const int home = io.KeyMap[ImGuiKey_Home];
  io.KeyMap[ImGuiKey_Home] = 300;  // no backend here: give Home a key slot of its own
  io.KeysDown[300] = true;
  Frame();
  io.KeysDown[300] = false;
  io.KeyMap[ImGuiKey_Home] = home;
  Frame();
  EXPECT_EQ(doc().view.visible.start, fit.start);
  EXPECT_EQ(doc().view.visible.end, fit.end);
}

}  // namespace

TEST(TimelineModel, TdrIsMarkedOnTheQueueWhosePacketHung) {
  // The tdr scenario: a 2.5 s dispatch that never reaches a preemption point; the engine is reset
  // when the 2 s TDR timeout runs out, and exactly one TDR is recorded.
  test_support::ScratchDir dir;
  const auto path = test_support::SimulateTrace(dir / "tdr.db", "tdr");
  auto doc = app::gui::state::LoadDocument(path);
  ASSERT_EQ(doc->analysis.recon.tdrs.size(), 1u);
  const auto& tdr = doc->analysis.recon.tdrs[0];
  int marked = 0;
  for (const auto& track : doc->model.tracks) {
    for (const auto& marks : track.marks) {
      if (marks.kind != app::gui::timeline::MarkKind::kTdrs) continue;
      EXPECT_EQ(track.id, tdr.queue);
      ASSERT_EQ(marks.size(), 1u);
      EXPECT_EQ(marks.Time(0), tdr.ts);
      ++marked;
    }
  }
  EXPECT_EQ(marked, 1);
}

TEST(TimelineModel, VsyncAndTextMarkersAreDrawn) {
  // Two VSync markers of adapter 1 (no queue, no thread) go to a "Display" track; a text marker
  // on a thread goes to that thread's track. The lanes carry what the painter needs of the raw
  // records (VSync flag, slice name), so drawing never reads the record columns.
  test_support::ScratchDir dir;
  auto path = dir / "markers.db";
  {
    core::store::TraceWriter w(path, "unit-test");
    auto adapter = w.AddAdapter({"GPU"});
    auto process = w.AddProcess({7, "app"});
    auto thread = w.AddThread({process, 70, core::model::ThreadKind::kApplication, "main", 0});
    const core::model::StringId vsync = w.Intern("VSync");
    const core::model::StringId text = w.Intern("frame begin");
    using namespace core::model::events;  // NOLINT
    w.Append(Marker{.ts_ns = 100, .name_sid = vsync, .adapter_id = adapter, .marker_type = 1});
    w.Append(Marker{.ts_ns = 150, .thread_id = thread, .name_sid = text});
    w.Append(Marker{.ts_ns = 200, .name_sid = vsync, .adapter_id = adapter, .marker_type = 1});
    w.Append(CpuSlice{.ts_ns = 300, .thread_id = thread, .duration_ns = 40, .name_sid = text});
    w.Append(CpuSlice{.ts_ns = 320, .thread_id = thread, .duration_ns = 10, .name_sid = vsync});
    w.Commit();
  }
  auto doc = state::LoadDocument(path);
  std::vector<core::model::TimeNs> display, on_thread;
  std::vector<int> display_vsync, thread_vsync;
  std::vector<std::string> slice_names;
  std::vector<core::model::TimeNs> slice_ends;
  for (const auto& track : doc->model.tracks) {
    for (const auto& marks : track.marks) {
      if (marks.kind != timeline::MarkKind::kMarkers) continue;
      bool thread_track = track.kind == timeline::TrackKind::kThread;
      auto& out = thread_track ? on_thread : display;
      auto& flags = thread_track ? thread_vsync : display_vsync;
      ASSERT_EQ(marks.marker_type.size(), marks.size());
      for (size_t i = 0; i < marks.size(); ++i) {
        out.push_back(marks.Time(i));
        flags.push_back(marks.marker_type[i]);
      }
    }
    for (const auto& lane : track.lanes) {
      if (lane.kind != timeline::LaneKind::kCpuSlices) continue;
      ASSERT_EQ(lane.names.size(), lane.size());
      for (size_t i = 0; i < lane.size(); ++i) {
        slice_names.push_back(doc->store.String(lane.names[i]));
        slice_ends.push_back(lane.End(i));
      }
    }
  }
  EXPECT_EQ(display, (std::vector<core::model::TimeNs>{100, 200}));
  EXPECT_EQ(display_vsync, (std::vector<int>{1, 1}));
  EXPECT_EQ(on_thread, (std::vector<core::model::TimeNs>{150}));
  EXPECT_EQ(thread_vsync, (std::vector<int>{0}));
  // The second slice (320..330) nests in the first (300..340), so it has a lane of its own.
  EXPECT_EQ(slice_names, (std::vector<std::string>{"frame begin", "VSync"}));
  EXPECT_EQ(slice_ends, (std::vector<core::model::TimeNs>{340, 330}));
}
