// The ROCm profiler importer: rocpd SQLite databases (recognised by their rocpd_* tables),
// rocprofv3 JSON (recognised by its `rocprofiler-sdk-tool` key) and
// rocprof's kernel-trace CSV (v1 `results.csv`, v2 `timestamps.csv`, v3 `*_kernel_trace.csv`,
// recognised by their header row) become a fencescope trace with a row per HSA hardware queue.
// The formats, the mapping, the facts of real captures and the limits: importers/rocprof/README.md.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "core/store/sqlite_db.h"
#include "core/store/trace_writer.h"
#include "importers/import_options.h"

namespace importers::rocprof {

// The content is rocprofv3 JSON / a rocprof kernel-trace CSV (by its first bytes).
bool IsRocprofJson(std::string_view prefix);
bool IsRocprofCsv(std::string_view prefix);

// `bytes` must be followed by 64 readable bytes (ByteBuffer's padding). Throw core::Error naming
// `label` and the record (JSON) or line (CSV) of malformed input; nothing is written then.
void ImportRocprofJson(std::string_view bytes, const std::string& label,
                       core::store::TraceWriter& writer, const ImportOptions& options);
void ImportRocprofCsv(std::string_view bytes, const std::string& label,
                      core::store::TraceWriter& writer, const ImportOptions& options);

// rocprofv3's CSV output folder (`*_kernel_trace.csv`, `*_memory_copy_trace.csv`,
// `*_hip_api_trace.csv`, `*_marker_api_trace.csv`, `*_agent_info.csv`, ...). Throws core::Error
// naming the file and line of malformed rows, or the folder when it holds none of them.
void ImportRocprofCsvFolder(const std::filesystem::path& folder,
                            core::store::TraceWriter& writer, const ImportOptions& options);
// The same folder zipped: every member of the archive is read.
void ImportRocprofCsvZip(const std::filesystem::path& zip, core::store::TraceWriter& writer,
                         const ImportOptions& options);
// A file (or zip member, "archive.zip:900_agent_info.csv") named as one of that folder's.
bool IsRocprofCsvSetFile(std::string_view label);

// The bytes of an SQLite file opened read-only in memory when they are a rocpd database
// (rocprofv3's default output), else nullptr.
std::unique_ptr<core::store::Database> OpenRocpd(std::string_view bytes, const std::string& label);
// Whether the file at `path` is a rocpd database (false when SQLite cannot read it).
bool IsRocpdFile(const std::filesystem::path& path);
// Throws core::Error naming the file, table and row of malformed rows.
void ImportRocpd(core::store::Database& db, const std::string& label,
                 core::store::TraceWriter& writer, const ImportOptions& options);

}  // namespace importers::rocprof
