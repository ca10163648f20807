// `fencescope fleet report`: the FleetAnalysis as JSON, Markdown or HTML. The JSON keys are
// stable (CI gates read them with --fail-if, core/report/fail_if.h); new keys may be added:
//
//   schema_version, ranks_count, traces_failed, steps_matched, steps_unmatched, steps_from,
//   ranks_from ("metadata" | "name" | "order": how the traces were numbered, --ranks-from),
//   traces_are ("ranks" of one job | "runs" of a CI: how steps were compared, --traces-are),
//   clock: {method ("collective_end" | "step_start" | "trace_start" | "none"), reference_rank,
//           max_abs_offset_ns, max_spread_ns,
//           offsets: [{rank, offset_ns, samples, spread_ns}]},
//   ranks: [{rank, rank_source, input, steps, step_ns_mean, busy_ns, waiting_ns, idle_ns,
//            collective_ns, collective_wait_ns, straggler_steps, offset_ns}],
//   steps: [{step, step_ns_min, step_ns_max, step_ns_mean, step_ns: [per rank, ranks order],
//            straggler: {rank, lateness_ns, at, others_waited_ns,
//                        doing: [{kind, track, name, ns}]}}],
//   stragglers: {max_lateness_ns, others_waited_ns, by_rank: [{rank, steps}] (ranks that were
//                a straggler, most steps first)},
//   failed: [{input, error}]
#pragma once

#include <string>

#include "core/fleet/fleet_analysis.h"
#include "core/report/json.h"

namespace core::fleet {

core::report::Json FleetJson(const FleetAnalysis& a);
std::string FleetMarkdown(const FleetAnalysis& a);
// One page: per-rank table, clock offsets, a rank x step heat map of step time (at most
// kHeatMapRanks ranks: the slowest by mean step time) and the straggler list.
std::string FleetHtml(const FleetAnalysis& a);

constexpr size_t kHeatMapRanks = 256;

// A rank's clock offset as the reports and the window show it: exact ns when the clocks were
// aligned by shared events; for traces lined up by their starts (clock method trace_start) the
// offset is the time between the captures, in days, hours, minutes and seconds ("+1 d 2 h").
std::string OffsetText(const FleetAnalysis& a, const RankRow& r);

}  // namespace core::fleet
