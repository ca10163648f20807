#include "core/store/query.h"

#include <cstdio>

#include "core/store/trace_file.h"

namespace core::store {

QueryResult RunQuery(const std::filesystem::path& trace, const std::string& sql,
                     size_t max_rows) {
  Database db = OpenTrace(trace);
  Statement s = db.Prepare(sql);
  QueryResult result;
  for (int i = 0; i < s.ColumnCount(); ++i) result.columns.push_back(s.ColumnName(i));
  while (s.Step()) {
    if (result.rows.size() >= max_rows) {
      result.truncated = true;
      break;
    }
    std::vector<std::string> row;
    row.reserve(result.columns.size());
    for (int i = 0; i < s.ColumnCount(); ++i) {
      if (s.ColumnType(i) == SQLITE_FLOAT) {
        char buffer[64];
        std::snprintf(buffer, sizeof(buffer), "%.17g", s.ColumnDouble(i));
        row.emplace_back(buffer);
      } else {
        row.push_back(s.ColumnText(i));
      }
    }
    result.rows.push_back(std::move(row));
  }
  return result;
}

}  // namespace core::store
