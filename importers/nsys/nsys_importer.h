// The Nsight Systems importer: an `nsys export --type sqlite` file (recognised by its tables:
// StringIds beside CUPTI_ACTIVITY_KIND_* / TARGET_INFO_* ones) becomes a fencescope trace; an
// `.nsys-rep` report is exported by the `nsys` on PATH first. The mapping, the facts of real
// exports and the limits: importers/nsys/README.md.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/store/trace_writer.h"
#include "importers/import_options.h"
#include "importers/nsys/nsys_database.h"

namespace importers::nsys {

// Imports an opened export into `writer`. Throws core::Error naming the file, table and row.
void ImportNsysDatabase(const NsysDatabase& db, core::store::TraceWriter& writer,
                        const ImportOptions& options);

// Runs `nsys export --type sqlite` on `report` into `sqlite_out`. Throws core::Error naming the
// command to run when no `nsys` is on PATH, or what nsys said when it failed.
void ExportNsysReport(const std::filesystem::path& report, const std::filesystem::path& sqlite_out);

}  // namespace importers::nsys
