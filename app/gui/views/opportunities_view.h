// Opportunities: the report's ranked list of what would pay (core/replay/opportunities.h, the
// same ComputeOpportunities `report` runs, on a worker thread: each change is a replay, with a
// progress bar and Cancel / Esc meanwhile) as a bar chart of the predicted gain, the replay's
// fidelity beside it. Clicking a bar loads its edit into the What-if panel and predicts it.
#pragma once

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/gui/state/background_result.h"
#include "app/gui/state/document.h"
#include "core/replay/opportunities.h"

namespace app::gui::views {

class OpportunitiesView {
 public:
  void Draw(state::Document& doc);
  // The opportunity clicked (once), with the trace it was ranked on.
  struct Pick {
    std::filesystem::path trace;
    core::replay::Opportunity opportunity;
    std::string question;  // "What if gemm were 2x faster?"
  };
  std::optional<Pick> TakePick() {
    auto p = std::move(m_pick);
    m_pick.reset();
    return p;
  }
  // The ranking shown for `trace`, nullptr while it is computed (or never asked for).
  const core::replay::Opportunities* RankingOf(const std::filesystem::path& trace);
  // The middle of each bar drawn in the last frame (tests click them).
  const std::vector<ImVec2>& bar_centres() const { return m_bar_centres; }
  void Reset() { m_ranking.Reset(); }
  void Wait() { m_ranking.Wait(); }
  // Stops a ranking being computed (its running replays finish first); Esc in the panel too.
  void Cancel() { m_control->cancel = true; }
  bool Computing() const { return m_ranking.Computing(); }

 private:
  // Shared with the ranking's worker: how far it is, and whether to stop.
  struct Control {
    std::atomic<double> progress{0.0};
    std::atomic<bool> cancel{false};
  };
  std::shared_ptr<Control> m_control = std::make_shared<Control>();
  state::BackgroundResult<std::string, core::replay::Opportunities> m_ranking;
  std::optional<Pick> m_pick;
  std::vector<ImVec2> m_bar_centres;
};

}  // namespace app::gui::views
