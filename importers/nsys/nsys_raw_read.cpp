#include "importers/nsys/nsys_raw_read.h"

#include <string>
#include <utility>

namespace importers::nsys {

RawReadResult RawReadActivityTables(const NsysDatabase& db) {
  // (table, its column naming a StringIds row, or "" for none)
  static const std::pair<const char*, const char*> kTables[] = {
      {"CUPTI_ACTIVITY_KIND_KERNEL", "demangledName"},
      {"CUPTI_ACTIVITY_KIND_MEMCPY", ""},
      {"CUPTI_ACTIVITY_KIND_MEMSET", ""},
      {"CUPTI_ACTIVITY_KIND_RUNTIME", "nameId"},
      {"CUPTI_ACTIVITY_KIND_DRIVER", "nameId"},
      {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", ""},
      {"CUPTI_ACTIVITY_KIND_CUDA_EVENT", ""},
      {"OSRT_API", "nameId"},
      {"NVTX_EVENTS", "textId"},
  };
  RawReadResult r;
  for (const auto& [table, name_column] : kTables) {
    if (!db.HasTable(table)) continue;
    const std::string quoted = std::string("\"") + table + "\"";
    const bool joined = name_column[0] && db.Columns(table).count(name_column);
    const std::string sql =
        joined ? "SELECT t.*, s.value FROM " + quoted + " t LEFT JOIN StringIds s ON s.id = t." +
                     name_column
               : "SELECT * FROM " + quoted;
    core::store::Statement rows = db.Prepare(sql);
    TouchEveryRow(rows, r);
  }
  return r;
}

}  // namespace importers::nsys
