// Shared by stats, report and compare: load a trace and analyse it with progress on a terminal.
// Output files are written with core::store::WriteFileAtomically (core/store/output_file.h).
#pragma once

#include <filesystem>
#include <future>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/report/report_data.h"
#include "core/store/trace_store.h"

namespace app::cli {

struct AnalysedTrace {
  std::unique_ptr<core::store::TraceStore> store;  // owned here: data points into it
  core::report::ReportData data;
  // The trace's packed cache being written after a first open, while the command renders its
  // output; waited for when this goes (the write reads nothing above).
  std::future<std::vector<std::string>> cache_write;
};

// Throws core::Error for a file that is not a trace.
// path_until: the time the critical path is walked back from, as the user typed it
// (core/analysis/time_input.h; empty: the end of the last run). A time outside the trace throws.
// all_columns: keep every event column even where the analyses are cached (a replay of the
// trace reads its records).
AnalysedTrace LoadAndAnalyse(const std::string& path, bool full, std::string_view path_until = {},
                             bool all_columns = false);

}  // namespace app::cli
