// Findings: exactly the report's findings list (core::report::CollectFindings over the
// document's analyses: waits never unblocked, wait cycles, log overruns, resource hazards,
// fence rewinds), in time order with the report's messages. A click zooms the timeline to the
// finding's time (and selects its window when it has one).
#pragma once

#include <vector>

#include "app/gui/state/document.h"
#include "core/report/findings.h"

namespace app::gui::views {

class FindingsView {
 public:
  void Draw(state::Document& doc);
  // The list the panel shows for `doc` (computed once per document).
  const std::vector<core::report::Finding>& FindingsOf(const state::Document& doc);

 private:
  const state::Document* m_doc = nullptr;
  std::vector<core::report::Finding> m_findings;
};

}  // namespace app::gui::views
