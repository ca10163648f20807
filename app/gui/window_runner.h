// Runs the window: the frame loop for interactive use, and the headless screenshot mode
// (render N frames under Xvfb, read the last one back, write a PNG, exit).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "app/gui/state/view_state.h"
#include "importers/common/compressed_input.h"

namespace app::gui {

struct RunOptions {
  std::filesystem::path trace;       // empty: start with no trace open
  std::filesystem::path screenshot;  // non-empty: headless screenshot mode
  int frames = 3;                    // frames rendered before the screenshot
  int width = 1600;
  int height = 1000;
  std::optional<state::TimeRange> window;  // visible range (trace ns)
  std::optional<state::TimeRange> range;   // selected range (trace ns)
  std::string select;                      // "event:ROWID", "packet:ID", "signal:ID", "wait:ID"
  std::string panel;  // panel shown under the timeline ("stats", "events", ...)
  std::string sql;    // query run in the SQL console
  uint64_t max_inflated = importers::kDefaultMaxInflated;  // of a gzip / zip file imported
};

// Returns the process exit code. Throws core::Error for bad input (file, --select, --panel).
int RunWindow(const RunOptions& options);

}  // namespace app::gui
