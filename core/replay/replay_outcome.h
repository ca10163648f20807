// What a candidate change's replay is measured by, without building the replayed trace: the span
// of the trace's work in it and its step lengths. The opportunities of a report replay a dozen
// or more candidates; building each replay's TraceStore and reconstruction took half of each
// candidate's time, though only the packets' starts and ends, the step slices and the present
// markers are read from it. Here the simulator writes into a sink that keeps those alone, and
// the same functions (SpanOfTraceWork, FindStepMarks, StepLengths) measure them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "core/analysis/reconstruction.h"
#include "core/replay/derived_program.h"
#include "core/replay/replay_fidelity.h"
#include "core/replay/trace_packet_slots.h"
#include "core/store/trace_store.h"

namespace core::replay {

struct ReplayOutcome {
  DurationNs span_of_trace_work = -1;     // SpanOfTraceWork against the trace
  std::map<int64_t, DurationNs> steps;    // StepLengths
};

// Replays `program` (derived from `trace`, edited by `edits`) and measures it. nullopt when the
// replay's packets cannot be told apart by id alone (an id of 0 or used twice, a packet started
// or completed twice): the reconstruction decides those by its own rules, so the caller replays
// in full (ReplayInMemory) instead.
std::optional<ReplayOutcome> MeasureReplay(const core::store::TraceStore& trace,
                                           const analysis::Reconstruction& trace_recon,
                                           const DerivedProgram& program,
                                           const std::string& edits);
// The same with the trace's packet slots built once (the opportunities measure a dozen or more
// replays of one trace).
// `step_durations` (may be null): the program's steps run for these durations
// (EditedDurations, whatif_edits.h), the program itself unedited.
std::optional<ReplayOutcome> MeasureReplay(
    const core::store::TraceStore& trace, const analysis::Reconstruction& trace_recon,
    const TracePacketSlots& slots, const DerivedProgram& program, const std::string& edits,
    const core::sim::StepDurations* step_durations = nullptr);

// The unedited replay measured the same way, with its fidelity figures (MeasureFidelity's, from
// the packets' times and step marks the measure kept): what the opportunities and what-if
// compare their candidates with. nullopt as MeasureReplay; `progress` as ReplayRun::progress.
struct MeasuredReplay {
  ReplayOutcome outcome;
  ReplayFidelity fidelity;
};
std::optional<MeasuredReplay> MeasureUneditedReplay(
    const core::store::TraceStore& trace, const analysis::Reconstruction& trace_recon,
    const TracePacketSlots& slots, const DerivedProgram& program,
    const std::function<void(double)>& progress = {});

}  // namespace core::replay
