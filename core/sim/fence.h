// Fences (seeds 001 and 003): CurrentValue, GPU signals and waits, CPU signals, rewinds, and the
// GPU waits the OS holds (legacy monitored fence) or propagates (cross-adapter fence).
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/types.h"
#include "core/sim/gpu_command.h"
#include "core/sim/hardware_queue.h"
#include "core/sim/sim_run.h"

namespace core::sim {

struct CpuWaitContext;

struct GpuWaiter {
  uint32_t queue = 0;
  uint64_t value = 0;
  int64_t wait_id = 0;
};

// seed 001: a GPU wait from the moment it is queued until its queue reaches it. "If a race does
// occur, between a value which will satisfy an outstanding wait, and a lower value which will
// not, the wait will be satisfied regardless of which value remains afterwards": a value that
// reaches it while it is outstanding satisfies it, even if the fence is rewound before its queue
// gets there.
struct OutstandingWait {
  uint32_t queue = 0;
  uint64_t value = 0;
  int64_t wait_id = 0;
  bool satisfied = false;
  int64_t satisfied_by = 0;  // signal_id of the first value that reached it (0: initial value)
};

struct FenceState {
  core::model::FenceId id = 0;
  uint32_t owner = 0;            // adapter index
  bool cross_adapter = false;
  std::vector<uint32_t> adapters;  // adapters it is opened on (owner first)
  std::vector<bool> native_on;   // [adapter index]: native fence there, else legacy monitored
  uint64_t current = 0;          // CurrentValue (one copy, shared by all adapters)
  int64_t last_signal_id = 0;    // operation that wrote CurrentValue (0: initial value)
  bool tracks_monitored = false; // native, not cross-adapter: MonitoredValue follows waiters
  uint64_t monitored = 0;        // MonitoredValue (seed 003, kept by cpu_waiter_list.cpp)
  std::vector<GpuWaiter> gpu_waiters;  // blocked queue heads (native waits, or held by the OS)
  std::vector<OutstandingWait> unreached_waits;  // queued GPU waits their queue has not reached
};

// A GPU wait the OS lets go after a delay: held on the CPU (legacy monitored fence) or
// propagated from another adapter (cross-adapter fence).
struct PendingRelease {
  uint32_t queue = 0;
  uint32_t fence = 0;
  uint64_t value = 0;
  int64_t wait_id = 0;
  int64_t signal_id = 0;
  core::model::WaitPath path = core::model::WaitPath::kCpuHeld;
};

struct FenceTable {
  std::vector<FenceState> fences;
  std::vector<PendingRelease> releases;  // indexed by SimEventType::kWaitRelease events
  int64_t next_fence_op_id = 1;          // signal_id / wait_id

  bool NativeOn(uint32_t fence, uint32_t adapter) const { return fences[fence].native_on[adapter]; }
};

void ExecuteGpuSignal(const GpuContext& ctx, uint32_t queue, const GpuCommand& signal);
// A GPU wait was queued (FENCE_WAIT_QUEUED): it is outstanding from now on (seed 001).
void NoteQueuedWait(FenceTable& fences, const HwQueue& q, uint32_t queue, const GpuCommand& wait);
// Returns true when the wait is satisfied at once (the queue goes on).
bool ReachGpuWait(const GpuContext& ctx, uint32_t queue, const GpuCommand& wait);
void CpuSignal(GpuContext gpu, CpuWaitContext cpu, core::model::ThreadId thread, uint32_t fence,
               uint64_t value);
// Releases the GPU waits of `fence` on `adapter` satisfied by `observed`: at once on the GPU
// (native) or after the adapter's delay (held by the OS / propagated). `signal_id` /
// `signal_value` name the signal the OS is acting on. Returns how many.
uint32_t ReleaseGpuWaiters(const GpuContext& ctx, uint32_t fence, uint32_t adapter,
                           uint64_t observed, int64_t signal_id, uint64_t signal_value,
                           bool from_other_adapter);
void OnWaitRelease(const GpuContext& ctx, uint64_t release_index);
// seed 003: the OS propagates a cross-adapter fence's value to another adapter.
void RecordPropagation(SimRun& run, const Topology& ids, const FenceState& f, uint64_t value,
                       uint32_t from, uint32_t to);
// signal_id that made CurrentValue >= value, preferring `candidate` when its value does.
int64_t SatisfyingSignal(const FenceState& f, uint64_t value, int64_t candidate,
                         uint64_t candidate_value);

}  // namespace core::sim
