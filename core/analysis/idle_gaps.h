// Idle-gap attribution: every stretch of the trace span in which a queue ran nothing, explained
// two ways by one walk over the gaps.
//
// [SECTION] 1. Time split (GapCause): every idle nanosecond gets exactly one cause.
//
//   waiting_on_fence       held by a GPU wait (WaitCover): names the fence, value and the queue
//                          whose signal released it (or a CPU signal, or none found). For CUDA:
//                          a cudaStreamWaitEvent on event E recorded on stream S.
//   preempted              the gap just before a resumed run segment (the packet had been
//                          preempted and waited to run again)
//   launch_bound           the next packet's launch call is known (a cpu_launch flow,
//                          launch_calls.h) and had not yet returned: the launching thread had
//                          not issued the launch, or was still inside the runtime call. The host
//                          was the bottleneck.
//   synchronised           as launch_bound, but the launching thread was blocked in a CPU wait
//                          (cudaStreamSynchronize, cudaEventSynchronize, ...), so it could not
//                          launch: names the call it waited in and the fence
//   nothing_submitted      before the next packet to run was submitted (or, after the last
//                          packet, nothing more was ever submitted). Only where the next packet's
//                          launch call is not known.
//   submitted_not_running  the next packet was already submitted (its launch call had returned)
//                          but had not started (engine busy with another queue, scheduling,
//                          the launch latency)
//
//   queue    ==[run]====|--wait F=3--|..launch_bound..|sync|..|.submitted.|==[run]==
//   thread       [other work]   [cudaStreamSynchronize....]  [cudaLaunchKernel]
//                                                     ^ cpu wait   ^ call end
//
// Where no packet has a launch call (the D3D12 simulator, ETW captures) launch_bound and
// synchronised stay 0 and the split is the one of nothing_submitted / submitted_not_running at
// the packet's submit record, as it always was.
//
// [SECTION] 2. Gap classes like HTA's idle time breakdown (IdleClass): each whole gap between
// two packets of a queue gets one class, decided from the next packet's launch call:
//
//   host_wait    the launch call started after the previous packet ended (HTA: "host wait").
//   kernel_wait  launched before the previous packet ended, and the gap is shorter than
//                kKernelWaitMaxNs: back-to-back packets separated only by the GPU's launch
//                overhead (HTA: "kernel wait", its consecutive_kernel_delay).
//   other        launched in time but the gap is longer (HTA: "other"). We say why when the time
//                split knows: cross_stream (a GPU wait held part of the gap; the wait holding the
//                most of it is named), host_sync (no GPU wait, but the launching thread was
//                blocked in a CPU wait: synchronised time), preempted, or unexplained.
//   unlinked     the next packet has no launch call in the trace, so host and kernel wait cannot
//                be told apart (counted, not guessed).
// Idle time before a queue's first packet and after its last is not between two packets; it
// is `outside_ns`. Per queue: host_wait + kernel_wait + other + unlinked + outside = the sum of
// the time split's causes (every idle nanosecond of the span).
//
// How the two relate: a host_wait gap holds the launch_bound / synchronised time of the split
// (the launch came late), followed by submitted_not_running after the call returned (and any
// waiting_on_fence if a GPU wait also held the queue). A kernel_wait or other gap has no
// launch_bound time before the call started; its time is submitted_not_running or
// waiting_on_fence, or launch_bound only while a long launch call was still running.
#pragma once

#include <array>
#include <vector>

#include "core/analysis/launch_calls.h"
#include "core/analysis/reconstruction.h"

