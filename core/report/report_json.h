// The JSON forms of a report. Keys are stable: new keys may be added, existing ones are never
// renamed (CI gates read them with --fail-if).
//
// StatsJson (`fencescope stats --json`):
//   schema_version, source, duration_ns, events,
//   queues: [{name, adapter, engine, type, packets, busy_ns, waiting_ns, idle_ns}],
//   fences: {objects, signals_queued, signals_executed, cpu_signals, gpu_waits_queued,
//            gpu_waits_unblocked, cpu_waits, cpu_waits_released, waits_never_unblocked,
//            gpu_waits_never_unblocked, cpu_waits_never_released, waits_unprocessed_at_end,
//            waits_pending_at_end, waits_signal_not_in_capture, waits_stuck_after_rewind,
//            rewinds, gpu_waits_linked[_inferred], cpu_waits_linked[_inferred]},
//     the waits_* counts are the categories of core/analysis/wait_findings.h: every wait open
//     at the end is in exactly one; waits_never_unblocked counts only waits nothing in the
//     trace can release (never signalled, signal held behind a stuck wait or lost in a TDR),
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
//   queue_pairs, idle_gaps, interrupt_rate, critical_path, latency, pgo_series,
//   findings: {count, waits_never_unblocked, wait_cycles, stuck_after_rewind,
//              signal_not_in_capture, overrun_windows, hazards, rewinds, list: [{kind, ts_ns,
//              end_ns, message}]},
//   preemption_latency: [{granularity, requests, completed, p50_ns, p99_ns, max_ns}],
//   reconstruction (what could not be linked).
#pragma once

#include "core/report/json.h"
#include "core/report/report_data.h"

namespace core::report {

Json StatsJson(const ReportData& data);
// `data` must have been analysed with full = true.
Json ReportJson(const ReportData& data);

// Caps on the lists a report prints (the counts are always complete).
constexpr size_t kMaxListedFindings = 1000;
constexpr size_t kMaxListedPathSteps = 2000;

}  // namespace core::report
