// Findings: what deserves a look, each row a click away from its place on the timeline. From
// core/analysis: wait cycles (deadlocks) and waits never released (wait_findings.h), resource
// hazards (resource_hazards.h); from the reconstruction: log overruns (data-missing windows),
// fence rewinds, cancelled or abandoned background tasks; and the reconstruction's and the
// importer's problem counters.
#pragma once

#include <string>
#include <vector>

#include "app/gui/state/document.h"

namespace app::gui::views {

struct Finding {
  enum class Severity : uint8_t { kInfo, kWarning, kError };
  Severity severity = Severity::kInfo;
  std::string category;
  std::string text;
  state::Selection target;  // kNone: nothing to jump to
};

std::vector<Finding> CollectFindings(const state::Document& doc);

class FindingsView {
 public:
  void Draw(state::Document& doc);

 private:
  const state::Document* m_doc = nullptr;
  std::vector<Finding> m_findings;
};

}  // namespace app::gui::views
