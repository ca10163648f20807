// Fences: CurrentValue, GPU signals and waits, CPU signals, rewinds (seeds 001 and 003).
#include <algorithm>

#include "core/sim/sim_state.h"

namespace core::sim {

using core::model::EventKind;
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
uint64_t WriteCurrentValue(Sim& sim, uint32_t fence, uint64_t value, int64_t signal_id) {
  FenceState& f = sim.fences[fence];
  const uint64_t previous = f.current;
  f.current = value;
  f.last_signal_id = signal_id;
  SatisfyOutstandingWaits(f, value, signal_id);
  return previous;
}

void RecordRewind(Sim& sim, uint32_t fence, uint64_t value, uint64_t previous,
                  int64_t signal_id) {
  // seed 001: a fence may be rewound; new waits compare against the lower value.
  if (value >= previous) return;
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::FenceRewind;
  e.fence = sim.fences[fence].id;
  e.value = value;
  e.op = signal_id;
  e.arg0 = static_cast<int64_t>(previous);
  sim.Emit(e);
}

// A GPU wait blocked on the GPU sees CurrentValue directly (native fence on its adapter).
bool WaitResolvesOnGpu(const Sim& sim, uint32_t fence, uint32_t queue_adapter,
                       uint32_t signal_adapter) {
  return sim.NativeOn(fence, queue_adapter) && queue_adapter == signal_adapter;
}

}  // namespace

uint32_t ReleaseGpuWaiters(Sim& sim, uint32_t fence, uint32_t adapter, uint64_t observed,
                           int64_t signal_id, uint64_t signal_value, bool from_other_adapter) {
  FenceState& f = sim.fences[fence];
  uint32_t released = 0;
  auto& waiters = f.gpu_waiters;
  for (size_t i = 0; i < waiters.size();) {
    const GpuWaiter w = waiters[i];
    const uint32_t queue_adapter = sim.queues[w.queue].adapter;
    if (queue_adapter != adapter || w.value > observed) {
      ++i;
      continue;
    }
    waiters.erase(waiters.begin() + static_cast<std::ptrdiff_t>(i));
    ++released;
    const int64_t by = SatisfyingSignal(f, w.value, signal_id, signal_value);
    const AdapterSpec& spec = sim.scenario->adapters[adapter];
    if (!from_other_adapter && sim.NativeOn(fence, adapter)) {
      UnblockQueueWait(sim, w.queue, w.value, w.wait_id, by, WaitPath::kGpuNative,
                       sim.queues[w.queue].wait_observed);
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
    sim.releases.push_back(r);
    sim.events.Push(sim.now + delay, SimEventType::kWaitRelease, 0, sim.releases.size() - 1);
  }
  return released;
}

void RecordPropagation(Sim& sim, uint32_t fence, uint64_t value, uint32_t from, uint32_t to) {
  EventRecord p;
  p.ts = sim.now;
  p.kind = EventKind::CrossAdapterPropagated;
  p.fence = sim.fences[fence].id;
  p.value = value;
  p.arg0 = sim.adapter_ids[from];
  p.arg1 = sim.adapter_ids[to];
  sim.Emit(p);
}

void OnWaitRelease(Sim& sim, uint64_t release_index) {
  const PendingRelease r = sim.releases[release_index];
  UnblockQueueWait(sim, r.queue, r.value, r.wait_id, r.signal_id, r.path,
                   sim.queues[r.queue].wait_observed);
}

void ExecuteGpuSignal(Sim& sim, uint32_t queue, const GpuCommand& signal) {
  const HwQueue& q = sim.queues[queue];
  const uint32_t fence = signal.fence;
  // seed 003 order of operations: 1. write the new value, 2. write the log entry,
  // 3. raise the interrupt if necessary.
  const uint64_t previous = WriteCurrentValue(sim, fence, signal.value, signal.op);
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::FenceSignalExecuted;
  e.queue = q.id;
  e.fence = sim.fences[fence].id;
  e.value = signal.value;
  e.op = signal.op;
  e.arg0 = static_cast<int64_t>(previous);
  sim.Emit(e);
  RecordRewind(sim, fence, signal.value, previous, signal.op);
  WriteLog(sim, queue, LogType::kSignal, fence, signal.value, signal.op, 0);
  // seed 003: GPU waits on a native fence resolve on the GPU, no CPU round trip. Waits on other
  // adapters or on legacy fences wait for the OS (interrupt handling).
  FenceState& f = sim.fences[fence];
  auto& waiters = f.gpu_waiters;
  for (size_t i = 0; i < waiters.size();) {
    const GpuWaiter w = waiters[i];
    if (w.value <= signal.value &&
        WaitResolvesOnGpu(sim, fence, sim.queues[w.queue].adapter, q.adapter)) {
      waiters.erase(waiters.begin() + static_cast<std::ptrdiff_t>(i));
      UnblockQueueWait(sim, w.queue, w.value, w.wait_id, signal.op, WaitPath::kGpuNative,
                       sim.queues[w.queue].wait_observed);
    } else {
      ++i;
    }
  }
  MaybeRaiseInterrupt(sim, queue, fence, signal.value, signal.op);
}

void NoteQueuedWait(Sim& sim, uint32_t queue, const GpuCommand& wait) {
  if (sim.queues[queue].lost) return;  // seed 004: dropped, never reached
  FenceState& f = sim.fences[wait.fence];
  OutstandingWait w{queue, wait.value, wait.op, false, 0};
  if (f.current >= wait.value) w.satisfied = true, w.satisfied_by = f.last_signal_id;
  f.unreached_waits.push_back(w);
}

bool ReachGpuWait(Sim& sim, uint32_t queue, const GpuCommand& wait) {
  FenceState& f = sim.fences[wait.fence];
  HwQueue& q = sim.queues[queue];
  bool satisfied = f.current >= wait.value;
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
    const WaitPath path = sim.NativeOn(wait.fence, q.adapter) ? WaitPath::kGpuNative
                                                               : WaitPath::kCpuHeld;
    UnblockQueueWait(sim, queue, wait.value, wait.op, by, path, sim.now);
    return true;
  }
  f.gpu_waiters.push_back(GpuWaiter{queue, wait.value, wait.op});
  return false;
}

void CpuSignal(Sim& sim, uint32_t thread, uint32_t fence, uint64_t value) {
  const int64_t signal_id = sim.next_fence_op_id++;
  const uint64_t previous = WriteCurrentValue(sim, fence, value, signal_id);
  FenceState& f = sim.fences[fence];
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::FenceCpuSignal;
  e.thread = sim.threads[thread].id;
  e.fence = f.id;
  e.value = value;
  e.op = signal_id;
  e.arg0 = static_cast<int64_t>(previous);
  sim.Emit(e);
  RecordRewind(sim, fence, value, previous, signal_id);
  // The OS updates the value from the CPU (DxgkDdiUpdateCurrentValuesFromCpu): CPU waiters are
  // released at once, no interrupt; GPU waits see the value; other adapters get it propagated.
  ReleaseCpuWaiters(sim, fence, value, 0);
  for (uint32_t adapter : f.adapters) {
    const bool other = adapter != f.owner;
    if (other) RecordPropagation(sim, fence, value, f.owner, adapter);
    ReleaseGpuWaiters(sim, fence, adapter, value, signal_id, value, other);
  }
  UpdateMonitoredValue(sim, fence);
}

}  // namespace core::sim
