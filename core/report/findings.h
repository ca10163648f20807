// Findings: the things a report calls out, each with its time and a sentence naming the
// fences, values and queues involved: never-unblocked waits, wait cycles, data-missing windows,
// resource hazards, fence rewinds and TDRs (engine resets).
#pragma once

#include <string>
#include <vector>

#include "core/report/report_data.h"

namespace core::report {

struct Finding {
  std::string kind;  // never_unblocked | wait_cycle | overrun | hazard | rewind | tdr
  core::model::TimeNs ts = 0;
  core::model::TimeNs end = 0;  // end of the window it covers (== ts for instants)
  std::string message;
};

// In time order. Hazards are listed up to HazardAnalysis's cap.
std::vector<Finding> CollectFindings(const ReportData& data);

}  // namespace core::report
