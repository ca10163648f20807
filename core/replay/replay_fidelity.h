// How closely a replay reproduces the trace it came from: measured on every replay and printed
// beside every prediction, so that a user can see how far to trust it.
//
//   span       from the trace's start to the last end of the packets that completed in the
//              trace, in the trace and in the replay (the same packets, by id; both begin at
//              the trace's start)
//   steps      each step both have (core/fleet/step_marks.h: ProfilerStep#N, else frames), its
//              length in the replay against the trace
//   starts     each packet that started in both: |replay start - trace start|
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/fleet/step_marks.h"
#include "core/replay/derived_program.h"
#include "core/replay/trace_packet_slots.h"
#include "core/store/trace_store.h"

namespace core::replay {

struct ReplayFidelity {
  DurationNs trace_span_ns = 0;
  DurationNs replay_span_ns = 0;
  double span_error_pct = 0;  // (replay - trace) / trace * 100
  uint64_t steps_compared = 0;
  double step_error_pct_mean = 0;  // mean of |replay - trace| / trace * 100 over the steps
  double step_error_pct_max = 0;
  uint64_t packets_compared = 0;
  uint64_t packets_missing = 0;  // completed in the trace, never completed in the replay
  DurationNs start_error_ns_p50 = 0;
  DurationNs start_error_ns_p99 = 0;
  DurationNs start_error_ns_max = 0;
  FixedDelays fixed_delays;            // from the derived program
  uint64_t launches_not_in_trace = 0;  // likewise
};

ReplayFidelity MeasureFidelity(const core::store::TraceStore& trace,
                               const analysis::Reconstruction& trace_recon,
                               const core::store::TraceStore& replay,
                               const analysis::Reconstruction& replay_recon,
                               const DerivedProgram& program);

// A packet's start and end in a replay; kUnknownTime where it did not start or complete there.
struct ReplayedTimes {
  TimeNs start = analysis::kUnknownTime;
  TimeNs end = analysis::kUnknownTime;
};
// The same figures from what a measure of the replay kept instead of its reconstruction: the
// replay's times of the (first) packet with each of the trace's packet ids, and its step marks
// (core/fleet/step_marks.h). MeasureFidelity hands in the replay's reconstruction this way; the
// opportunities and what-if, what the simulator wrote (replay_outcome.h).
ReplayFidelity MeasureFidelity(const core::store::TraceStore& trace,
                               const analysis::Reconstruction& trace_recon,
                               const std::function<ReplayedTimes(int64_t packet_id)>& replayed,
                               const std::vector<core::fleet::StepMark>& replay_steps,
                               const DerivedProgram& program);

// From the trace's start to the last end, in `recon`, of the packets that completed in
// `trace_recon` (matched by packet id); -1 when none of them completed there. For a prediction:
// how long the trace's work takes there.
DurationNs SpanOfTraceWork(const analysis::Reconstruction& trace_recon,
                           const analysis::Reconstruction& recon);
// The same from the replay's packet ends by packet id (the packets that started and completed
// there; the first packet of an id as the reconstruction orders them).
DurationNs SpanOfTraceWork(const analysis::Reconstruction& trace_recon,
                           const std::unordered_map<int64_t, TimeNs>& replay_ends);
// The same from the replay's packet ends by slot (`slots` of `trace_recon`; kUnknownTime where
// no packet of the slot's id started and completed in the replay).
DurationNs SpanOfTraceWork(const analysis::Reconstruction& trace_recon,
                           const TracePacketSlots& slots,
                           const std::vector<TimeNs>& replay_end_by_slot);

}  // namespace core::replay
