// The selected item's chain of causes in the window: its arrows drawn in full and highlighted,
// its steps as bands over their rows, and the chain computed once per selection. Expected counts
// come from the structure of the hand-made trace below, worked out in the comments.
#include <gtest/gtest.h>

#include <memory>

#include "app/gui/timeline/track_layout.h"
#include "app/gui/views/main_window.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"

namespace {

using namespace app::gui;  // NOLINT
using core::model::TimeNs;

// Span [0, 200], one thread (main) submitting everything:
//   copy    (q1) packet 1 submitted 0, runs [10,50]; signal f1=1 executed 50
//                packet 4 submitted 150, runs [160,180] after waiting f3>=1 (unblocked 160)
//   3d      (q2) wait f1>=1 queued 5, unblocked 60; packet 2 submitted 8, runs [60,100];
//                signal f2=1 executed 100
//   compute (q3) wait f2>=1 queued 6, unblocked 110; packet 3 submitted 9, runs [110,150];
//                signal f3=1 executed 150
// The chain ending at compute's wait (unblocked 110): its signal f2 executed on 3d at 100 (jump
// 1: 3d -> compute); 3d ran packet 2 [60,100], held by its wait until f1 executed on copy at 50
// (jump 2: copy -> 3d); copy ran packet 1 [10,50] after its submission at 0 (jump 3: main ->
// copy). Three arrows, on three rows: copy [0,50], 3d [50,100], compute [100,110]. Compute's
// signal f3 -> copy's wait at 160 comes later and is not on it.
class ChainWindow : public ::testing::Test {
 protected:
  virtual float WindowHeight() const { return 1000; }
  void SetUp() override {
    m_window = std::make_unique<test_support::HeadlessWindow>(1600, WindowHeight());
    const auto path = m_dir / "chain.db";
    hand_trace::HandTrace t(path);
    const auto copy = t.Queue("copy", core::model::QueueType::kCopy);
    const auto gfx = t.Queue("3d");
    const auto compute = t.Queue("compute", core::model::QueueType::kCompute);
    const auto main = t.Thread("main");
    const auto f1 = t.Fence("f1"), f2 = t.Fence("f2"), f3 = t.Fence("f3");
    t.Packet(copy, main, 1, 0, 10, 50);
    t.Signal(copy, main, f1, 1, 101, 1, 50);
    t.Wait(gfx, main, f1, 1, 201, 5, 60);
    t.Packet(gfx, main, 2, 8, 60, 100);
    t.Signal(gfx, main, f2, 1, 102, 9, 100);
    t.Wait(compute, main, f2, 1, 202, 6, 110);
    t.Packet(compute, main, 3, 9, 110, 150);
    t.Signal(compute, main, f3, 1, 103, 10, 150);
    t.Wait(copy, main, f3, 1, 203, 11, 160);
    t.Packet(copy, main, 4, 150, 160, 180);
    t.Finish(0, 200);
    m_main.OpenNow(path);
    ASSERT_NE(m_main.document(), nullptr);
    m_window->Frames(m_main, 2);
  }
  state::Document& doc() { return *m_main.document(); }
  uint32_t WaitIndex(int64_t id) {
    const auto& waits = doc().analysis.recon.waits;
    for (uint32_t i = 0; i < waits.size(); ++i) {
      if (waits[i].wait_id == id) return i;
    }
    ADD_FAILURE() << "no wait " << id;
    return 0;
  }
  void Select(state::SelectionKind kind, uint32_t index) {
    doc().view.selection = {kind, index, 0};
    m_window->Frames(m_main, 2);
  }

