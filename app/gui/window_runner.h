// Runs the window: the frame loop for interactive use, and the headless screenshot mode
// (render N frames under Xvfb, read the last one back, write a PNG, exit).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/state/view_state.h"
#include "core/replay/whatif_edits.h"
#include "importers/common/compressed_input.h"

namespace app::gui {

struct RunOptions {
  std::filesystem::path trace;       // empty: start with no trace open
  std::vector<std::filesystem::path> more_traces;  // opened as tabs behind `trace`
  std::filesystem::path screenshot;  // non-empty: headless screenshot mode
  int frames = 3;                    // frames rendered before the screenshot
  int width = 1600;
  int height = 1000;
  // START END as typed (core/analysis/time_input.h: from the trace start, or @NS absolute);
  // empty when not given.
  std::vector<std::string> window;         // visible range
  std::vector<std::string> range;          // selected range
  std::string select;                      // "event:ROWID", "packet:ID", "signal:ID", "wait:ID"
  std::string panel;  // panel shown under the timeline ("stats", "events", ...)
  std::string sql;    // query run in the SQL console
  std::string fleet_tab;  // a fleet directory's tab shown first (FleetView::TabNamed)
  uint64_t max_inflated = importers::kDefaultMaxInflated;  // of a gzip / zip file imported
  // `whatif`'s edits (--scale, --remove-sync, ...): the trace's prediction opens beside it.
  core::replay::Edits whatif;
};

namespace views {
class MainWindow;
}
// Applies --panel, --select, --window, --range and --sql to the window's open trace. Throws
// core::Error for a bad value (a window or range outside the trace names the trace's span).
// For a screenshot, waits for --sql's query to finish so the picture shows its result.
void ApplyOptions(views::MainWindow& main, const RunOptions& options, bool screenshot = false);

// Returns the process exit code. Throws core::Error for bad input (file, --select, --panel).
int RunWindow(const RunOptions& options);

}  // namespace app::gui
