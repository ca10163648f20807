// Details of the selection: every field of the selected packet / box / interrupt / task /
// record, the records it was built from, and what it is linked to (releasing signal, waits a
// signal released, the interrupt that woke a CPU wait), each with a button that jumps to it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "app/gui/state/document.h"

namespace app::gui::views {

// The fields the panel lists for record `event` (name, text): its rowid, kind and time, then
// every named field of its kind (state/record_fields.h), read through the document's record
// reader (from the trace file once the columns are released), then the arguments its importer
// kept for it (event_args: a copy's bytes and direction, an NVTX range's domain).
// Throws core::Error when the record cannot be read.
std::vector<std::pair<std::string, std::string>> RecordFields(const state::Document& doc,
                                                              uint32_t event);

class DetailsView {
 public:
  void Draw(state::Document& doc);

 private:
  void DrawTraceSummary(const state::Document& doc);
  void DrawFields(state::Document& doc);
  void DrawRecordFields(const state::Document& doc);
  void DrawLinks(state::Document& doc);
  void RefreshLinks(const state::Document& doc);

  // Things linked to the selection, found once per selection (a scan over waits / CPU waits).
  state::Selection m_links_for;
  const state::Document* m_links_doc = nullptr;
  std::vector<state::Selection> m_links;
  // The selected record's fields, read once per selection (not every frame).
  state::Selection m_fields_for;
  const state::Document* m_fields_doc = nullptr;
  std::vector<std::pair<std::string, std::string>> m_fields;
};

}  // namespace app::gui::views
