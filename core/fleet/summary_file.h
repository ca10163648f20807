// The summary file of one fleet trace (FLEETDIR/traces/NNNNN.summary.json): the keys of
// `fencescope report --format json` for that trace, with one more key first, "fleet", holding
// the RankSummary (rank_summary.h):
//
//   {"fleet": {"input": ..., "order": 3, "metadata_rank": 3, "name_rank": 3, "start_ns": ...,
//              "end_ns": ..., "steps": [{"id", "start_ns", "end_ns", "path_ns",
//              "queues": [{"name", "busy_ns", "waiting_ns", "idle_ns"}],
//              "collectives": [{"name", "queue", "start_ns", "end_ns"}],
//              "path": [{"kind", "track", "name", "ns"}]}]},
//    "schema_version": 1, "source": ..., ... the report's keys ...}
//
// The "fleet" member is written on the file's first line, alone: the reduce step reads that
// line and nothing else, so reading 8,000 summaries costs 8,000 short reads however large the
// report part is (its critical-path and findings lists). The whole file is still one JSON
// document for anyone else.
#pragma once

#include <filesystem>
#include <string>

#include "core/fleet/rank_summary.h"
#include "core/report/json.h"

namespace core::fleet {

core::report::Json RankSummaryJson(const RankSummary& summary);
// [{kind, track, name, ns}] (a step's "path"; the fleet report's "doing" too).
core::report::Json PathItemsJson(const std::vector<PathItem>& items);

// The first line of a summary file up to its report: `{"fleet": {...}`; WriteSummaryFile then
// writes `,` and the report's members, or `}`.
std::string SummaryLineHead(const RankSummary& summary);

// `report`: a ReportJson object. Written atomically (WriteFileAtomically).
void WriteSummaryFile(const std::filesystem::path& path, const RankSummary& summary,
                      const core::report::Json& report);

// Reads the "fleet" member. Throws core::Error naming the file (and what is wrong) for a file
// that is missing, is not a summary or lacks a key. Without `step_paths` the steps' "path" lists
// are left empty (the reduce reads them again for the stragglers only: they are most of a
// summary's strings).
RankSummary ReadSummaryFile(const std::filesystem::path& path, bool step_paths = true);
// The same for the first line of a summary held in memory (`line`, without its line break;
// `label` names it in messages). ReadSummaryFile reads that line and parses it here.
RankSummary ParseSummaryLine(std::string line, const std::string& label, bool step_paths = true);

}  // namespace core::fleet
