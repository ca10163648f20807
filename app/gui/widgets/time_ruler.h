// The time ruler above the timeline: ticks on a 1-2-5 grid chosen so that labels sit about
// 100 px apart, labelled relative to the trace start.
#pragma once

#include <imgui.h>

#include "core/model/types.h"

namespace app::gui::widgets {

struct RulerGrid {
  core::model::TimeNs first_tick = 0;  // first major tick at or after the view start
  core::model::TimeNs step = 1;        // between major ticks
};

// The grid for `visible_ns` shown over `width_px`, aiming at `target_px` between labels.
RulerGrid ChooseRulerGrid(core::model::TimeNs start, core::model::TimeNs end, float width_px,
                          float target_px);

// Draws the ruler into [min, max]; `origin` is the time labelled +0.
void DrawTimeRuler(ImDrawList* draw, ImVec2 min, ImVec2 max, core::model::TimeNs start,
                   core::model::TimeNs end, core::model::TimeNs origin, float dpi_scale);

// Faint vertical grid lines in the track area for the same grid.
void DrawTimeGrid(ImDrawList* draw, ImVec2 min, ImVec2 max, core::model::TimeNs start,
                  core::model::TimeNs end, core::model::TimeNs origin, float dpi_scale);

}  // namespace app::gui::widgets
