// The Packets panel on the named-packet hand trace (tests/support/hand_trace.h): the range it
// asks core for, the selection a row stands for and which timeline packets that selection covers
// (worked out by hand from the trace), and frames of the panel with such a selection, headless.
#include <gtest/gtest.h>
#include <imgui.h>

#include <algorithm>

#include "app/gui/platform/headless_context.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/views/main_window.h"
#include "app/gui/views/packets_view.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

namespace {

using namespace app::gui;  // NOLINT

// The row (name, queue) of the whole-trace statistics.
core::analysis::PacketNameStats Row(const state::Document& doc, const std::string& name,
                                    core::model::QueueId queue) {
  for (const auto& row : core::analysis::ComputePacketStats(doc.store, doc.analysis.recon,
                                                            views::PacketPanelRange(doc))) {
    if (doc.store.String(row.name) == name && row.queue == queue) return row;
  }
  ADD_FAILURE() << "no row " << name;
  return {};
}

}  // namespace

TEST(PacketsPanel, RangeIsTheSelectedRangeElseTheWholeTrace) {
  test_support::ScratchDir dir;
  auto doc = state::MakeDocument(hand_trace::WriteNamedPacketTrace(dir / "n.db"));
  auto whole = views::PacketPanelRange(*doc);
  EXPECT_EQ(whole.start, core::analysis::kUnknownTime);
  EXPECT_EQ(whole.end, core::analysis::kUnknownTime);
  // gfx draw: 5 completed packets in the whole trace, 3 completed in [30, 100] (2, 4, 5)
  EXPECT_EQ(Row(*doc, "draw", 1).count, 5u);
  doc->view.selected_range = {30, 100};
  auto range = views::PacketPanelRange(*doc);
  EXPECT_EQ(range.start, 30);
  EXPECT_EQ(range.end, 100);
  EXPECT_EQ(Row(*doc, "draw", 1).count, 3u);
}

TEST(PacketsPanel, ARowSelectsEveryPacketOfItsNameOnItsQueue) {
  test_support::ScratchDir dir;
  auto doc = state::MakeDocument(hand_trace::WriteNamedPacketTrace(dir / "n.db"));
  const state::Selection sel = views::SelectionOfRow(Row(*doc, "draw", 1));
  EXPECT_EQ(sel.kind, state::SelectionKind::kPacketName);
  EXPECT_EQ(state::SelectionTitle(*doc, sel), "packets 'draw' on gfx");
  // covered: the completed draws on gfx (1, 2, 4, 5, 7); not the blits (3, 6), the draw still
  // running at the end (8), the one never started (9) or the draw on copy (10)
  const auto& packets = doc->analysis.recon.packets;
  std::vector<int64_t> covered;
  for (uint32_t i = 0; i < packets.size(); ++i) {
    if (state::SelectionCovers(*doc, sel, {state::SelectionKind::kPacket, i, 0})) {
      covered.push_back(packets[i].packet_id);
    }
  }
  std::sort(covered.begin(), covered.end());
  EXPECT_EQ(covered, (std::vector<int64_t>{1, 2, 4, 5, 7}));
  // a plain selection covers only itself
  const state::Selection one{state::SelectionKind::kPacket, 0, 0};
  EXPECT_TRUE(state::SelectionCovers(*doc, one, one));
  EXPECT_FALSE(state::SelectionCovers(*doc, one, {state::SelectionKind::kPacket, 1, 0}));
  // from draw 1's start (0) to draw 7's end (150)
  state::TimeRange span = state::SelectionTimeRange(*doc, sel);
  EXPECT_EQ(span.start, 0);
  EXPECT_EQ(span.end, 150);
}

TEST(PacketsPanel, FramesWithARowSelectedAndARange) {
  test_support::ScratchDir dir;
  platform::HeadlessContext context{1280, 800};
  views::MainWindow main({}, {});
  main.SetDocument(state::MakeDocument(hand_trace::WriteNamedPacketTrace(dir / "n.db")));
  ASSERT_NE(main.document(), nullptr);
  auto& doc = *main.document();
  auto frame = [&] {
    ImGui::NewFrame();
    main.DrawFrame();
    ImGui::Render();
    main.ApplyRequests();
  };
  main.ShowPanel(views::Panel::kPackets);
  frame();
  doc.view.selection = views::SelectionOfRow(Row(doc, "blit", 1));
  frame();
  doc.view.selected_range = {30, 100};
  frame();
  frame();
  EXPECT_EQ(doc.view.selection.kind, state::SelectionKind::kPacketName);
  EXPECT_EQ(views::ParsePanel("packets"), views::Panel::kPackets);
}
