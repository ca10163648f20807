// Critical path through the fence dependency graph, across queues and CPU threads, walked back
// from the end of the trace (or a chosen time) to where the chain of causes starts.
//
// Walking back from (track, t):
//   * on a queue, inside a run segment: the run [start, t] is on the path; then the segment's
//     start is explained by the latest of
//       - the end of the queue's previous segment          -> continue on the queue (a gap step
//                                                              when it ended before the start),
//       - the unblock of a wait of the queue               -> a wait step [signal executed,
//                                                              unblock], then jump to the
//                                                              signalling queue (or thread) at
//                                                              the signal's execution,
//       - the submission of the packet (first segment only) -> a submit step [submit, start],
//                                                              then jump to the submitting thread;
//   * on a queue between segments: the same rule applied to time t;
//   * on a thread: the CPU ran from its latest CPU-wait release up to t (a cpu_run step); the
//     wait step [signal executed, release] follows, then the jump to the signalling queue. A
//     thread with no earlier CPU wait ran from the trace's start (a last cpu_run step).
// A wait whose signal executed before the wait began (already satisfied) does not jump: the
// track's own earlier activity is then the cause. The walk stops where no earlier cause exists.
//
//   copy   [sub]==run==|sig
//   3d                  \__wait__==run==| end
//   path:  submit -> run(copy) -> wait(3d) -> run(3d)
#pragma once

#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

enum class PathStepKind : uint8_t {
  kRun = 0,         // a packet running on a queue
  kGpuWait = 1,     // a queue held until its wait was unblocked (signal executed -> unblock)
  kSubmit = 2,      // packet submitted -> started on its queue
  kQueueGap = 3,    // the queue ran nothing between two causes (preemption, scheduling)
  kCpuRun = 4,      // a thread running (between a wait release and a submission / signal)
  kCpuWait = 5,     // a thread blocked until released (signal executed -> release)
};
const char* PathStepKindName(PathStepKind kind);

struct PathStep {
  PathStepKind kind = PathStepKind::kRun;
  QueueId queue = 0;    // queue steps
  ThreadId thread = 0;  // thread steps
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t packet = kNoIndex;    // kRun, kSubmit
  uint32_t wait = kNoIndex;      // kGpuWait: into waits; kCpuWait: into cpu_waits
  uint32_t signal = kNoIndex;    // kGpuWait, kCpuWait: the releasing signal
  // kGpuWait, kCpuWait released by a GPU signal: the packet whose completion released it, the
  // last one completed on the signalling queue at or before the signal executed
  // (PacketBeforeSignal, packet_completions.h). kNoIndex otherwise.
  uint32_t released_by_packet = kNoIndex;
  // The packet a step is about (its name labels the step): `packet` for run and submit steps,
  // `released_by_packet` for wait steps; kNoIndex for gaps and CPU runs.
  uint32_t NamedPacket() const { return packet != kNoIndex ? packet : released_by_packet; }
};

struct PathShare {
  QueueId queue = 0;    // one of queue / thread is set
  ThreadId thread = 0;
  DurationNs ns = 0;
  double share = 0;     // ns / path length
};

struct CriticalPath {
  TimeNs start = 0;
  TimeNs end = 0;
  std::vector<PathStep> steps;    // chronological
  std::vector<PathShare> shares;  // queues by id, then threads by id; only tracks on the path
  DurationNs Length() const { return end - start; }
};

// until = kUnknownTime: from the latest run segment end in the trace.
CriticalPath ComputeCriticalPath(const Reconstruction& r, TimeNs until = kUnknownTime);

}  // namespace core::analysis
