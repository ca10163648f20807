#include "app/gui/platform/user_dirs.h"

#include <cstdlib>
#include <system_error>

#include "core/model/error.h"

namespace app::gui::platform {
namespace {

std::filesystem::path XdgDir(const char* variable, const char* home_relative) {
  std::filesystem::path base;
  if (const char* value = std::getenv(variable); value && *value) {
    base = value;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = std::filesystem::path(home) / home_relative;
  } else {
    base = std::filesystem::temp_directory_path();
  }
  std::filesystem::path dir = base / "fencescope";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw core::Error("cannot create directory " + dir.string() + ": " + ec.message());
  return dir;
}

}  // namespace

std::filesystem::path UserDataDir() {
  return XdgDir("XDG_DATA_HOME", ".local/share");
}
std::filesystem::path UserConfigDir() {
  return XdgDir("XDG_CONFIG_HOME", ".config");
}

}  // namespace app::gui::platform
