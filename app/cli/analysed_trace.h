// Shared by stats, report and compare: load a trace and analyse it with progress on a terminal.
// Output files are written with core::store::WriteFileAtomically (core/store/output_file.h).
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "core/report/report_data.h"
#include "core/store/trace_store.h"

namespace app::cli {

struct AnalysedTrace {
  std::unique_ptr<core::store::TraceStore> store;  // owned here: data points into it
  core::report::ReportData data;
};

// Throws core::Error for a file that is not a trace.
// path_until_ns: see core::report::AnalyseTrace (negative: the end of the last run).
AnalysedTrace LoadAndAnalyse(const std::string& path, bool full, int64_t path_until_ns = -1);

}  // namespace app::cli
