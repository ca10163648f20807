#include "app/gui/state/text_file.h"

#include <fstream>

namespace app::gui::state {

bool WriteTextFileAtomically(const std::filesystem::path& file, const std::string& text) {
  std::filesystem::path temp = file;
  temp += ".tmp";
  {
    std::ofstream out(temp, std::ios::trunc | std::ios::binary);
    if (!out) return false;
    out << text;
    if (!out) return false;
  }
  std::error_code ec;
  std::filesystem::rename(temp, file, ec);
  return !ec;
}

}  // namespace app::gui::state
