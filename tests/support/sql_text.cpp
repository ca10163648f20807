#include "tests/support/sql_text.h"

#include <sstream>

#include "core/store/query.h"

namespace test_support {

std::string RowsText(const std::filesystem::path& db, const std::string& sql) {
  std::string text;
  for (const auto& row : core::store::RunQuery(db, sql).rows) {
    for (size_t i = 0; i < row.size(); ++i) text += (i ? "|" : "") + row[i];
    text += "\n";
  }
  return text;
}

std::string FirstCell(const std::filesystem::path& db, const std::string& sql) {
  auto r = core::store::RunQuery(db, sql);
  if (r.rows.empty() || r.rows[0].empty()) return "<none>";
  return r.rows[0][0];
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace test_support
