// Which optional sections of a report apply to a trace. A trace imported from a capture that
// has no records of a family (a PyTorch/Kineto trace has no interrupts, no native-fence log
// buffers, no PGO background work, no preemption) gets no empty section for it in the HTML and
// Markdown reports. Decided by the records present, never by the trace's source name, so a
// simulated trace and an import with the same records get the same sections.
//
// The JSON reports keep every key whatever applies (a contract for CI gates: a figure that does
// not apply is 0) and list the families present under `sections_present`.
#pragma once

#include <string>
#include <vector>

#include "core/report/report_data.h"

namespace core::report {

struct ReportSections {
  bool interrupts = false;   // interrupt records
  bool log_buffers = false;  // log_write / wraparound / overrun / fallback scan / flush / resize
  // background tasks, mode calls and their errors, commits, variants, PSO destruction (PGO)
  bool background = false;
  bool preemption = false;  // preemption requests / completions, TDRs, packet_preempted
};

ReportSections SectionsOf(const ReportData& data);

// The families present, by their JSON key ("interrupts", "log_buffers", "background",
// "preemption"), in that order.
std::vector<std::string> SectionNames(const ReportSections& sections);

}  // namespace core::report
