// Tracks panel: show or hide each track, move it up or down within its group, and the timeline
// toggles (arrows, fence boxes, interrupt rate curve).
#pragma once

#include "app/gui/state/document.h"

namespace app::gui::views {

class TracksView {
 public:
  void Draw(state::Document& doc);
};

// Moves track `track` one place up (delta -1) or down (+1) in the display order, swapping only
// with a neighbour of the same group. Returns false when it cannot move.
bool MoveTrack(state::Document& doc, int track, int delta);

}  // namespace app::gui::views
