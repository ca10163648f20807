// Settings that persist between runs: recent files, panel layout, timeline toggles. Stored as
// `key = value` lines in <config dir>/settings.txt; unknown keys are ignored so older and newer
// builds can share the file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace app::gui::state {

struct Settings {
  std::vector<std::string> recent_files;  // most recent first, at most kMaxRecent
  float timeline_fraction = 0.64f;        // share of the height given to the timeline
  float details_width = 380.0f;           // width of the details panel, unscaled pixels
  float label_width = 280.0f;             // width of the timeline's row names, unscaled pixels
  int bottom_tab = 0;                     // last panel shown under the timeline
  bool show_arrows = true;
  bool show_fence_boxes = true;
  bool show_rate_curve = true;
  bool show_vsync = true;
  // Simulate dialog defaults.
  std::string last_scenario = "default";
  int64_t last_seed = 1;

  static constexpr size_t kMaxRecent = 12;
};

// Missing or unreadable file: defaults.
Settings LoadSettings(const std::filesystem::path& file);
// Best effort (settings are a convenience): returns false when the file could not be written.
bool SaveSettings(const Settings& settings, const std::filesystem::path& file);
void AddRecentFile(Settings& settings, const std::string& path);

}  // namespace app::gui::state
