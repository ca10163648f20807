// Launch delay per queue: how long after its launch call returned a packet started.
//
//   CPU thread   [== cudaLaunchKernel ==]
//   GPU stream                          |<-- launch delay -->[== kernel ==]
//                                       ^ call end           ^ packet start
//
//   delay = packet start - (call start + call duration)
//
// This is the figure HTA calls the kernel launch delay (cuda_kernel_launch_stats,
// "launch_delay"). Two differences when comparing numbers: HTA takes only cudaLaunchKernel,
// cudaMemcpyAsync and cudaMemsetAsync, we take every packet whose launch call the trace links
// (launch_calls.h), kernels, copies and sets alike; and the HTA code we read computes
// kernel ts - runtime ts + runtime dur (the call's duration added), where we subtract the end of
// the call as the definition says. A packet that starts before its call returns
// has a negative delay (the call's own return path was the slower part); those are counted.
//
// Packets without a launch call are not measured and are counted as `without_launch`, so a
// trace without launch flows has no delays at all.
#pragma once

#include <cstdint>
#include <vector>

#include "core/analysis/launch_calls.h"
#include "core/analysis/percentiles.h"
#include "core/analysis/reconstruction.h"

namespace core::analysis {

// The packets listed per queue as outliers (longest delays first).
constexpr size_t kLaunchDelayOutliers = 10;

struct LaunchDelayOutlier {
  uint32_t packet = kNoIndex;  // into Reconstruction::packets
  StringId name = 0;           // the packet's name
  TimeNs start = 0;            // packet start
  TimeNs call_end = 0;         // its launch call's end
  ThreadId thread = 0;         // the launching thread
  DurationNs delay = 0;
};

struct QueueLaunchDelay {
  QueueId queue = 0;
  Percentiles delay;            // over the packets that started and have a launch call
  uint64_t negative = 0;        // of those, started before the call returned
  uint64_t without_launch = 0;  // started packets with no launch call in the trace (left out)
  std::vector<LaunchDelayOutlier> outliers;  // at most kLaunchDelayOutliers, longest first
};

struct LaunchDelays {
  std::vector<QueueLaunchDelay> per_queue;  // one per store queue, in id order
};

LaunchDelays ComputeLaunchDelays(const core::store::TraceStore& store, const Reconstruction& r,
                                 const LaunchCalls& launches);

}  // namespace core::analysis
