#include "importers/ftrace/trace_cmd_record.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "core/model/error.h"

namespace importers::ftrace {

const std::vector<std::string>& RecordedEvents() {
  static const std::vector<std::string> events = {
      "dma_fence:dma_fence_init",          "dma_fence:dma_fence_emit",
      "dma_fence:dma_fence_signaled",      "dma_fence:dma_fence_wait_start",
      "dma_fence:dma_fence_wait_end",      "dma_fence:dma_fence_destroy",
      "gpu_scheduler:drm_sched_job",       "gpu_scheduler:drm_run_job",
      "gpu_scheduler:drm_sched_process_job", "gpu_scheduler:drm_sched_job_wait_dep",
      "gpu_scheduler:drm_sched_job_queue", "gpu_scheduler:drm_sched_job_run",
      "gpu_scheduler:drm_sched_job_done",  "gpu_scheduler:drm_sched_job_add_dep",
      "amdgpu:amdgpu_cs_ioctl",            "amdgpu:amdgpu_sched_run_job",
      "amdgpu:amdgpu_vm_flush",            "amdgpu:amdgpu_bo_move",
      "i915:i915_request_queue",           "i915:i915_request_add",
      "i915:i915_request_submit",          "i915:i915_request_in",
      "i915:i915_request_out",             "i915:i915_request_retire",
      "i915:i915_request_wait_begin",      "i915:i915_request_wait_end",
      "xe:xe_sched_job_create",            "xe:xe_sched_job_exec",
      "xe:xe_sched_job_run",               "xe:xe_sched_job_free",
      "msm:msm_gpu_submit",                "msm:msm_gpu_submit_flush",
      "msm:msm_gpu_submit_retired",        "drm:drm_vblank_event",
      "sched:sched_switch",                "sched:sched_wakeup",
      "ftrace:print",
  };
  return events;
}

std::vector<std::string> TraceCmdRecordArgs(const RecordPlan& plan,
                                            const std::vector<std::string>& available) {
  if (plan.command.empty()) throw core::Error("record: no command to run (record -o OUT -- CMD)");
  const std::set<std::string> have(available.begin(), available.end());
  std::vector<std::string> args = {"trace-cmd", "record", "-o", plan.dat.string()};
  if (!plan.clock.empty()) {
    args.push_back("-C");
    args.push_back(plan.clock);
  }
  if (plan.buffer_kb > 0) {
    args.push_back("-b");
    args.push_back(std::to_string(plan.buffer_kb));
  }
  size_t asked = 0;
  for (const std::string& event : RecordedEvents()) {
    // print is ftrace's own event: always there, not always listed.
    if (!have.count(event) && event != "ftrace:print") continue;
    args.push_back("-e");
    args.push_back(event);
    if (event != "ftrace:print") ++asked;
  }
  if (asked == 0) {
    throw core::Error(
        "record: the kernel has none of the GPU and scheduler tracepoints fencescope maps "
        "(dma_fence, gpu_scheduler, amdgpu, i915, xe, msm, drm, sched) in tracefs "
        "available_events");
  }
  args.insert(args.end(), plan.command.begin(), plan.command.end());
  return args;
}

std::filesystem::path CheckTracefs(const std::filesystem::path& root) {
  std::filesystem::path tracefs;
  for (const char* candidate : {"sys/kernel/tracing", "sys/kernel/debug/tracing"}) {
    std::error_code ec;
    if (std::filesystem::exists(root / candidate / "tracing_on", ec)) {
      tracefs = root / candidate;
      break;
    }
  }
  if (tracefs.empty()) {
    throw core::Error(fmt::format(
        "record: tracefs is not mounted or not visible ({} has no tracing_on); mount it with "
        "`mount -t tracefs nodev /sys/kernel/tracing` (needs root), or run where it is mounted",
        (root / "sys/kernel/tracing").string()));
  }
  const auto on = tracefs / "tracing_on";
  if (::access(on.c_str(), W_OK) != 0) {
    throw core::Error(fmt::format(
        "record: no permission to write {} (tracing needs root, CAP_SYS_ADMIN, or write access "
        "to tracefs granted to your group); run as root or with sudo",
        on.string()));
  }
  const auto events = tracefs / "available_events";
  if (::access(events.c_str(), R_OK) != 0) {
    throw core::Error(fmt::format("record: no permission to read {}", events.string()));
  }
  return tracefs;
}

std::vector<std::string> AvailableEvents(const std::filesystem::path& tracefs) {
  std::ifstream in(tracefs / "available_events");
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

}  // namespace importers::ftrace
