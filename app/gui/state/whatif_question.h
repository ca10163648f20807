// The questions the timeline's context menu asks about an item: each a label and the edits
// (core/replay/whatif_edits.h) that `fencescope whatif` takes for it. A packet: its name twice as
// fast or removed; a GPU wait: this one, or every wait of its queue on the signalling queue, not
// there; a CPU wait: this one, or every one of its thread, not made; a host call (a CPU slice):
// every call of that name not made; anything on a thread: the host twice as fast.
#pragma once

#include <string>
#include <vector>

#include "app/gui/state/document.h"
#include "core/replay/whatif_edits.h"

namespace app::gui::state {

struct WhatIfQuestion {
  std::string label;  // "What if gemm were 2x faster?"
  core::replay::Edits edits;
};

// Empty for an item no question is asked about (an interrupt, a folded block).
std::vector<WhatIfQuestion> QuestionsAbout(const Document& doc, const Selection& item);

}  // namespace app::gui::state
