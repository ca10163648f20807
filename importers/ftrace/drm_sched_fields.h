// The fields of the DRM GPU scheduler's tracepoints (gpu_scheduler_trace.h), read the same way
// whether they come from printed text or from a `.dat` record decoded with the file's formats.
//
//   older kernels   drm_sched_job / drm_run_job   entity=%p, id=%llu, fence=%p, ring=%s, ...
//                   drm_sched_process_job         fence=%p signaled
//                   drm_sched_job_wait_dep        job ring=%s, id=%llu, depends fence=%p,
//                                                 context=%llu, seq=%u
//   newer kernels   drm_sched_job_queue / _run    dev=%s, [id=%llu, ]fence=%llu:%llu, ring=%s, ...
//                   drm_sched_job_done            fence=%llu:%llu signaled
//                   drm_sched_job_add_dep         fence=%llu:%llu[, id=%llu] depends on
//                                                 fence=%llu:%llu
//
// In a `.dat` the fields have their struct names instead: the ring is `name`, the job's finished
// fence `fence_context` / `fence_seqno` (or the pointer `fence`), the dependency `ctx` / `seqno`.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "importers/ftrace/ftrace_event.h"

namespace importers::ftrace {

// A job's key: its finished fence as (context, seqno), or (pointer, kPointerKey) on kernels that
// print the fence as a pointer.
inline constexpr uint64_t kPointerKey = ~uint64_t{0};

struct DrmSchedJobKey {
  uint64_t hi = 0;
  uint64_t lo = kPointerKey;
  bool operator==(const DrmSchedJobKey&) const = default;
};

struct FenceRef {
  uint64_t context = 0;
  uint64_t seqno = 0;
};

// The ring (scheduler) name: `ring=` in text, `name` in a .dat; empty when absent.
std::string_view DrmSchedRing(const FtraceEvent& e);

// The job's finished fence: `fence=C:S` / `fence=0xPTR` (text), fence_context + fence_seqno or
// the `fence` pointer (.dat). nullopt when the event carries none that can be read.
std::optional<DrmSchedJobKey> DrmSchedJob(const FtraceEvent& e);

// The dependency fence of drm_sched_job_wait_dep (context=/seq=, .dat ctx/seqno) and of
// drm_sched_job_add_dep (the second `fence=C:S`, .dat ctx/seqno).
std::optional<FenceRef> DrmSchedDependency(const FtraceEvent& e);

}  // namespace importers::ftrace
