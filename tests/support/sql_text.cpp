#include "tests/support/sql_text.h"

#include <sqlite3.h>

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

std::string ExecSql(const std::filesystem::path& db, const std::string& sql) {
  sqlite3* handle = nullptr;
  std::string error;
  if (sqlite3_open(db.c_str(), &handle) != SQLITE_OK ||
      sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
    error = handle ? sqlite3_errmsg(handle) : "out of memory";
  }
  sqlite3_close(handle);
  return error;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace test_support