  test_support::ScratchDir m_dir;
  std::unique_ptr<test_support::HeadlessWindow> m_window;
  views::MainWindow m_main{{}, {}};
};

TEST_F(ChainWindow, ASelectedWaitDrawsEveryJumpOfItsChainHighlighted) {
  // the whole trace in view
  ASSERT_LE(doc().view.visible.start, 0);
  ASSERT_GE(doc().view.visible.end, 200);
  EXPECT_EQ(m_main.timeline().links().chain, 0u);  // nothing selected: no chain
  Select(state::SelectionKind::kWait, WaitIndex(202));
  EXPECT_EQ(m_main.timeline().links().chain, 3u);
  EXPECT_EQ(m_main.chain().jumps, 3u);
  EXPECT_EQ(m_main.timeline().chain_bands(), 3u);
  // the wait's own releasing arrow is still the selection's, in the selection's colour
  EXPECT_EQ(m_main.timeline().links().highlighted, 1u);
}

TEST_F(ChainWindow, OnlyTheJumpsInViewAreDrawn) {
  // [0, 55]: the submission at 0 (-> copy at 10) and f1 executed at 50 (-> 3d at 60) reach into
  // it; f2's jump (100 -> 110) does not. Copy's and 3d's steps are in view, compute's is not.
  Select(state::SelectionKind::kWait, WaitIndex(202));
  doc().view.visible = {0, 55};
  m_window->Frames(m_main, 2);
  EXPECT_EQ(m_main.timeline().links().chain, 2u);
  EXPECT_EQ(m_main.timeline().chain_bands(), 2u);
}

TEST_F(ChainWindow, TheChainIsComputedOncePerSelection) {
  Select(state::SelectionKind::kWait, WaitIndex(202));
  const uint64_t generation = m_main.chain().generation;
  m_window->Frames(m_main, 5);
  EXPECT_EQ(m_main.chain().generation, generation);
  // 3d's wait (unblocked 60): f1's jump and the submission of copy's packet 1; 2 jumps.
  Select(state::SelectionKind::kWait, WaitIndex(201));
  EXPECT_EQ(m_main.chain().generation, generation + 1);
  EXPECT_EQ(m_main.timeline().links().chain, 2u);
}

TEST_F(ChainWindow, GoingToAStepSelectsItsItemAndZoomsToIt) {
  // The chain of compute's wait, latest first: gpu_wait compute [100,110], run 3d [60,100],
  // gpu_wait 3d [50,60], run copy [10,50], submit copy [0,10]. Going to "run copy" selects
  // packet 1 and shows [10,50]; its own chain is then submit [0,10], run [10,50]: one jump.
  Select(state::SelectionKind::kWait, WaitIndex(202));
  const auto steps = m_main.chain().path.steps;  // a copy: the chain is recomputed below
  ASSERT_EQ(steps.size(), 5u);
  state::GoToStep(doc(), steps[1]);
  const auto& packets = doc().analysis.recon.packets;
  ASSERT_EQ(doc().view.selection.kind, state::SelectionKind::kPacket);
  EXPECT_EQ(packets[doc().view.selection.index].packet_id, 1);
  EXPECT_LE(doc().view.visible.start, 10);
  EXPECT_GE(doc().view.visible.end, 50);
  EXPECT_LT(doc().view.visible.Length(), 200);
  m_window->Frames(m_main, 2);
  EXPECT_EQ(m_main.chain().path.steps.size(), 2u);
  EXPECT_EQ(m_main.chain().jumps, 1u);
  // a gap or CPU run has no item: the selection stays, the view moves
  core::analysis::PathStep gap;
  gap.kind = core::analysis::PathStepKind::kQueueGap;
  gap.start = 150;
  gap.end = 160;
  state::GoToStep(doc(), gap);
  EXPECT_EQ(packets[doc().view.selection.index].packet_id, 1);
  EXPECT_LE(doc().view.visible.start, 150);
  EXPECT_GE(doc().view.visible.end, 160);
  EXPECT_GT(doc().view.visible.start, 50);
}

// A window too short for the four rows: compute's row (the third queue) starts below the area.
class ShortChainWindow : public ChainWindow {
 protected:
  float WindowHeight() const override { return 300; }
};

TEST_F(ShortChainWindow, ASelectionMadeElsewhereScrollsItsRowIntoSight) {
  const float area = m_main.timeline().area_max().y - m_main.timeline().area_min().y;
  const float s = ImGui::GetFontSize() / 15.0f;  // the timeline's DPI factor
  const auto rows = timeline::LayoutRows(doc().model, doc().view, s);
  const timeline::Row* compute = nullptr;
  for (const auto& row : rows) {
    if (!row.group && doc().model.tracks[row.index].label.rfind("compute", 0) == 0) {
      compute = &row;
    }
  }
  ASSERT_NE(compute, nullptr);
  ASSERT_GT(compute->y + compute->height, area) << "the row is in sight already";
  EXPECT_EQ(m_main.timeline().scroll_y(), 0.0f);
  Select(state::SelectionKind::kWait, WaitIndex(202));
  const float top = m_main.timeline().scroll_y();
  EXPECT_LE(top, compute->y);
  EXPECT_GE(top + area, compute->y + compute->height);
}

}  // namespace
