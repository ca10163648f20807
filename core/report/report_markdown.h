// `fencescope report --format md`: the report in the HTML report's order and with its bounds
// (report_rows.h): what held the GPU back (lead.h), then Markdown tables (summary, queues, queue
// pairs, idle gaps, packets, latency, longest waits, launches, critical path, PGO passes,
// preemption, findings, import notes).
#pragma once

#include <string>
#include <vector>

#include "core/report/report_data.h"

namespace core::report {

// `data` must have been analysed with full = true.
std::string ReportMarkdown(const ReportData& data);

// A Markdown table; '|' in a cell is escaped and a line break becomes a space.
std::string MarkdownTable(const std::vector<std::string>& header,
                          const std::vector<std::vector<std::string>>& rows);

}  // namespace core::report
