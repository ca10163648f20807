// When a queue was held by a GPU wait, and by which one; when a thread was blocked in a CPU
// wait, and in which one. Shared by the queue time split and the idle-gap attribution.
//
// A queue executes its stream in order, so while several of its waits are outstanding it is
// held by the earliest queued one; a later wait only holds it from the moment the earlier ones
// are unblocked (first in, first out):
//
//   W1 [0 ........ 10)
//   W2      [5 .............. 20)
//   cover   W1 [0, 10)  W2 [10, 20)
#pragma once

#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct WaitPiece {
  TimeNs start = 0;
  TimeNs end = 0;
  uint32_t wait = kNoIndex;  // into Reconstruction::waits (cpu_waits for CpuWaitCover)
};

// Disjoint pieces in time order. A wait lasts from Begin() to its unblock, or to the trace end
// when it was never unblocked.
std::vector<WaitPiece> WaitCover(const Reconstruction& r, QueueId queue);

// The same first-in-first-out cover for the CPU waits of `thread` (pieces name indices into
// Reconstruction::cpu_waits). A CPU wait lasts from Begin() to its release, or to its withdrawal
// (wait-any), or to the trace end when neither happened.
std::vector<WaitPiece> CpuWaitCover(const Reconstruction& r, ThreadId thread);

// The queue (0: a CPU signal or no link) whose signal released wait `w`.
QueueId SignallingQueue(const Reconstruction& r, uint32_t w);

}  // namespace core::analysis
