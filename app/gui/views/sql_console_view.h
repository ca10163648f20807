// SQL console: a read-only query against the open trace file (core/store/query.h), the result
// as a clipped table. Ctrl+Enter or "Run" executes; errors are shown in place.
#pragma once

#include <array>
#include <string>

#include "app/gui/state/document.h"
#include "core/store/query.h"

namespace app::gui::views {

class SqlConsoleView {
 public:
  SqlConsoleView();
  void Draw(state::Document& doc);
  // Runs `sql` now (used by --sql on the command line and by the Run button).
  void Run(const state::Document& doc, const std::string& sql);

 private:
  std::array<char, 4096> m_text{};
  core::store::QueryResult m_result;
  std::string m_error;
  bool m_has_result = false;
  static constexpr size_t kMaxRows = 100000;
};

}  // namespace app::gui::views
