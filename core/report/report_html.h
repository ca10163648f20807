// `fencescope report -o report.html`: one self-contained HTML file (inline CSS, SVG and two
// small scripts: table sorting and the overview's zoom; no network). It opens with what held
// the GPU back (lead.h) and the per-queue timeline overview, then the summary, queue time split
// and idle-gap attribution, interrupt-rate chart, wait-latency histograms, critical path, PGO
// convergence chart and the findings with their times. Every table is bounded
// (report_rows.h); the JSON report keeps every row.
#pragma once

#include <string>

#include "core/report/report_data.h"

namespace core::report {

// `data` must have been analysed with full = true.
std::string ReportHtml(const ReportData& data);

}  // namespace core::report
