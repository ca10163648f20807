// Small text files the window keeps for itself (settings, saved views): written whole with
// core::store::WriteFileAtomically (a temporary file beside the target, renamed over it), so a
// crash mid-write never leaves a half-written file where a good one was.
#pragma once

#include <filesystem>
#include <string>

namespace app::gui::state {

// Best effort: false when the file could not be written (the old one, if any, stays).
bool WriteTextFileAtomically(const std::filesystem::path& file, const std::string& text);

}  // namespace app::gui::state
