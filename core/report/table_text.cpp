#include "core/report/table_text.h"

#include <algorithm>

namespace core::report {

std::string FormatAlignedTable(const std::vector<std::string>& columns,
                               const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) width[c] = columns[c].size();
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size() && c < width.size(); ++c) {
      width[c] = std::max(width[c], row[c].size());
    }
  }
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < columns.size(); ++c) {
      const std::string& cell = c < cells.size() ? cells[c] : std::string();
      out += cell;
      if (c + 1 < columns.size()) out.append(width[c] - cell.size() + 2, ' ');
    }
    out += '\n';
  };
  line(columns);
  std::vector<std::string> rule;
  for (size_t w : width) rule.emplace_back(w, '-');
  line(rule);
  for (const auto& row : rows) line(row);
  return out;
}

std::string FormatCsv(const std::vector<std::string>& columns,
                      const std::vector<std::vector<std::string>>& rows) {
  std::string out;
  auto cell = [&](const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) {
      out += text;
      return;
    }
    out += '"';
    for (char ch : text) {
      if (ch == '"') out += '"';
      out += ch;
    }
    out += '"';
  };
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c) out += ',';
      cell(cells[c]);
    }
    out += "\r\n";
  };
  line(columns);
  for (const auto& row : rows) line(row);
  return out;
}

}  // namespace core::report
