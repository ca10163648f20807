// The fleet window (`fencescope view FLEETDIR`): a rank x step heat map of step time, the ranks
// as tracks on one aligned time axis (fleet_timeline.h), the straggler of each step and the
// ranks with their clock offsets, drawn from the fleet report's
// analysis (core/fleet/fleet_analysis.h); nothing is computed here. Clicking a cell asks the
// main window to open that rank's trace zoomed to that step.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/views/fleet_timeline.h"
#include "core/fleet/fleet_analysis.h"
#include "core/model/types.h"

namespace app::gui::views {

// True for a directory made by `fleet import` or `fleet submit` (it holds fleet-inputs.txt).
bool IsFleetDirectory(const std::filesystem::path& path);

class FleetView;
// The fleet report's analysis of `dir` (the reduce step, from the summaries) as a FleetView.
// Throws core::Error like `fleet report`.
std::unique_ptr<FleetView> LoadFleet(const std::filesystem::path& dir);

class FleetView {
 public:
  // `databases[i]`: the trace database of analysis.ranks[i].
  FleetView(core::fleet::FleetAnalysis analysis, std::vector<std::filesystem::path> databases);

  struct OpenRequest {
    std::filesystem::path database;
    core::model::TimeNs start = 0;  // the step, on that rank's own clock
    core::model::TimeNs end = 0;
  };
  // Draws the window; returns the cell clicked in this frame, if any.
  std::optional<OpenRequest> Draw();
  // What clicking the cell of rank `rank_index` (analysis order) and step `step_index` asks for.
  OpenRequest RequestFor(size_t rank_index, size_t step_index) const;
  // What clicking a step on the timeline asks for: analysis.lanes[click.rank].steps[click.step]
  // on that rank's own clock.
  OpenRequest RequestFor(const FleetTimeline::Click& click) const;
  FleetTimeline& timeline() { return m_timeline; }

  enum class Tab { kHeatMap, kTimeline, kStragglers, kRanks };
  // "heat-map", "timeline", "stragglers" or "ranks"; throws core::Error naming them otherwise.
  static Tab TabNamed(const std::string& name);
  // Shows `tab` at the next Draw.
  void ShowTab(Tab tab) { m_show_tab = tab; }
  const core::fleet::FleetAnalysis& analysis() const { return m_analysis; }
  // The trace database of the first rank (what `view FLEETDIR` opens first).
  const std::filesystem::path& FirstDatabase() const { return m_databases.at(0); }

 private:
  core::fleet::FleetAnalysis m_analysis;
  std::vector<std::filesystem::path> m_databases;
  FleetTimeline m_timeline;
  std::optional<Tab> m_show_tab;
};

}  // namespace app::gui::views
