// Annotation ranges that mark a training loop's iterations (NVTX, roctx): they become the
// ProfilerStep#N slices per-step figures, fleets and replays look for (core/fleet/step_marks.h).
// One rule for every importer whose capture has such ranges (Nsight Systems, rocprof).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/types.h"
#include "core/store/trace_writer.h"
#include "importers/common/record_sink.h"

namespace importers {

// N of a range text "step N", "iteration N" or "iter N" (any case, ' ', '#' or '_' allowed
// before N), else nullopt. ("ProfilerStep#N" needs nothing: a slice so named is a step as it is.)
std::optional<int64_t> StepNumberOf(std::string_view text);

// True for a text that names an iteration without its number: "step", "iteration", "iter", or
// a name ending in "_step" / " step" / "-step" (and so for iteration / iter): "train_step",
// "Training Step". Such a range is a step only when it is repeated (StepRanges).
bool NamesStepWithoutNumber(std::string_view text);

// True when either rule could make a step of a range of this text: a caller with millions of
// ranges keeps only these for StepRanges.
inline bool MayMarkStep(std::string_view text) {
  return StepNumberOf(text).has_value() || NamesStepWithoutNumber(text);
}

struct MarkerRange {
  int64_t start = 0, end = 0;
  std::string_view text;  // must outlive the StepRanges call
};

struct StepRange {
  int64_t start = 0, end = 0;
  int64_t number = 0;  // N of ProfilerStep#N
};

// The steps among `ranges` (any order), by start:
//  * numbered ranges ("step 3", "iteration 12") are step N each;
//  * where none is numbered, the ranges of the unnumbered step name seen most often (at least
//    twice; ties: the one seen first) are steps 1, 2, ... in time order, a range starting
//    before the previous one ended (nested in it) left out.
std::vector<StepRange> StepRanges(std::vector<MarkerRange> ranges);

// Writes `steps` as ProfilerStep#N CPU slices of category `category` on a thread of their own
// named `thread_name` (tid -1) in `process`. Returns how many were written.
uint64_t AddStepSlices(const std::vector<StepRange>& steps, core::model::ProcessId process,
                       const std::string& thread_name, std::string_view category,
                       RecordSink& sink, core::store::TraceWriter& writer);

}  // namespace importers
