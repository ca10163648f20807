// Idle-gap attribution: every stretch of the trace span in which a queue ran nothing is split
// into causes:
//
//   waiting_on_fence       held by a GPU wait (WaitCover): names the fence, value and the queue
//                          whose signal released it (or a CPU signal, or none found)
//   preempted              the gap just before a resumed run segment (the packet had been
//                          preempted and waited to run again)
//   nothing_submitted      before the next packet to run was submitted (or, after the last
//                          packet, nothing more was ever submitted)
//   submitted_not_running  the next packet was already submitted but had not started (engine
//                          busy with another queue, scheduling)
//
//   queue   ==[run]====|--wait F=3--|..nothing..|.submitted.|==[run]==
//                                               ^ next packet submitted
#pragma once

#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

enum class GapCause : uint8_t {
  kWaitingOnFence = 0,
  kPreempted = 1,
  kNothingSubmitted = 2,
  kSubmittedNotRunning = 3,
};
const char* GapCauseName(GapCause cause);

struct GapPiece {
  QueueId queue = 0;
  TimeNs start = 0;
  TimeNs end = 0;
  GapCause cause = GapCause::kNothingSubmitted;
  uint32_t wait = kNoIndex;  // kWaitingOnFence: into Reconstruction::waits
  // kSubmittedNotRunning: the queue of the same engine that ran longest during the piece (the
  // engine was busy with it), 0 when none did
  QueueId engine_busy_with = 0;
};

struct FenceGapTotal {
  FenceId fence = 0;
  QueueId signalling = 0;  // 0: CPU signal or no linked signal
  bool cpu_signal = false;
  DurationNs ns = 0;
};

struct QueueGaps {
  QueueId queue = 0;
  DurationNs by_cause[4] = {0, 0, 0, 0};  // indexed by GapCause
  std::vector<FenceGapTotal> per_fence;   // waiting_on_fence split by (fence, signalling)
  // submitted_not_running time during which another queue of the same engine was running
  DurationNs engine_busy_ns = 0;
};

struct IdleGaps {
  std::vector<GapPiece> pieces;     // by queue, then time
  std::vector<QueueGaps> per_queue;  // one per store queue, in id order
};

IdleGaps AttributeIdleGaps(const core::store::TraceStore& store, const Reconstruction& r);

}  // namespace core::analysis
