// File > Open: a path field and the recent files. The chosen path is handed back to the main
// window, which opens it after the frame (drag-and-drop onto the window does the same).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace app::gui::views {

class OpenDialog {
 public:
  void Show() { m_show = true; }
  // Draws the dialog when shown; returns the path the user chose this frame.
  std::optional<std::string> Draw(const std::vector<std::string>& recent_files);

 private:
  bool m_show = false;
  std::array<char, 1024> m_path{};
};

}  // namespace app::gui::views
