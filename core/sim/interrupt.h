// Fence-signal interrupts and what the OS does with them (seed 003).
#pragma once

#include <cstdint>
#include <vector>

#include "core/sim/cpu_waiter_list.h"
#include "core/sim/fence.h"
#include "core/sim/hardware_queue.h"
#include "core/sim/sim_run.h"

namespace core::sim {

struct PendingInterrupt {
  uint32_t adapter = 0;
  uint32_t engine = 0;
  uint32_t queue = 0;      // queue index that raised it
  uint32_t fence = 0;
  uint64_t value = 0;
  int64_t signal_id = 0;
  uint32_t flags = 0;      // interrupt_flags as recorded
};

struct InterruptState {
  std::vector<PendingInterrupt> pending;  // indexed by SimEventType::kInterrupt events
};

// Marks cpu_wait_released.interrupt_event to be replaced by the rowid of the interrupt being
// handled.
constexpr int64_t kInterruptRowPlaceholder = -1;

void MaybeRaiseInterrupt(SimRun& run, InterruptState& interrupts, const FenceTable& fences,
                         const HwQueue& q, uint32_t queue, uint32_t fence, uint64_t value,
                         int64_t signal_id);
void HandleInterrupt(GpuContext gpu, CpuWaitContext cpu, uint64_t interrupt_index);

}  // namespace core::sim
