// The What-if panel's question kept with a trace's saved view (saved_view.h): its label and each
// edit as a `whatif_* = ...` line, so that the panel shows the same question when the trace is
// opened again.
#pragma once

#include <string>

#include "core/replay/whatif_edits.h"

namespace app::gui::state {

struct SavedWhatIf {
  std::string label;
  core::replay::Edits edits;
  bool Empty() const { return edits.Empty(); }
};

// The `key = value` lines of `question` (none when it has no edits).
std::string WhatIfLines(const SavedWhatIf& question);

// Reads one line of a saved view into `question`: true when `key` is a what-if key and `value`
// reads as its value, false for a malformed value; `known` says whether the key was a what-if
// key at all.
bool ReadWhatIfLine(const std::string& key, const std::string& value, SavedWhatIf& question,
                    bool& known);

}  // namespace app::gui::state
