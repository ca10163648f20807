// Walking a CSV text record by record (RFC 4180), for the rocprof CSV readers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace importers::rocprof {

// One CSV record: its fields (quotes undone) and the line it starts on.
struct CsvRow {
  std::vector<std::string> fields;
  uint64_t line = 0;
};

// Walks a CSV text record by record (RFC 4180: quoted fields may hold commas, doubled quotes
// and line breaks).
class CsvCursor {
 public:
  explicit CsvCursor(std::string_view text) : m_text(text) {}

  // The next non-empty record, or false at the end. `quote_open` is set when the text ends
  // inside a quoted field.
  bool Next(CsvRow& row, bool& quote_open) {
    quote_open = false;
    while (m_pos < m_text.size()) {
      row.fields.clear();
      row.line = m_line;
      std::string field;
      bool quoted = false, any = false;
      while (m_pos < m_text.size()) {
        const char c = m_text[m_pos++];
        if (quoted) {
          if (c == '"') {
            if (m_pos < m_text.size() && m_text[m_pos] == '"') {
              field += '"';
              ++m_pos;
            } else {
              quoted = false;
            }
          } else {
            if (c == '\n') ++m_line;
            field += c;
          }
          continue;
        }
        if (c == '"') {
          quoted = true;
          any = true;
        } else if (c == ',') {
          row.fields.push_back(std::move(field));
          field.clear();
          any = true;
        } else if (c == '\n') {
          ++m_line;
          break;
        } else if (c != '\r') {
          field += c;
          any = true;
        }
      }
      if (quoted) quote_open = true;
      if (!any) continue;  // a blank line
      row.fields.push_back(std::move(field));
      return true;
    }
    return false;
  }

 private:
  std::string_view m_text;
  size_t m_pos = 0;
  uint64_t m_line = 1;
};

}  // namespace importers::rocprof
