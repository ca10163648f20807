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
// The same walk starts from the end of the trace (ComputeCriticalPath) or from any track and
// time (WalkBackFrom: the chain that ends at one item, critical_chain.h).
//
//   copy   [sub]==run==|sig
//   3d                  \__wait__==run==| end
//   path:  submit -> run(copy) -> wait(3d) -> run(3d)
#pragma once

#include <limits>
#include <utility>
#include <vector>

#include "core/analysis/packet_completions.h"
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
  // The walk went on from here on another track: a kGpuWait or kCpuWait step to its releasing
  // signal's queue (or thread), a kSubmit step to the submitting thread. A wait already
  // satisfied, or a submission with no thread recorded, does not jump.
  bool jumped = false;
  // The packet a step is about (its name labels the step): `packet` for run and submit steps,
  // `released_by_packet` for wait steps; kNoIndex for gaps and CPU runs.
  uint32_t NamedPacket() const { return packet != kNoIndex ? packet : released_by_packet; }
};

struct PathShare {
  QueueId queue = 0;    // one of queue / thread is set
  ThreadId thread = 0;
  DurationNs ns = 0;
  double share = 0;     // ns / path length
  // Of ns, the time the track ran (kRun on a queue, kCpuRun on a thread); the rest it was held,
  // waited for a submission or sat idle with no cause the trace shows.
  DurationNs running_ns = 0;
};

struct CriticalPath {
  TimeNs start = 0;
  TimeNs end = 0;
  std::vector<PathStep> steps;    // chronological
  std::vector<PathShare> shares;  // queues by id, then threads by id; only tracks on the path
  DurationNs Length() const { return end - start; }
};

// Where a walk back starts: a queue or a thread, and a time on it.
struct PathPosition {
  bool on_thread = false;
  uint32_t track = 0;  // queue id, or thread id when on_thread
  TimeNs t = 0;
};

// until = kUnknownTime: from the latest run segment end in the trace (of equal ends, the lower
// queue id's); else from the latest end clipped to `until`.
CriticalPath ComputeCriticalPath(const Reconstruction& r, TimeNs until = kUnknownTime);
// The packet whose run ends where ComputeCriticalPath walks back from (kNoIndex when nothing
// ran): the chain ending at it is the trace's critical path (the window selects it to show it).
uint32_t CriticalPathEndPacket(const Reconstruction& r);

// What every walk back over one reconstruction reads, built once (IndexForPaths): per queue its
// run segments' starts and ends and its waits by unblock time, per thread its CPU waits by
// release time, and the packet completions that name the work behind each wait step. About 16
// bytes per run segment, 16 per wait and 12 per completed packet.
struct PathIndex {
  using TimedWaits = std::vector<std::vector<std::pair<TimeNs, uint32_t>>>;
  TimedWaits unblocks;  // [queue] -> (unblocked, index into waits), by time
  TimedWaits releases;  // [thread] -> (released, index into cpu_waits), by time
  std::vector<std::vector<TimeNs>> segment_start;  // [queue] -> RunSegment::start, by start
  std::vector<std::vector<TimeNs>> segment_end;    // [queue] -> RunSegment::end, same order
  PacketCompletions completions;
};
PathIndex IndexForPaths(const Reconstruction& r);

// The walk back from `from` by the rules above; path.end = from.t. `index` is r's. The walk
// goes back in time (each step ends where the next one back starts; a jump goes to a signal that
// executed before the unblock or release it explains, where the trace's clocks agree), so it
// stops once it has reached `stop_at`: its steps are then the last steps of the whole walk, all
// those that end after `stop_at` among them. A step's path clipped at the step's start needs no
// more, and need not walk back to the trace's start for every step (a thousand frames).
CriticalPath WalkBackFrom(const Reconstruction& r, const PathIndex& index, const PathPosition& from,
                          TimeNs stop_at = std::numeric_limits<TimeNs>::min());

// Steps that jumped to another track (PathStep::jumped).
size_t JumpCount(const CriticalPath& path);

}  // namespace core::analysis
