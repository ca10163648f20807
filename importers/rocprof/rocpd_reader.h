// Reads a rocpd database: rocprofv3's default output since ROCm 7 (`%hostname%/%pid%_results.db`),
// an SQLite file whose tables carry the session's uuid as a suffix (`rocpd_kernel_dispatch_<uuid>`)
// beside views of the plain names. The tables are read directly (the file's views and triggers
// never run): rocpd_info_agent / _queue / _thread / _process / _kernel_symbol, rocpd_string,
// rocpd_event (correlation ids), rocpd_kernel_dispatch, rocpd_memory_copy, rocpd_region (API
// calls and roctx ranges).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "importers/rocprof/rocprof_capture.h"

namespace core::store {
class Database;
}

namespace importers::rocprof {

// The database has a rocpd_string table and a rocpd_kernel_dispatch or rocpd_info_agent one.
bool LooksLikeRocpd(core::store::Database& db);

// The suffix rocpd puts after every table name (the session's uuid: `rocpd_string_<uuid>`), or
// nullopt when the file has no rocpd_string table.
std::optional<std::string> RocpdTableSuffix(core::store::Database& db);

// Throws core::Error naming the file, the table and the row of a record that names an agent,
// kernel or thread the file does not list, or that ends before it starts; with `lenient`, such
// rows are counted (capture.skipped) and left out.
RocCapture ReadRocpd(core::store::Database& db, const std::string& label, bool lenient);

}  // namespace importers::rocprof
