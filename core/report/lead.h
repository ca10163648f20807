// What held the GPU back: the few figures the HTML and Markdown reports open with, before any
// table. Each is taken from an analysis whose section follows further down (the idle-gap
// attribution, the longest waits, the critical path, the queues' active span), so every number
// in the opening lines is also in a table, and each line links to that section.
//
//   per queue   its busy time and the largest cause of the rest (GapCause), with the fence or
//               host sync that holds most of it where that cause names one
//   waits       the longest waits and what released them
//   path        the tracks with the largest shares of the critical path
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/analysis/active_span.h"
#include "core/report/report_data.h"

namespace core::report {

constexpr size_t kLeadQueues = 5;
constexpr size_t kLeadWaits = 3;
constexpr size_t kLeadPathTracks = 3;

struct QueueLead {
  core::model::QueueId queue = 0;
  core::model::DurationNs busy_ns = 0;
  // The gap cause (idle_gaps.h) with the most time, and that time; a queue held or idle for
  // no time at all has cause_ns 0.
  analysis::GapCause cause = analysis::GapCause::kNothingSubmitted;
  core::model::DurationNs cause_ns = 0;
  // waiting_on_fence: the (fence, signaller) that held the queue longest; synchronised: the
  // host sync it waited on longest. Empty for the other causes.
  std::optional<analysis::FenceGapTotal> fence;
  std::optional<analysis::SyncGapTotal> sync;
};

struct Lead {
  core::model::DurationNs span_ns = 0;  // the capture
  analysis::ActiveSpan active;
  // The kLeadQueues queues that did something with the most busy time (most first; ties:
  // lower id), and how many more did something.
  std::vector<QueueLead> queues;
  size_t queues_left_out = 0;
  std::vector<analysis::HeldWait> waits;  // the kLeadWaits longest, longest first
  core::model::DurationNs path_ns = 0;
  std::vector<analysis::PathShare> path;  // the kLeadPathTracks largest shares, largest first
};

// `data` analysed with full = true.
Lead ComputeLead(const ReportData& data);

// The lead as lines of text, each with the id of the HTML section (report_html.cpp) that
// shows its figures: "timeline", "gaps", "longest-waits", "critical-path" or "opportunities".
struct LeadLine {
  std::string text;
  std::string section;
};
std::vector<LeadLine> LeadLines(const ReportData& data, const Lead& lead);

// "from 355.123 ms to 355.635 ms": the active span in times from the capture's start, to as
// many decimals as a tenth of its length needs (FormatTimeAt).
std::string ActiveFromTo(const ReportData& d, const analysis::ActiveSpan& active);

// When the queues did nothing: "in the first 30.5 s and the last 76.2 ms" (either alone when
// the other is 0). `active` must have a lead-in or a tail.
std::string IdleEnds(const analysis::ActiveSpan& active);

// A share as a percentage, "12.3%", "<0.1%" for a share above 0 that rounds to 0.0%.
std::string Percent(double share);

}  // namespace core::report
