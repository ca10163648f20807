// Fences: CurrentValue, GPU signals and waits, CPU signals, rewinds (seeds 001 and 003).
#include "core/sim/fence.h"

#include <algorithm>

#include "core/sim/cpu_waiter_list.h"
#include "core/sim/interrupt.h"
#include "core/sim/log_buffer.h"

namespace core::sim {

using core::model::LogType;
using core::model::WaitPath;

int64_t SatisfyingSignal(const FenceState& f, uint64_t value, int64_t candidate,
                         uint64_t candidate_value) {
  return candidate_value >= value ? candidate : f.last_signal_id;
}

namespace {

// Marks the outstanding waits of `f` that `value` satisfies (seed 001: they stay satisfied
// whatever value the fence holds when their queue reaches them).
void SatisfyOutstandingWaits(FenceState& f, uint64_t value, int64_t signal_id) {
  for (OutstandingWait& w : f.unreached_waits) {
    if (w.satisfied || w.value > value) continue;
    w.satisfied = true;
    w.satisfied_by = signal_id;
  }
}

// Writes CurrentValue and returns the old value.
uint64_t WriteCurrentValue(FenceState& f, uint64_t value, int64_t signal_id) {
  const uint64_t previous = f.current;
  f.current = value;
  f.last_signal_id = signal_id;
  SatisfyOutstandingWaits(f, value, signal_id);
  return previous;
}

void RecordRewind(SimRun& run, const FenceState& f, uint64_t value, uint64_t previous,
                  int64_t signal_id) {
  // seed 001: a fence may be rewound; new waits compare against the lower value.
  if (value >= previous) return;
  run.Emit(events::FenceRewind{.ts_ns = run.now,
                               .fence_id = f.id,
                               .fence_value = value,
                               .signal_id = signal_id,
                               .previous_value = previous});
}

// A GPU wait blocked on the GPU sees CurrentValue directly (native fence on its adapter).
bool WaitResolvesOnGpu(const FenceTable& fences, uint32_t fence, uint32_t queue_adapter,
                       uint32_t signal_adapter) {
  return fences.NativeOn(fence, queue_adapter) && queue_adapter == signal_adapter;
}

}  // namespace

uint32_t ReleaseGpuWaiters(const GpuContext& ctx, uint32_t fence, uint32_t adapter,
                           uint64_t observed, int64_t signal_id, uint64_t signal_value,
                           bool from_other_adapter) {
  SimRun& run = ctx.run;
  FenceState& f = ctx.fences.fences[fence];
  uint32_t released = 0;
  auto& waiters = f.gpu_waiters;
  for (size_t i = 0; i < waiters.size();) {
    const GpuWaiter w = waiters[i];
    const uint32_t queue_adapter = ctx.gpu.queues[w.queue].adapter;
    if (queue_adapter != adapter || w.value > observed) {
      ++i;
      continue;
    }
    waiters.erase(waiters.begin() + static_cast<std::ptrdiff_t>(i));
    ++released;
    const int64_t by = SatisfyingSignal(f, w.value, signal_id, signal_value);
    const AdapterSpec& spec = run.scenario->adapters[adapter];
    if (!from_other_adapter && ctx.fences.NativeOn(fence, adapter)) {
      UnblockQueueWait(ctx, w.queue, w.value, w.wait_id, by, WaitPath::kGpuNative,
                       ctx.gpu.queues[w.queue].wait_observed);
      continue;
    }
    // seed 003: legacy monitored fences: the OS holds the dependent GPU work on the CPU and
    // releases it once it has seen the signal. Cross-adapter: the OS propagates the signal.
    PendingRelease r;
    r.queue = w.queue;
    r.fence = fence;
    r.value = w.value;
    r.wait_id = w.wait_id;
    r.signal_id = by;
    r.path = from_other_adapter ? WaitPath::kCrossAdapter : WaitPath::kCpuHeld;
    const DurationNs delay = from_other_adapter ? spec.propagation_ns : spec.held_wait_release_ns;
    ctx.fences.releases.push_back(r);
    run.events.Push(run.now + delay, SimEventType::kWaitRelease, 0,
                    ctx.fences.releases.size() - 1);
  }
  return released;
}

void RecordPropagation(SimRun& run, const Topology& ids, const FenceState& f, uint64_t value,
                       uint32_t from, uint32_t to) {
  run.Emit(events::CrossAdapterPropagated{.ts_ns = run.now,
                                          .fence_id = f.id,
                                          .fence_value = value,
                                          .from_adapter_id = ids.adapter_ids[from],
                                          .to_adapter_id = ids.adapter_ids[to]});
}

void OnWaitRelease(const GpuContext& ctx, uint64_t release_index) {
  const PendingRelease r = ctx.fences.releases[release_index];
  UnblockQueueWait(ctx, r.queue, r.value, r.wait_id, r.signal_id, r.path,
                   ctx.gpu.queues[r.queue].wait_observed);
}

void ExecuteGpuSignal(const GpuContext& ctx, uint32_t queue, const GpuCommand& signal) {
  SimRun& run = ctx.run;
  const HwQueue& q = ctx.gpu.queues[queue];
  const uint32_t fence = signal.fence.fence;
  const uint64_t value = signal.fence.value;
  FenceState& f = ctx.fences.fences[fence];
  // seed 003 order of operations: 1. write the new value, 2. write the log entry,
  // 3. raise the interrupt if necessary.
  const uint64_t previous = WriteCurrentValue(f, value, signal.op);
  run.Emit(events::FenceSignalExecuted{.ts_ns = run.now,
                                       .queue_id = q.id,
                                       .fence_id = f.id,
                                       .fence_value = value,
                                       .signal_id = signal.op,
                                       .previous_value = previous});
  RecordRewind(run, f, value, previous, signal.op);
  WriteLog(run, q, ctx.logs.queues[queue], ctx.fences, fence, LogType::kSignal, value, signal.op,
           0);
  // seed 003: GPU waits on a native fence resolve on the GPU, no CPU round trip. Waits on other
  // adapters or on legacy fences wait for the OS (interrupt handling).
  auto& waiters = f.gpu_waiters;
  for (size_t i = 0; i < waiters.size();) {
    const GpuWaiter w = waiters[i];
    if (w.value <= value &&
        WaitResolvesOnGpu(ctx.fences, fence, ctx.gpu.queues[w.queue].adapter, q.adapter)) {
      waiters.erase(waiters.begin() + static_cast<std::ptrdiff_t>(i));
      UnblockQueueWait(ctx, w.queue, w.value, w.wait_id, signal.op, WaitPath::kGpuNative,
                       ctx.gpu.queues[w.queue].wait_observed);
    } else {
      ++i;
    }
  }
  MaybeRaiseInterrupt(run, ctx.interrupts, ctx.fences, q, queue, fence, value, signal.op);
}

void NoteQueuedWait(FenceTable& fences, const HwQueue& q, uint32_t queue, const GpuCommand& wait) {
  if (q.lost) return;  // seed 004: dropped, never reached
  FenceState& f = fences.fences[wait.fence.fence];
  OutstandingWait w{queue, wait.fence.value, wait.op, false, 0};
  if (f.current >= wait.fence.value) w.satisfied = true, w.satisfied_by = f.last_signal_id;
  f.unreached_waits.push_back(w);
}

bool ReachGpuWait(const GpuContext& ctx, uint32_t queue, const GpuCommand& wait) {
  const uint32_t fence = wait.fence.fence;
  const uint64_t value = wait.fence.value;
  FenceState& f = ctx.fences.fences[fence];
  HwQueue& q = ctx.gpu.queues[queue];
  bool satisfied = f.current >= value;
  int64_t by = f.last_signal_id;
  auto outstanding = std::find_if(f.unreached_waits.begin(), f.unreached_waits.end(),
                                  [&](const OutstandingWait& w) { return w.wait_id == wait.op; });
  if (outstanding != f.unreached_waits.end()) {
    // seed 001: "the wait will be satisfied regardless of which value remains afterwards": a
    // value that reached it since it was queued counts even if the fence was rewound since.
    if (!satisfied && outstanding->satisfied) satisfied = true, by = outstanding->satisfied_by;
    f.unreached_waits.erase(outstanding);
  }
  if (satisfied) {
    // Otherwise compared against the current (possibly rewound) value, as seed 001 says for new
    // waits.
    const WaitPath path = ctx.fences.NativeOn(fence, q.adapter) ? WaitPath::kGpuNative
                                                                : WaitPath::kCpuHeld;
    UnblockQueueWait(ctx, queue, value, wait.op, by, path, ctx.run.now);
    return true;
  }
  f.gpu_waiters.push_back(GpuWaiter{queue, value, wait.op});
  return false;
}

void CpuSignal(GpuContext gpu, CpuWaitContext cpu, core::model::ThreadId thread, uint32_t fence,
               uint64_t value) {
  SimRun& run = gpu.run;
  const int64_t signal_id = gpu.fences.next_fence_op_id++;
  FenceState& f = gpu.fences.fences[fence];
  const uint64_t previous = WriteCurrentValue(f, value, signal_id);
  run.Emit(events::FenceCpuSignal{.ts_ns = run.now,
                                  .thread_id = thread,
                                  .fence_id = f.id,
                                  .fence_value = value,
                                  .signal_id = signal_id,
                                  .previous_value = previous});
  RecordRewind(run, f, value, previous, signal_id);
  // The OS updates the value from the CPU (DxgkDdiUpdateCurrentValuesFromCpu): CPU waiters are
  // released at once, no interrupt; GPU waits see the value; other adapters get it propagated.
  ReleaseCpuWaiters(cpu, fence, value, 0);
  for (uint32_t adapter : f.adapters) {
    const bool other = adapter != f.owner;
    if (other) RecordPropagation(run, gpu.ids, f, value, f.owner, adapter);
    ReleaseGpuWaiters(gpu, fence, adapter, value, signal_id, value, other);
  }
  UpdateMonitoredValue(run, gpu.ids, f, cpu.waiters.per_fence[fence]);
}

}  // namespace core::sim
