// Log overruns as "data missing" windows per queue: between the last log entry the OS had read
// and the overrun's detection, records of that queue may be absent (seed 003: entries overwritten
// before the OS read them are lost; the OS then scans every fence of the device).
#pragma once

#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct QueueMissing {
  QueueId queue = 0;
  uint64_t overruns = 0;
  uint64_t entries_lost = 0;
  DurationNs missing_ns = 0;  // length of the union of the queue's windows
};

struct OverrunAnalysis {
  std::vector<MissingWindow> windows;  // all queues, by start
  std::vector<QueueMissing> per_queue;  // queues with at least one overrun, by id
  uint64_t overruns = 0;
  uint64_t entries_lost = 0;
  uint64_t fallback_scans = 0;  // log_fallback_scan records
};

OverrunAnalysis ComputeOverruns(const core::store::TraceStore& store, const Reconstruction& r);

}  // namespace core::analysis
