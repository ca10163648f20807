// `fencescope record`: the trace-cmd command line that captures the GPU scheduling events the
// ftrace importer maps, and the checks of tracefs made before running it.
//
//   trace-cmd record -o OUT.dat -C CLOCK -b KB -e dma_fence:dma_fence_signaled ... -- CMD ARGS
//
// Only events the running kernel has (tracefs `available_events`) are asked for: trace-cmd
// refuses a command line naming an event the kernel lacks (an i915 event on an amdgpu machine).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace importers::ftrace {

// The events `record` asks for when the kernel has them, as system:event: dma_fence, the DRM
// scheduler (old and new names), amdgpu, i915, xe, msm, drm vblank, sched_switch /
// sched_wakeup, and ftrace print (trace_marker).
const std::vector<std::string>& RecordedEvents();

struct RecordPlan {
  std::filesystem::path dat;          // where trace-cmd writes
  std::string clock = "mono";         // trace clock (trace-cmd -C)
  int buffer_kb = 0;                  // per-CPU buffer size (trace-cmd -b), 0: trace-cmd's default
  std::vector<std::string> command;   // the program to run and its arguments
};

// The argv of trace-cmd for `plan`, asking for the events of RecordedEvents() that appear in
// `available` (lines "system:event" as tracefs available_events lists them). Throws core::Error
// when none of them is available or the command is empty.
std::vector<std::string> TraceCmdRecordArgs(const RecordPlan& plan,
                                            const std::vector<std::string>& available);

// The tracefs directory to use under `root` ("/" normally; tests pass a scratch tree):
// sys/kernel/tracing, else sys/kernel/debug/tracing. Throws core::Error saying what is missing:
// tracefs not mounted, or no permission to write tracing_on / read available_events (what root,
// CAP_SYS_ADMIN or a tracefs group grants).
std::filesystem::path CheckTracefs(const std::filesystem::path& root = "/");

// The lines of `tracefs`/available_events.
std::vector<std::string> AvailableEvents(const std::filesystem::path& tracefs);

}  // namespace importers::ftrace
