// Queue length per queue over time: packets launched and not yet started.
//
//   CPU      [launch A]  [launch B]        [launch C]
//   GPU                        [=== A ===][== B ==]      [== C ==]
//   length   0   1        2    1          0      1        0
//
// This is HTA's queue length (TraceCounters.get_queue_length_time_series: +1 when a runtime
// call enqueues a kernel on a stream, -1 when the kernel starts), as a step series per queue.
// The launch time is the launch call's start (launch_calls.h; the Kineto importer's packet
// submit time is the same). When the trace links no launch calls at all (the D3D12 simulator,
// ETW), the packet_submitted record gives the launch time instead, so the series counts packets
// submitted and not yet started; `from_launch_calls` says which.
//
// Packets with no launch time (no launch call in a trace that has them; no submit record) are
// not counted and are counted as `packets_left_out`. A packet that never starts stays queued to
// the end of the trace. Changes at the same timestamp are applied together before the length is
// read, so a packet launched and started at the same time never shows.
#pragma once

#include <cstdint>
#include <vector>

#include "core/analysis/launch_calls.h"
#include "core/analysis/reconstruction.h"

namespace core::analysis {

// The length from `ts` until the next step (0 before the first step).
struct QueueLengthStep {
  TimeNs ts = 0;
  uint32_t length = 0;
};

struct QueueLength {
  QueueId queue = 0;
  std::vector<QueueLengthStep> steps;  // change points in time order, each a different length
  uint32_t max = 0;  // the highest length held for some time within the trace span
  double mean = 0;   // time-weighted over the trace span
  uint64_t packets_counted = 0;
  uint64_t packets_left_out = 0;
  // Downsampled for charts: the highest length in each bin of QueueLengths::bin_ns from the
  // span's start.
  std::vector<uint32_t> bin_max;
};

struct QueueLengths {
  bool from_launch_calls = false;
  TimeNs start_ns = 0;
  DurationNs bin_ns = 1;
  std::vector<QueueLength> per_queue;  // one per store queue, in id order
};

QueueLengths ComputeQueueLengths(const core::store::TraceStore& store, const Reconstruction& r,
                                 const LaunchCalls& launches, size_t bins = 200);

// The length of a queue's series at `ts` (steps as ComputeQueueLengths gives them).
uint32_t LengthAt(const std::vector<QueueLengthStep>& steps, TimeNs ts);

}  // namespace core::analysis
