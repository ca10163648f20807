// Fence rewinds (seed 001: a fence value need not only increase; new waits compare against the
// lower value). A rewind is a fence_rewind record, or an executed signal (GPU or CPU) whose
// value is below the CurrentValue it replaced; a signal with both counts once.
#pragma once

#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct FenceRewind {
  TimeNs ts = 0;
  FenceId fence = 0;
  FenceValue from = 0;  // CurrentValue before
  FenceValue to = 0;    // the lower new value
  QueueId queue = 0;    // 0: a CPU signal or unknown
  int64_t signal_id = 0;
};

// In time order.
std::vector<FenceRewind> FindFenceRewinds(const core::store::TraceStore& store,
                                          const Reconstruction& r);

}  // namespace core::analysis
