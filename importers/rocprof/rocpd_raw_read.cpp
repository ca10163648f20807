#include "importers/rocprof/rocpd_raw_read.h"

#include <string>

#include "importers/rocprof/rocpd_reader.h"

namespace importers::rocprof {

RawReadResult RawReadRocpdTables(core::store::Database& db) {
  RawReadResult r;
  const auto suffix = RocpdTableSuffix(db);
  if (!suffix) return r;
  auto table = [&](const char* base) {
    std::string quoted = "\"";
    quoted.append(base).append(*suffix).push_back('"');
    return quoted;
  };
  auto has = [&](const char* base) {
    auto s = db.Prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
    s.BindText(1, std::string(base) + *suffix);
    return s.Step();
  };
  // Each table the importer reads, and the one naming its rows (joined as the importer looks
  // the names up), or nullptr.
  struct Read {
    const char* base;
    const char* names;
    const char* on;
  };
  static const Read kTables[] = {
      {"rocpd_string", nullptr, nullptr},
      {"rocpd_event", nullptr, nullptr},
      {"rocpd_arg", nullptr, nullptr},
      {"rocpd_kernel_dispatch", "rocpd_info_kernel_symbol", "n.id = t.kernel_id"},
      {"rocpd_memory_copy", "rocpd_string", "n.id = t.name_id"},
      {"rocpd_region", "rocpd_string", "n.id = t.name_id"},
  };
  for (const Read& read : kTables) {
    if (!has(read.base)) continue;
    std::string sql = "SELECT * FROM " + table(read.base) + " t";
    if (read.names && has(read.names)) {
      sql += " LEFT JOIN " + table(read.names) + " n ON " + read.on;
    }
    auto rows = db.Prepare(sql);
    TouchEveryRow(rows, r);
  }
  return r;
}

}  // namespace importers::rocprof
