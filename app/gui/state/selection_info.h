// What the window needs to know about a selection regardless of which view made it: the time
// span it covers (for "jump to" and double-click zoom) and a one-line title.
#pragma once

#include <string>

#include "app/gui/state/document.h"

namespace app::gui::state {

// The span of the selected thing with unknown ends resolved to the trace bounds; an instant
// gives a zero-length range at its time. Empty selection: the whole trace.
TimeRange SelectionTimeRange(const Document& doc, const Selection& selection);
std::string SelectionTitle(const Document& doc, const Selection& selection);

// Whether `item` (one packet, box or record as the timeline draws it) is shown selected: it is
// the selection itself, or one of the packets a kPacketName selection stands for.
bool SelectionCovers(const Document& doc, const Selection& selection, const Selection& item);

// Selects `selection` and moves the view so that it is in the middle, keeping the zoom level
// unless the item is wider than the view.
void JumpTo(Document& doc, const Selection& selection);

}  // namespace app::gui::state
