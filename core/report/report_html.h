// `fencescope report -o report.html`: one self-contained HTML file (inline CSS and SVG, no
// scripts, no network) with the summary, per-queue timeline overview, queue time split and
// idle-gap attribution, interrupt-rate chart, wait-latency histograms, critical path, PGO
// convergence chart and the findings with their times.
#pragma once

#include <string>

#include "core/report/report_data.h"

namespace core::report {

// `data` must have been analysed with full = true.
std::string ReportHtml(const ReportData& data);

}  // namespace core::report
