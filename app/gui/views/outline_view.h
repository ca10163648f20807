// OutlineView: what the window shows of a trace while it is still loading: its span, its queues
// and threads, and how its events spread over time (core/store/trace_outline.h, read from the
// block index in milliseconds), under a progress bar. The timeline replaces it when the trace
// has loaded.
#pragma once

#include <filesystem>

#include "core/store/trace_outline.h"

namespace app::gui::views {

// Draws into the current ImGui window's remaining space.
void DrawOutline(const std::filesystem::path& path, const core::store::TraceOutline& outline,
                 double progress);

}  // namespace app::gui::views
