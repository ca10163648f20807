// The steps of a trace, as fleets (rank_summary.h) and replays (core/replay) compare them: the
// training loop's iterations where the PyTorch profiler marked them ("ProfilerStep#N" CPU
// slices), else the frames of a graphics trace, each ending at a present. A fleet compares its
// ranks by the ProfilerStep slices themselves (FindSteps); a replay's steps (FindStepMarks) run
// on to the end of the GPU work they launched, since a prediction is about when an iteration's
// work is done, not when the host finished launching it.
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

// A packet as a step reads it: when its launch was submitted and when it completed.
struct LaunchedWork {
  core::model::TimeNs submitted = 0;
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

// ProfilerStep slices (by start) run on to the end of their GPU work: a step's work is the
// packets whose launch was submitted within its slice; it ends when the later of its slice and
// its work does (its completion), and starts when its slice does or, if later, when the step
// before it completed. So where the host runs ahead of the GPU a step lasts from one
// iteration's work done to the next's, and where the GPU keeps up it is the slice itself.
void ExtendStepsToTheirWork(std::vector<StepMark>& steps, const std::vector<LaunchedWork>& work);

// FindSteps extended to their work (ExtendStepsToTheirWork), else FindFrames; `steps_from` is
// "profiler_step" or FindFrames' source.
std::vector<StepMark> FindStepMarks(const core::store::TraceStore& store,
                                    const core::analysis::Reconstruction& r,
                                    std::string* steps_from);
// The same given the trace's start, the ends of its completed present packets and its
// completed packets' submissions and ends, for a caller that has them without a reconstruction
// (a candidate replay, core/replay/replay_outcome.h).
std::vector<StepMark> FindStepMarks(const core::store::TraceStore& store,
                                    core::model::TimeNs start_ns,
                                    std::vector<core::model::TimeNs> present_packet_ends,
                                    const std::vector<LaunchedWork>& work, std::string* steps_from);

}  // namespace core::fleet
