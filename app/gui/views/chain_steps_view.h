// The selected item's chain of causes in the details panel: one row per step, latest first (the
// item's own step, then what held it, back to where the chain starts): kind, row, duration and
// the packet the step is about. Clicking a step selects its packet or wait and zooms to it (a gap
// or a CPU run is only zoomed to).
#pragma once

#include "app/gui/state/document.h"
#include "app/gui/state/selection_chain.h"

namespace app::gui::views {

class ChainStepsView {
 public:
  void Draw(state::Document& doc, const state::SelectionChain& chain);
};

}  // namespace app::gui::views
