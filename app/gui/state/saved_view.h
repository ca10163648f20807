// What the user was looking at in one trace, kept between runs: the visible range, the selected
// range, bookmarks, the track tree's order, hidden rows, collapsed groups and expanded tracks,
// and the What-if panel's question (saved_whatif.h). One small text file per trace (`key = value` lines) under <config dir>/views/, named
// by a hash of the trace's absolute path.
//
// A saved view is applied only to the trace it was taken from: the file records the trace's
// span and its number of tracks and groups, and a trace that no longer matches (re-simulated
// with another seed, re-imported from a changed file) opens with the default view instead.
#pragma once

#include <filesystem>

#include "app/gui/state/view_state.h"

namespace app::gui::state {

// The file that keeps the view of `trace` under `views_dir`.
std::filesystem::path SavedViewPath(const std::filesystem::path& views_dir,
                                    const std::filesystem::path& trace);

// Best effort (a saved view is a convenience): false when the file could not be written.
bool SaveView(const ViewState& view, const std::filesystem::path& trace,
              const std::filesystem::path& file);

// Applies the saved view in `file` to `view` (already reset for its trace). Returns false and
// leaves `view` unchanged when the file is missing, unreadable, malformed, or was saved for a
// trace of another span or track layout.
bool LoadView(ViewState& view, const std::filesystem::path& file);

}  // namespace app::gui::state
