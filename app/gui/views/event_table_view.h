// The event table: every record of the trace, filterable by kind, by text (a name of the kind,
// queue, thread or fence, or a number equal to one of the record's fields) and by
// the visible or selected time range, drawn with ImGuiListClipper so only the rows on screen
// cost anything (fast on millions of rows). Clicking a row selects the record and moves the
// timeline to it.
//
// The kind and the time range are applied on the UI thread from the resident ts and kind
// columns; a text filter runs on the document's filter thread (SQL over the trace file) while
// the table says it is filtering. The rows on screen are read through the document's record
// reader, and their named fields written (state/record_fields.h), once each time the rows on
// screen or the filter change.
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
  void Refresh(state::Document& doc);
  // A row read from the trace: its record and its named fields other than queue, thread and
  // fence, written on one line.
  struct Row {
    core::store::EventRecord record;
    std::string fields;
  };
  // Makes rows [begin, end) available to CachedRow (reads when they are not).
  void EnsureRows(state::Document& doc, size_t begin, size_t end, size_t rows);
  const Row* CachedRow(size_t row) const;
  uint32_t EventOfRow(size_t row) const {
    return m_use_matches ? m_matches[row] : static_cast<uint32_t>(m_first + row);
  }

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
  // The text filter asked of the document's worker, and whether its answer is still awaited.
  state::EventFilterRequest m_requested;
  bool m_filtering = false;
  std::string m_filter_error;
  // Records of rows [m_cache_begin, m_cache_end) and of row 0 (ImGuiListClipper lays out row 0
  // every frame to measure the row height). m_rows_version changes whenever the row list does.
  uint64_t m_rows_version = 0;
  uint64_t m_cache_version = UINT64_MAX;
  size_t m_cache_begin = 0, m_cache_end = 0;
  std::vector<Row> m_cache;
  Row m_cache_row0;
  bool m_cache_row0_valid = false;
  std::string m_read_error;
};

}  // namespace app::gui::views
