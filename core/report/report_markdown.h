// `fencescope report --format md`: the report as Markdown tables (summary, queues, queue pairs,
// idle gaps, interrupts, latency, critical path shares, PGO passes, findings).
#pragma once

#include <string>

#include "core/report/report_data.h"

namespace core::report {

// `data` must have been analysed with full = true.
std::string ReportMarkdown(const ReportData& data);

}  // namespace core::report
