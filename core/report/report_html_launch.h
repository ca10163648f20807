// The HTML report's launch sections: idle time between packets classed like HTA
// (host wait / kernel wait / other), the launch delay per queue with its longest delays, and the
// queue length per queue as a chart. Figures from core/analysis (idle_gaps.h, launch_delay.h,
// queue_length.h); this file only lays them out.
#pragma once

#include <string>

#include "core/report/report_data.h"

namespace core::report {

std::string IdleSplitSection(const ReportData& d);
std::string LaunchSection(const ReportData& d);

}  // namespace core::report
