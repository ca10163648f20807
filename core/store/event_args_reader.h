// EventArgsReader: the extra arguments an importer kept for an event (the `event_args` table:
// a copy's bytes and direction, an NVTX range's domain, a dispatch's grid size), read from the
// trace file by rowid when the details panel shows the event. They are never loaded with the
// trace: few events have them and only the selected one is shown.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/model/types.h"
#include "core/store/sqlite_db.h"

namespace core::store {

class EventArgsReader {
 public:
  // `trace`: the trace database file (empty: an in-memory trace, which has no arguments).
  explicit EventArgsReader(std::filesystem::path trace);
  ~EventArgsReader();

  // (key, value as text) of each argument of event `rowid`, in the order written. The last
  // event asked for is kept (the panel asks every frame). A file that cannot be read gives none.
  const std::vector<std::pair<std::string, std::string>>& Read(core::model::EventRowId rowid);

 private:
  std::filesystem::path m_trace;
  std::unique_ptr<Database> m_db;
  Statement m_select;
  bool m_failed = false;
  core::model::EventRowId m_rowid = 0;
  std::vector<std::pair<std::string, std::string>> m_args;
};

}  // namespace core::store
