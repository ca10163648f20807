// Import notes: what the importer counted (the trace's import_problems table) in the three report
// formats, and what a report says in place of its GPU sections when the trace has no GPU work
// at all (a CPU-only profile, a CUPTI range-profiler capture): one sentence, not a dozen empty
// tables.
#pragma once

#include <string>
#include <vector>

#include "core/report/json.h"
#include "core/report/report_data.h"

namespace core::report {

// What the severities of the import notes mean, said above their table.
inline constexpr const char* kImportNotesExplained =
    "What the importer counted while reading the capture: data_loss, records it could not use "
    "(the figures above lack them); error, records it refused; info, what it noted or inferred "
    "(how it linked records, how many it read of a kind).";

// [{name, severity, count, first_place, description}], by severity (data loss first), then name.
Json ImportProblemsJson(const ReportData& d);
// The notes the HTML and Markdown tables show (an ETW capture has a hundred counters of records
// read per event kind): the kTableRows most severe, of one severity those counted most often,
// as rows (counter, severity, count, first at, meaning) in the JSON's order; and the line for
// the rest ("and 119 more notes, 283,004 counted in all"), "" when none is left out.
struct ImportNoteRows {
  std::vector<std::vector<std::string>> rows;
  std::string more;
};
ImportNoteRows ImportProblemRows(const ReportData& d);
std::string ImportProblemsHtml(const ReportData& d);
// One note as a line of text (the window's trace panel): "count (meaning) first at PLACE", the
// place left out for counters kept over the whole trace (Kineto's inferences have none).
std::string ImportProblemText(const core::store::ImportProblem& p);

// True when some queue did something or some wait was recorded: the GPU sections apply.
bool HasGpuWork(const ReportData& d);
// The sentence shown instead of the GPU sections; "" when HasGpuWork.
std::string NoGpuWorkSentence(const ReportData& d);

}  // namespace core::report
