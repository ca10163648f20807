// seed 003: the OS's list of outstanding CPU waiters per fence (SetEventOnCompletion,
// WaitForMultipleObjects as wait groups) and the MonitoredValue the GPU compares new fence
// values against to decide whether to interrupt.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/types.h"
#include "core/sim/fence.h"
#include "core/sim/sim_run.h"

namespace core::sim {

struct CpuThreads;

struct CpuWaiter {
  int64_t waiter_id = 0;
  uint64_t value = 0;
  uint32_t thread = 0;  // thread index
  uint32_t group = 0;   // wait group index
};

// A SetEventOnCompletion / WaitForMultipleObjects call: the thread wakes when one (any) or all
// of its members are released.
struct WaitGroup {
  uint32_t thread = 0;
  WaitMode mode = WaitMode::kSingle;
  uint32_t pending = 0;
  int32_t satisfied_member = -1;        // first member released (wait-any)
  std::vector<int64_t> members;         // waiter ids, in call order
  std::vector<uint32_t> member_fences;  // fence index per member
  bool done = false;
};

struct CpuWaiterList {
  std::vector<std::vector<CpuWaiter>> per_fence;  // [fence] the CPU waiter list, in wait order
  std::vector<WaitGroup> groups;
  int64_t next_waiter_id = 1;
};

// What beginning and releasing CPU waits touches.
struct CpuWaitContext {
  SimRun& run;
  const Topology& ids;
  FenceTable& fences;
  CpuWaiterList& waiters;
  CpuThreads& cpu;
};

// Creates a wait group over fences/values; returns the group index. Members satisfied at once
// are released immediately (interrupt_event 0). `*satisfied` tells whether the thread may go
// on.
uint32_t BeginCpuWait(const CpuWaitContext& ctx, uint32_t thread,
                      const std::vector<uint32_t>& fences, const std::vector<uint64_t>& values,
                      WaitMode mode, bool* satisfied);
// Releases the CPU waiters of `fence` with value <= observed, naming `interrupt_row` (or the
// placeholder) as the interrupt that released them. Returns how many were released.
uint32_t ReleaseCpuWaiters(const CpuWaitContext& ctx, uint32_t fence, uint64_t observed,
                           int64_t interrupt_row);
// seed 003: MonitoredValue = least CPU-waited value - 1, UINT64_MAX with no waiter
// (DxgkDdiUpdateMonitoredValues). Records monitored_value_updated when it changes.
void UpdateMonitoredValue(SimRun& run, const Topology& ids, FenceState& f,
                          const std::vector<CpuWaiter>& waiters);

}  // namespace core::sim
