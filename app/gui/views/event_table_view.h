// The event table: every record of the trace, filterable by kind, by text (a name of the kind,
// queue, thread or fence, or a number equal to the record's op_id, value or an argument) and by
// the visible or selected time range, drawn with ImGuiListClipper so only the rows on screen
// cost anything (fast on millions of rows). Clicking a row selects the record and moves the timeline to it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/state/document.h"

namespace app::gui::views {

class EventTableView {
 public:
  void Draw(state::Document& doc);

 private:
  enum class TimeFilter : int { kAll = 0, kVisible = 1, kSelectedRange = 2 };
  void Refresh(const state::Document& doc);

  int m_kind = 0;  // 0: all kinds, else EventKind id
  char m_text_input[128] = {};
  std::string m_text;  // applied text filter (Enter applies what is typed)
  TimeFilter m_time_filter = TimeFilter::kAll;
  // Rows shown: event indices [m_first, m_last) when m_matches is unused (all kinds), else
  // m_matches. Rebuilt when the filter or its time range changes.
  const state::Document* m_doc = nullptr;
  int m_built_kind = -1;
  std::string m_built_text;
  size_t m_first = 0, m_last = 0;
  bool m_use_matches = false;
  std::vector<uint32_t> m_matches;
};

}  // namespace app::gui::views
