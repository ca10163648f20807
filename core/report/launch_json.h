// The JSON forms of the launch figures of a report (keys documented in report_json.h):
// idle_split, launch_delay, queue_length and launch_links. Split from report_json.cpp so that
// file keeps the D3D12 figures and this one the CUDA-style launch figures.
#pragma once

#include "core/report/json.h"
#include "core/report/report_data.h"

namespace core::report {

// {fence, from, ns, link_inferred_ns} for each total: the fence waited on, the queue that
// signalled it, and how much of the time rests on a release link the importer inferred.
Json FenceGapsJson(const ReportData& d, const std::vector<analysis::FenceGapTotal>& totals);
// {thread, call, fence, ns} for each total: what the launching thread was blocked in.
Json SyncGapsJson(const ReportData& d, const std::vector<analysis::SyncGapTotal>& totals);

Json IdleSplitJson(const ReportData& d);
Json LaunchDelayJson(const ReportData& d);
Json QueueLengthJson(const ReportData& d);
Json LaunchLinksJson(const ReportData& d);

}  // namespace core::report
