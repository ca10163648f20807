// The steps of a trace, as fleets (rank_summary.h) and replays (core/replay) compare them: the
// training loop's iterations where the PyTorch profiler marked them ("ProfilerStep#N" CPU
// slices), else the frames of a graphics trace, each ending at a present.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/store/trace_store.h"

namespace core::fleet {

struct StepMark {
  int64_t id = 0;  // N of ProfilerStep#N, or of frame N
  core::model::TimeNs start = 0;
  core::model::TimeNs end = 0;
};

// The ProfilerStep#N slices, by start. A step number seen twice (the profiler restarted, or
// two threads marked it) keeps its first slice, so a step is matched across ranks once.
std::vector<StepMark> FindSteps(const core::store::TraceStore& store);
// N of a CPU slice named ProfilerStep#N, else -1.
int64_t StepNumberOf(std::string_view name);

// The frames of a graphics trace (for a trace without ProfilerStep slices); `source` says
// which records end them: "present_marker", "present_packet", "vsync_marker" or "none".
std::vector<StepMark> FindFrames(const core::store::TraceStore& store,
                                 const core::analysis::Reconstruction& r, std::string* source);
// The same given the trace's start and the ends of its completed present packets, for a caller
// that has them without a reconstruction (a candidate replay, core/replay/replay_outcome.h).
std::vector<StepMark> FindFrames(const core::store::TraceStore& store, core::model::TimeNs start_ns,
                                 std::vector<core::model::TimeNs> present_packet_ends,
                                 std::string* source);

// FindSteps, else FindFrames; `steps_from` is "profiler_step" or FindFrames' source.
std::vector<StepMark> FindStepMarks(const core::store::TraceStore& store,
                                    const core::analysis::Reconstruction& r,
                                    std::string* steps_from);
std::vector<StepMark> FindStepMarks(const core::store::TraceStore& store, core::model::TimeNs start_ns,
                                    std::vector<core::model::TimeNs> present_packet_ends,
                                    std::string* steps_from);

}  // namespace core::fleet
