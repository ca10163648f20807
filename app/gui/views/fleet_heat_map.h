// The fleet window's rank x step heat map of step time: drawn cell by cell (any number of ranks
// and steps; only the visible cells), the rank column and the step row kept in view while the
// grid scrolls. Light = the step's fastest rank, red = its slowest; S marks the straggler.
#pragma once

#include <cstddef>
#include <optional>

#include "core/fleet/fleet_analysis.h"

namespace app::gui::views {

struct HeatMapCell {
  size_t rank = 0;  // index into analysis.ranks
  size_t step = 0;  // index into analysis.steps
};

// Width of a step's column: the widest step id's label and a margin, at least 30 px (step ids
// of real traces run to four digits and more). Needs an ImGui context (its font); `a.steps` not
// empty.
float HeatMapColumnWidth(const core::fleet::FleetAnalysis& a);

// Draws into the current window, filling the space left; returns the cell clicked this frame.
std::optional<HeatMapCell> DrawHeatMap(const core::fleet::FleetAnalysis& a);

}  // namespace app::gui::views
