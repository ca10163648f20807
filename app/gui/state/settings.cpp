#include "app/gui/state/settings.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "app/gui/state/text_file.h"

namespace app::gui::state {
namespace {

std::string Trim(const std::string& text) {
  size_t a = text.find_first_not_of(" \t\r");
  size_t b = text.find_last_not_of(" \t\r");
  return a == std::string::npos ? std::string() : text.substr(a, b - a + 1);
}

}  // namespace

Settings LoadSettings(const std::filesystem::path& file) {
  Settings settings;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    size_t eq = line.find('=');
    if (eq == std::string::npos || line.starts_with('#')) continue;
    std::string key = Trim(line.substr(0, eq));
    std::string value = Trim(line.substr(eq + 1));
    try {
      if (key == "recent") {
        if (settings.recent_files.size() < Settings::kMaxRecent) {
          settings.recent_files.push_back(value);
        }
      } else if (key == "timeline_fraction") {
        settings.timeline_fraction = std::clamp(std::stof(value), 0.2f, 0.9f);
      } else if (key == "label_width") {
        settings.label_width = std::clamp(std::stof(value), 80.0f, 2000.0f);
      } else if (key == "details_width") {
        settings.details_width = std::clamp(std::stof(value), 120.0f, 2000.0f);
      } else if (key == "bottom_tab") {
        settings.bottom_tab = std::stoi(value);
      } else if (key == "show_arrows") {
        settings.show_arrows = value == "1";
      } else if (key == "show_fence_boxes") {
        settings.show_fence_boxes = value == "1";
      } else if (key == "show_rate_curve") {
        settings.show_rate_curve = value == "1";
      } else if (key == "show_vsync") {
        settings.show_vsync = value == "1";
      } else if (key == "last_scenario") {
        settings.last_scenario = value;
      } else if (key == "last_seed") {
        settings.last_seed = std::stoll(value);
      }
    } catch (const std::exception&) {
      // A malformed value keeps its default; the file is rewritten on the next save.
    }
  }
  return settings;
}

bool SaveSettings(const Settings& settings, const std::filesystem::path& file) {
  std::ostringstream out;
  out << "# fencescope window settings\n";
  for (const auto& path : settings.recent_files) out << "recent = " << path << "\n";
  out << "timeline_fraction = " << settings.timeline_fraction << "\n";
  out << "details_width = " << settings.details_width << "\n";
  out << "label_width = " << settings.label_width << "\n";
  out << "bottom_tab = " << settings.bottom_tab << "\n";
  out << "show_arrows = " << (settings.show_arrows ? 1 : 0) << "\n";
  out << "show_fence_boxes = " << (settings.show_fence_boxes ? 1 : 0) << "\n";
  out << "show_rate_curve = " << (settings.show_rate_curve ? 1 : 0) << "\n";
  out << "show_vsync = " << (settings.show_vsync ? 1 : 0) << "\n";
  out << "last_scenario = " << settings.last_scenario << "\n";
  out << "last_seed = " << settings.last_seed << "\n";
  return WriteTextFileAtomically(file, out.str());
}

void AddRecentFile(Settings& settings, const std::string& path) {
  auto& files = settings.recent_files;
  files.erase(std::remove(files.begin(), files.end(), path), files.end());
  files.insert(files.begin(), path);
  if (files.size() > Settings::kMaxRecent) files.resize(Settings::kMaxRecent);
}

}  // namespace app::gui::state
