// Packets panel: run-time statistics per (packet name, queue) for the selected time range, else
// the whole trace: count, total, mean, p50, p99, max. The rows come from core/analysis
// ComputePacketStats (the same function as the report's packet_stats), computed once per range;
// the table sorts by a clicked header (SortPacketStats). Clicking a row selects every packet the
// row stands for (a kPacketName selection, highlighted on the timeline and listed in the details
// panel); double-clicking also zooms to them; right-clicking asks what if the name were faster or
// removed (the What-if panel predicts it).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "app/gui/state/background_result.h"
#include "app/gui/state/document.h"
#include "app/gui/state/whatif_question.h"
#include "core/analysis/packet_stats.h"

namespace app::gui::views {

// The range the panel computes its rows for: the selected range, else the whole trace (which
// counts every completed packet, as the report does).
core::analysis::PacketStatsRange PacketPanelRange(const state::Document& doc);

// The selection one row stands for.
state::Selection SelectionOfRow(const core::analysis::PacketNameStats& row);

class PacketsView {
 public:
  void Draw(state::Document& doc);
  // The what-if question picked from a row's context menu, once.
  std::optional<state::WhatIfQuestion> TakeQuestion() {
    auto q = std::move(m_question);
    m_question.reset();
    return q;
  }
  // Waits for a range being computed, its figures shown from the next frame on.
  void Wait() { m_background.Wait(); }
  // Waits for a range being computed and forgets it (before the document it reads goes away).
  void Reset() {
    m_background.Reset();
    m_valid = false;
  }

 private:
  const state::Document* m_doc = nullptr;
  core::analysis::PacketStatsRange m_range;
  bool m_valid = false;
  // A selected range's rows, computed off the UI thread.
  state::BackgroundResult<std::pair<core::model::TimeNs, core::model::TimeNs>,
                          std::vector<core::analysis::PacketNameStats>>
      m_background;
  std::vector<core::analysis::PacketNameStats> m_rows;
  std::vector<state::WhatIfQuestion> m_questions;  // of the row whose menu is open
  std::optional<state::WhatIfQuestion> m_question;
};

}  // namespace app::gui::views
