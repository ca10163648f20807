// SQL console: a read-only query against the open trace file (core/store/query.h), the result
// as a clipped table. Ctrl+Enter or "Run" executes; errors are shown in place. The query runs on
// a thread of its own (core/store/background_query.h): meanwhile the console shows
// "Running… N s" and a Stop button, which ends the query ("stopped after N s").
#pragma once

#include <imgui.h>

#include <array>
#include <string>

#include "app/gui/state/document.h"
#include "core/store/background_query.h"
#include "core/store/query.h"

namespace app::gui::views {

class SqlConsoleView {
 public:
  SqlConsoleView();
  void Draw(state::Document& doc);
  // Starts `sql` (used by --sql on the command line and by the Run button); a query still
  // running is stopped first.
  void Run(const state::Document& doc, const std::string& sql);
  // Blocks until the query started last has ended and shows its outcome (headless screenshots).
  void Wait();
  bool Running() const { return m_query.Running(); }
  // The line shown above the result: "Running… 1.2 s", "stopped after 3 s", "12 rows", ...
  const std::string& status() const { return m_status; }
  // Where the Stop button was drawn in the last frame (empty when not shown).
  ImVec2 stop_button_min() const { return m_stop_min; }
  ImVec2 stop_button_max() const { return m_stop_max; }

 private:
  void TakeOutcome();

  std::array<char, 4096> m_text{};
  core::store::BackgroundQuery m_query;
  core::store::QueryResult m_result;
  std::string m_error;
  std::string m_status;
  bool m_has_result = false;
  ImVec2 m_stop_min{0, 0}, m_stop_max{0, 0};
  static constexpr size_t kMaxRows = 100000;
};

}  // namespace app::gui::views
