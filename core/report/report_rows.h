// Which rows each table of the HTML and Markdown reports shows, chosen once for both so that
// the two show the same rows in the same order (table_bounds.h: at most kTableRows rows, the
// ones with the most time, and a line for the rest; at most kCellItems items in a list cell).
// Per-queue tables leave out the queues that did nothing (ReportData::IsQuietQueue) and keep
// queue order among the rows they show; lists of fences, pairs, packets and tracks are sorted
// by their time, most first. The JSON report has every row.
#pragma once

#include <string>

#include "core/report/findings.h"
#include "core/report/report_data.h"
#include "core/report/table_bounds.h"

namespace core::report {

// Queues by busy time.
Bounded<analysis::QueueTime> QueueRows(const ReportData& d);
// Queue pairs by the time the waiting queue was held.
Bounded<analysis::QueuePairWait> PairRows(const ReportData& d);
// Queues by their idle time (all gap causes).
Bounded<analysis::QueueGaps> GapRows(const ReportData& d);
// A cell listing the fences (with their signallers) or the host syncs that held a queue: the
// kCellItems with the most time, "; "-separated, then "and 12 more, 3.4 ms in all".
std::string FencesCell(const ReportData& d, const std::vector<analysis::FenceGapTotal>& fences);
std::string SyncsCell(const ReportData& d, const std::vector<analysis::SyncGapTotal>& syncs);
// Queues by their idle time between and around packets (idle_split).
Bounded<analysis::QueueIdleSplit> SplitRows(const ReportData& d);
// Fences by interrupts raised for them.
Bounded<analysis::FenceInterrupts> InterruptFenceRows(const ReportData& d);
// Latency groups by the total time of their waits (queued -> unblocked, all waits added up).
Bounded<analysis::LatencyGroup> LatencyRows(const std::vector<analysis::LatencyGroup>& groups);
double WaitedNs(const analysis::LatencyGroup& g);
// Packet groups (name, queue) by total run time.
Bounded<analysis::PacketNameStats> PacketRows(const ReportData& d);
// Critical path tracks by their time on the path.
Bounded<analysis::PathShare> PathShareRows(const ReportData& d);
// The latest steps of the critical path, latest first; the rest are the earlier ones.
Bounded<analysis::PathStep> PathStepRows(const ReportData& d);
// Queues with launch figures, by their launch delay added up.
Bounded<analysis::QueueLaunchDelay> LaunchDelayRows(const ReportData& d);
// The longest launch delays of every queue together, longest first.
struct QueueOutlier {
  core::model::QueueId queue = 0;
  const analysis::LaunchDelayOutlier* outlier = nullptr;  // into d.launch_delays
};
struct OutlierRows {
  std::vector<QueueOutlier> shown;
  size_t more = 0;
  double more_value = 0;  // their delays added up
};
OutlierRows LongestLaunchDelays(const ReportData& d);
// Queues with a queue length, by packets counted.
Bounded<analysis::QueueLength> QueueLengthRows(const ReportData& d);
// The first PGO passes and findings (time order).
Bounded<analysis::PgoPass> PgoPassRows(const ReportData& d);
Bounded<Finding> FindingRows(const std::vector<Finding>& findings);
// What could not be linked, by count.
Bounded<analysis::LinkProblem> LinkProblemRows(const ReportData& d);

}  // namespace core::report
