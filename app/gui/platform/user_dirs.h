// Where the window keeps files of its own, following the XDG base directory rules:
//   data   $XDG_DATA_HOME/fencescope   (default ~/.local/share/fencescope): default.db
//   config $XDG_CONFIG_HOME/fencescope (default ~/.config/fencescope): settings, imgui.ini
// The directories are created on first use.
#pragma once

#include <filesystem>

namespace app::gui::platform {

std::filesystem::path UserDataDir();
std::filesystem::path UserConfigDir();

}  // namespace app::gui::platform
