// Asking a what-if question in the window as a user does, for the window tests: the mouse
// right-clicks a packet's box in the timeline, then clicks a question of the context menu that
// opens there, and frames are drawn (and a key pressed) while the replay runs on its thread.
// The expected figures come from `fencescope whatif --json` run with the same edits, written
// here from the packet's name, not from what the window asked.
#pragma once

#include <gtest/gtest.h>
#include <imgui.h>

#include <chrono>
#include <string>

#include "app/gui/state/prediction.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/timeline/track_layout.h"
#include "app/gui/views/main_window.h"
#include "core/report/fail_if.h"
#include "tests/support/json_text.h"
#include "tests/support/test_support.h"
#include "tests/ui/headless_window.h"

namespace test_support {

// The packet with the longest run: the easiest box to hit.
inline uint32_t LongestPacket(const app::gui::state::Document& doc) {
  const auto& packets = doc.analysis.recon.packets;
  uint32_t best = 0;
  core::model::DurationNs longest = -1;
  for (uint32_t i = 0; i < packets.size(); ++i) {
    const auto p = packets[i];
    if (p.start == core::analysis::kUnknownTime || p.end == core::analysis::kUnknownTime) continue;
    if (p.end - p.start > longest) longest = p.end - p.start, best = i;
  }
  return best;
}

struct AskedInWindow {
  int frames_while_replaying = 0;
  bool zoomed_while_replaying = false;  // W pressed during the replay zoomed the original
  const app::gui::state::Prediction* prediction = nullptr;  // the prediction tab's
};

inline void Click(HeadlessWindow& window, app::gui::views::MainWindow& main, ImVec2 at,
                  int button) {
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = at;
  window.Frames(main, 2);
  io.MouseDown[button] = true;
  window.Frame(main);
  io.MouseDown[button] = false;
  window.Frames(main, 2);
}

// Right-clicks the middle of packet `packet`'s box and picks the menu's `question`th entry, then
// draws frames until the prediction tab opens (at most a minute).
inline AskedInWindow AskAboutPacket(HeadlessWindow& window, app::gui::views::MainWindow& main,
                                    uint32_t packet, int question) {
  using namespace app::gui;  // NOLINT
  AskedInWindow out;
  state::Document& doc = *main.document();
  const state::Selection item{state::SelectionKind::kPacket, packet, 0};
  // Selected first (its row scrolls into sight), shown over the middle half of the view.
  doc.view.selection = item;
  const state::TimeRange box = state::SelectionTimeRange(doc, item);
  state::ZoomTo(doc.view, {box.start - box.Length() / 2, box.end + box.Length() / 2});
  doc.view.visible = {box.start - box.Length() / 2, box.end + box.Length() / 2};
  window.Frames(main, 3);
  const auto& timeline = main.timeline();
  const float s = ImGui::GetFontSize() / 15.0f;
  const uint32_t queue = doc.analysis.recon.packets[packet].queue;
  float y = -1;
  for (const auto& row : timeline::LayoutRows(doc.model, doc.view, s)) {
    const auto& track = doc.model.tracks[row.index];
    if (row.group || track.kind != timeline::TrackKind::kQueue || track.id != queue) continue;
    for (size_t lane = 0; lane < track.lanes.size(); ++lane) {
      if (track.lanes[lane].kind != timeline::LaneKind::kRunSegments) continue;
      y = timeline.area_min().y + row.y - timeline.scroll_y() +
          timeline::LaneOffset(track, lane, s, row.expanded) +
          timeline::LaneHeight(timeline::LaneKind::kRunSegments, s) * 0.5f;
      break;
    }
  }
  EXPECT_GT(y, timeline.area_min().y) << "the packet's row is not in sight";
  const float x = (timeline.area_min().x + timeline.area_max().x) * 0.5f;
  Click(window, main, ImVec2(x, y), 1);
  // The menu opens where the mouse is: its entries one line apart under the window padding.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetFontSize() + style.ItemSpacing.y;
  Click(window, main,
        ImVec2(x + style.WindowPadding.x + 20.0f,
               y + style.WindowPadding.y + line * static_cast<float>(question) + line * 0.5f),
        0);
  // The replay runs: frames keep coming, and a key pressed over the timeline is answered.
  state::Document* original = main.document();
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(x, y);
  if (main.whatif().Busy()) {
    const auto before = original->view.visible.Length();
    io.KeysDown['W'] = true;
    window.Frame(main);
    io.KeysDown['W'] = false;
    window.Frame(main);
    out.zoomed_while_replaying = original->view.visible.Length() < before;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (!main.document()->prediction && std::chrono::steady_clock::now() < deadline) {
    if (main.whatif().Busy()) ++out.frames_while_replaying;
    window.Frame(main);
  }
  window.Frames(main, 2);
  out.prediction = main.document()->prediction.get();
  return out;
}

// The prediction's figures are those of `fencescope whatif TRACE --json EDITS`.
inline void ExpectSameAsCommand(const app::gui::state::Prediction& p,
                                const std::filesystem::path& trace, const std::string& edits,
                                const std::filesystem::path& output) {
  const core::report::Json json = RunFencescopeJson("whatif " + Quote(trace) + " -o " +
                                                    Quote(output) + " --json " + edits);
  EXPECT_EQ(p.result.span_before_ns, IntAt(json, "span_ns.before"));
  EXPECT_EQ(p.result.span_replay_ns, IntAt(json, "span_ns.replay"));
  EXPECT_EQ(p.result.span_after_ns, IntAt(json, "span_ns.after"));
  const core::report::Json* steps = core::report::FindPath(json, "steps");
  ASSERT_NE(steps, nullptr);
  ASSERT_EQ(p.result.steps.size(), steps->size());
  for (size_t i = 0; i < p.result.steps.size(); ++i) {
    const std::string at = "steps[" + std::to_string(i) + "].";
    EXPECT_EQ(p.result.steps[i].id, IntAt(json, at + "id"));
    EXPECT_EQ(p.result.steps[i].before_ns, IntAt(json, at + "before_ns"));
    EXPECT_EQ(p.result.steps[i].after_ns, IntAt(json, at + "after_ns"));
  }
}

}  // namespace test_support
