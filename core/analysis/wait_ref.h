// Which wait a result is about: a GPU wait (Reconstruction::waits[index], on `queue`) or a CPU
// wait (cpu_waits[index], of `thread`), and the fence value it waits for. The open-wait findings
// and the longest waits both start from it.
#pragma once

#include <cstdint>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct WaitRef {
  bool cpu = false;
  uint32_t index = kNoIndex;  // into waits (GPU) or cpu_waits (CPU)
  QueueId queue = 0;          // GPU waits
  ThreadId thread = 0;        // CPU waits
  FenceId fence = 0;
  FenceValue value = 0;

  static WaitRef Gpu(uint32_t index, const WaitBox& w) {
    return {false, index, w.queue, 0, w.fence, w.value};
  }
  static WaitRef Cpu(uint32_t index, const CpuWait& w) {
    return {true, index, 0, w.thread, w.fence, w.value};
  }
};

}  // namespace core::analysis
