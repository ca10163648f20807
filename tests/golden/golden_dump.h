// The whole trace database as text, for the golden files: every table but the schema's own
// constant tables (event_kinds, enum_values), one block per table, rows in a fixed order. Events carry
// their kind's name beside the raw columns so that a reviewer can read the diff.
#pragma once

#include <filesystem>
#include <string>

#include "core/store/query.h"

namespace golden {

inline std::string DumpTrace(const std::filesystem::path& db) {
  std::string out;
  const auto tables = core::store::RunQuery(
      db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND "
          "name NOT IN ('event_kinds', 'enum_values') ORDER BY name");
  for (const auto& row : tables.rows) {
    const std::string& table = row[0];
    // Rows in a fixed order: events by rowid (record order), other tables (some have no rowid)
    // by all their columns.
    std::string sql = "SELECT e.rowid, k.name, e.* FROM events e JOIN event_kinds k ON "
                      "k.id = e.kind ORDER BY e.rowid";
    if (table != "events") {
      const size_t columns = core::store::RunQuery(db, "SELECT * FROM " + table, 0).columns.size();
      sql = "SELECT * FROM " + table + " ORDER BY 1";
      for (size_t c = 2; c <= columns; ++c) sql += ", " + std::to_string(c);
    }
    const auto result = core::store::RunQuery(db, sql);
    out += "== " + table + "(";
    for (size_t c = 0; c < result.columns.size(); ++c) {
      out += (c ? ", " : "") + result.columns[c];
    }
    out += ")\n";
    for (const auto& cells : result.rows) {
      // meta.source_file is where the import read from: only its name is the trace's own.
      const bool source_file = table == "meta" && cells.size() == 2 && cells[0] == "source_file";
      for (size_t c = 0; c < cells.size(); ++c) {
        std::string cell = cells[c].empty() ? "NULL" : cells[c];
        if (source_file && c == 1) cell = std::filesystem::path(cell).filename().string();
        for (char& ch : cell) {
          if (ch == '\n') ch = ' ';
        }
        out += (c ? " | " : "") + cell;
      }
      out += "\n";
    }
  }
  return out;
}

}  // namespace golden
