// The JSON forms of a report. Keys are stable: new keys may be added, existing ones are never
// renamed (CI gates read them with --fail-if).
//
// StatsJson (`fencescope stats --json`):
//   schema_version, source, duration_ns, start_ns, end_ns, events,
//   sections_present: the record families the trace has, of "interrupts", "log_buffers",
//                     "background", "preemption" (report_sections.h; the keys below are there
//                     either way),
//   queues: [{name, adapter, engine, type, identity (ReportData::QueueIdentity), packets,
//             busy_ns, waiting_ns, idle_ns}],
//   fences: {objects, signals_queued, signals_executed, cpu_signals, gpu_waits_queued,
//            gpu_waits_unblocked, cpu_waits, cpu_waits_released, waits_never_unblocked,
//            gpu_waits_never_unblocked, cpu_waits_never_released, waits_unprocessed_at_end,
//            waits_pending_at_end, waits_signal_not_in_capture, waits_stuck_after_rewind,
//            rewinds, gpu_waits_linked[_inferred], cpu_waits_linked[_inferred], waits_stuck},
//     the waits_* counts are the categories of core/analysis/wait_findings.h: every wait open
//     at the end is in exactly one; waits_never_unblocked counts only waits nothing in the
//     trace can release (never signalled, signal held behind a stuck wait or lost in a TDR);
//     waits_stuck = waits_never_unblocked + waits_stuck_after_rewind, every wait nothing in
//     or after the trace can release (the recommended --fail-if gate),
//   interrupts: {total, with_waiters_released, spurious, spurious_ratio, per_signal, optimized,
//                scan_all},
//   log_buffers: {entries_written, overruns, entries_lost, fallback_scans},
//   background: {tasks_queued, tasks_started, tasks_finished, tasks_cancelled, tasks_abandoned,
//                max_concurrent, api_errors, passes, converged, passes_to_converge,
//                time_to_converge_ns, packet_time_first_pass_ns, packet_time_last_pass_ns},
//   preemption: {requests, completed, packets_preempted, max_latency_ns, p99_latency_ns, tdrs,
//                granularity_graphics, granularity_compute}  (seed 004; granularities as names)
// Counts come from the records; a figure that does not apply to the trace is 0.
//
// ReportJson (`fencescope report --format json`): StatsJson plus
//   queue_pairs, idle_gaps, interrupt_rate,
//   critical_path: {start_ns, end_ns, length_ns, shares, steps_total,
//                   steps: [{kind, track, start_ns, end_ns, name, fence?, value?}]}, where name is
//                   the packet's name for run / submit steps and, for wait steps released by a
//                   GPU signal, that of the packet whose completion released it ("" otherwise),
//   latency, pgo_series,
//   findings: {count, waits_never_unblocked, wait_cycles, stuck_after_rewind,
//              signal_not_in_capture, overrun_windows, hazards, rewinds, tdrs, list: [{kind,
//              ts_ns, end_ns, message}]},
//   preemption_latency: [{granularity, requests, completed, p50_ns, p99_ns, max_ns}],
//   packet_stats: [{name, queue, count, total_ns, mean_ns, p50_ns, p99_ns, max_ns}] per
//                 (packet name, queue), run time of completed packets (packet_stats.h), sorted
//                 by total_ns descending, every row,
//   reconstruction (what could not be linked), and the launch figures (core/analysis
//   idle_gaps.h, launch_delay.h, queue_length.h; launch_json.cpp):
//   idle_gaps: [{name, waiting_on_fence_ns, preempted_ns, nothing_submitted_ns,
//                submitted_not_running_ns, launch_bound_ns, synchronised_ns, engine_busy_ns,
//                waiting_on: [{fence, from, ns, link_inferred_ns}],
//                synchronised_on: [{thread, call, fence, ns}]}],
//   idle_split: [{name, kernel_wait_max_ns, host_wait_ns, host_wait_gaps, kernel_wait_ns,
//                 kernel_wait_gaps, other_ns, other_gaps, unlinked_ns, unlinked_gaps,
//                 other_cross_stream_ns, other_host_sync_ns, other_preempted_ns,
//                 other_unexplained_ns, outside_ns,
//                 other_waiting_on: [{fence, from, ns, link_inferred_ns}],
//                 other_synchronised_on: [{thread, call, fence, ns}]}],
//   launch_links: {cpu_launch_flows, packets_linked, packets, flows_unmatched},
//   launch_delay: [{name, count, p50_ns, p90_ns, p99_ns, max_ns, mean_ns, negative,
//                   without_launch, outliers: [{packet, packet_id, start_ns, call_end_ns, thread,
//                   delay_ns}]}],
//   queue_length: [{name, source, max, mean, packets_counted, packets_left_out,
//                   series: {start_ns, bin_ns, max: [...]}}].
#pragma once

#include "core/report/json.h"
#include "core/report/report_data.h"

namespace core::report {

Json StatsJson(const ReportData& data);
// `data` must have been analysed with full = true.
Json ReportJson(const ReportData& data);

// The nearest-rank figures of `p` as members of `j`: count, p50_ns, p90_ns, p99_ns, max_ns and
// mean_ns, in that order.
void SetPercentiles(Json& j, const analysis::Percentiles& p);

// Caps on the lists a report prints (the counts are always complete).
constexpr size_t kMaxListedFindings = 1000;
constexpr size_t kMaxListedPathSteps = 2000;

}  // namespace core::report
