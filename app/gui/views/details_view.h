// Details of the selection: every field of the selected packet / box / interrupt / task /
// record, the records it was built from, and what it is linked to (releasing signal, waits a
// signal released, the interrupt that woke a CPU wait), each with a button that jumps to it.
#pragma once

#include <vector>

#include "app/gui/state/document.h"

namespace app::gui::views {

class DetailsView {
 public:
  void Draw(state::Document& doc);

 private:
  void DrawTraceSummary(const state::Document& doc);
  void DrawFields(state::Document& doc);
  void DrawLinks(state::Document& doc);
  void RefreshLinks(const state::Document& doc);

  // Things linked to the selection, found once per selection (a scan over waits / CPU waits).
  state::Selection m_links_for;
  const state::Document* m_links_doc = nullptr;
  std::vector<state::Selection> m_links;
};

}  // namespace app::gui::views
