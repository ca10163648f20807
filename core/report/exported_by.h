// Which program and version wrote the capture a trace was imported from, as the importers keep
// it in the trace's meta (Nsight Systems: nsys_version and nsys_schema_version from the export's
// META_DATA_EXPORT / EXPORT_META_DATA table): "Nsight Systems 2024.5.1.113 (export schema
// 3.13.2)". Empty when the trace does not say. Shown in the report's summary and in `stats`.
#pragma once

#include <string>

#include "core/store/trace_store.h"

namespace core::report {

std::string ExportedBy(const core::store::TraceStore& store);

}  // namespace core::report
