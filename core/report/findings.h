// Findings: the things a report calls out, each with its time and a sentence naming the
// fences, values and queues involved: never-unblocked waits, waits stuck after a rewind, waits
// whose signal is not in the capture, wait cycles, data-missing windows, resource hazards, fence
// rewinds and TDRs (engine resets). The wait categories are defined in
// core/analysis/wait_findings.h; waits that are only unprocessed or pending at the end are
// counted there, not listed as findings.
#pragma once

#include <string>
#include <vector>

#include "core/report/report_data.h"

namespace core::report {

struct Finding {
  // never_unblocked | stuck_after_rewind | signal_not_in_capture | wait_cycle | overrun |
  // hazard | rewind | tdr
  std::string kind;
  core::model::TimeNs ts = 0;
  core::model::TimeNs end = 0;  // end of the window it covers (== ts for instants)
  std::string message;
};

// The sentence for an open wait of the never_unblocked, stuck_after_rewind or
// signal_not_in_capture category: who waits for what, why it was not released, and the fence's
// CurrentValue at the end. The report and the window both use it.
std::string OpenWaitMessage(const core::store::TraceStore& store,
                            const core::analysis::PendingWait& wait);

// In time order. Hazards are listed up to HazardAnalysis's cap.
std::vector<Finding> CollectFindings(const ReportData& data);

}  // namespace core::report