namespace core::analysis {

enum class GapCause : uint8_t {
  kWaitingOnFence = 0,
  kPreempted = 1,
  kNothingSubmitted = 2,
  kSubmittedNotRunning = 3,
  kLaunchBound = 4,
  kSynchronised = 5,
};
constexpr size_t kGapCauses = 6;
const char* GapCauseName(GapCause cause);

struct GapPiece {
  QueueId queue = 0;
  TimeNs start = 0;
  TimeNs end = 0;
  GapCause cause = GapCause::kNothingSubmitted;
  // kWaitingOnFence: into Reconstruction::waits; kSynchronised: into Reconstruction::cpu_waits
  uint32_t wait = kNoIndex;
  // kSubmittedNotRunning: the queue of the same engine that ran longest during the piece (the
  // engine was busy with it), 0 when none did
  QueueId engine_busy_with = 0;
};

struct FenceGapTotal {
  FenceId fence = 0;
  QueueId signalling = 0;  // 0: CPU signal or no linked signal
  bool cpu_signal = false;
  DurationNs ns = 0;
  // Of `ns`, held by waits whose releasing signal the importer inferred (WaitBox::link_inferred:
  // the trace did not say which signal released them).
  DurationNs link_inferred_ns = 0;
};

// Time a queue waited on a host synchronisation: the launching thread, the call it was blocked
// in (the innermost cpu_slice around the CPU wait's begin, 0 when the trace has none) and the
// fence of the CPU wait (0 when the wait names none, e.g. a CUDA stream or device sync).
struct SyncGapTotal {
  ThreadId thread = 0;
  StringId call = 0;
  FenceId fence = 0;
  DurationNs ns = 0;
};

struct QueueGaps {
  QueueId queue = 0;
  std::array<DurationNs, kGapCauses> by_cause{};  // indexed by GapCause
  std::vector<FenceGapTotal> per_fence;   // waiting_on_fence split by (fence, signalling)
  std::vector<SyncGapTotal> per_sync;     // synchronised split by (thread, call, fence)
  // submitted_not_running time during which another queue of the same engine was running
  DurationNs engine_busy_ns = 0;
};

// HTA's consecutive_kernel_delay default is 30 in the trace's unit, microseconds for Kineto's
// JSON (HTA keeps the trace's microseconds): gaps shorter than this between a packet and one
// launched before it ended are launch overhead.
constexpr DurationNs kKernelWaitMaxNs = 30'000;

enum class IdleClass : uint8_t { kHostWait = 0, kKernelWait = 1, kOther = 2, kUnlinked = 3 };
constexpr size_t kIdleClasses = 4;
const char* IdleClassName(IdleClass c);

enum class OtherReason : uint8_t {
  kCrossStream = 0,
  kHostSync = 1,
  kPreempted = 2,
  kUnexplained = 3,
};
constexpr size_t kOtherReasons = 4;
const char* OtherReasonName(OtherReason reason);

struct QueueIdleSplit {
  QueueId queue = 0;
  std::array<uint64_t, kIdleClasses> gaps{};  // gaps between two packets, per class
  std::array<DurationNs, kIdleClasses> ns{};
  std::array<DurationNs, kOtherReasons> other_ns{};  // IdleClass::kOther split by reason
  // cross_stream gaps, each counted whole under the GPU wait that held most of it
  std::vector<FenceGapTotal> other_on_fence;
  // host_sync gaps, each counted whole under the CPU wait that held most of it
  std::vector<SyncGapTotal> other_on_sync;
  DurationNs outside_ns = 0;  // idle before the first packet and after the last
};

struct IdleGaps {
  std::vector<GapPiece> pieces;        // by queue, then time
  std::vector<QueueGaps> per_queue;    // one per store queue, in id order
  std::vector<QueueIdleSplit> split;   // one per store queue, in id order
};

// `launches` from FindLaunchCalls on the same store and reconstruction. The store must still
// hold its bulk event columns (the names of the calls a thread synchronised in are read there).
IdleGaps AttributeIdleGaps(const core::store::TraceStore& store, const Reconstruction& r,
                           const LaunchCalls& launches);
// Finds the launch calls itself.
IdleGaps AttributeIdleGaps(const core::store::TraceStore& store, const Reconstruction& r);

}  // namespace core::analysis
