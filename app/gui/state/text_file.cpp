#include "app/gui/state/text_file.h"

#include "core/model/error.h"
#include "core/store/output_file.h"

namespace app::gui::state {

bool WriteTextFileAtomically(const std::filesystem::path& file, const std::string& text) {
  try {
    core::store::WriteFileAtomically(file, text);
    return true;
  } catch (const core::Error&) {
    return false;
  }
}

}  // namespace app::gui::state
