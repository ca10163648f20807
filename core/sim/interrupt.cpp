// Fence-signal interrupts and what the OS does with them (seed 003):
//   * native fence: the GPU interrupts only when the new CurrentValue > MonitoredValue;
//   * legacy monitored fence: every GPU signal interrupts, the OS releases held GPU work;
//   * cross-adapter fence: MonitoredValue pinned to 0, so every signal interrupts and the OS
//     propagates the value to the other adapters;
//   * the OS flushes and reads the HWQueue logs (UpdateNativeFenceLogs, log_buffer.cpp) and on
//     an overrun falls back to scanning every fence of the device;
//   * with the OptimizedNativeFenceSignaledInterrupt cap the interrupt names the HWQueue and
//     only its logs are read; a NULL HWQueue means every log of the engine is scanned.
#include "core/sim/interrupt.h"

#include <algorithm>

#include "core/sim/log_buffer.h"

namespace core::sim {

using core::model::InterruptType;
using core::model::kInterruptOptimized;
using core::model::kInterruptScanAll;
using core::model::kInterruptTypeMask;

void MaybeRaiseInterrupt(SimRun& run, InterruptState& interrupts, const FenceTable& fences,
                         const HwQueue& q, uint32_t queue, uint32_t fence, uint64_t value,
                         int64_t signal_id) {
  const FenceState& f = fences.fences[fence];
  const AdapterSpec& adapter = run.scenario->adapters[q.adapter];
  const bool native = fences.NativeOn(fence, q.adapter);
  InterruptType type;
  if (!native) {
    type = InterruptType::kMonitored;  // seed 003: legacy monitored fence: every signal
  } else if (f.cross_adapter) {
    // seed 003: cross-adapter fences keep MonitoredValue at 0: CurrentValue > 0 interrupts.
    if (value == 0) return;
    type = InterruptType::kCrossAdapter;
  } else {
    // seed 003: interrupt only when the new CurrentValue > MonitoredValue.
    if (!(value > f.monitored)) return;
    type = InterruptType::kNative;
  }
  PendingInterrupt in;
  in.adapter = q.adapter;
  in.engine = q.engine;
  in.queue = queue;
  in.fence = fence;
  in.value = value;
  in.signal_id = signal_id;
  in.flags = static_cast<uint32_t>(type);
  if (native && adapter.optimized_interrupts) {
    // The GPU names the HWQueue, unless it could not tell which fences were signalled.
    in.flags |= run.random.Chance(adapter.null_hwqueue_chance) ? kInterruptScanAll
                                                               : kInterruptOptimized;
  }
  interrupts.pending.push_back(in);
  run.events.Push(run.now + adapter.interrupt_latency_ns, SimEventType::kInterrupt, 0,
                  interrupts.pending.size() - 1);
}

namespace {

// The fences the OS evaluates for the interrupt: after UpdateNativeFenceLogs and reading the
// logs the interrupt points at, the signalled fence, or every fence of the device when it could
// not tell which were signalled.
std::vector<uint32_t> FencesToEvaluate(const GpuContext& ctx, const PendingInterrupt& in) {
  const auto type = static_cast<InterruptType>(in.flags & kInterruptTypeMask);
  bool scan_every_fence = false;
  if (type != InterruptType::kMonitored) {
    std::vector<uint32_t> scanned;
    if (in.flags & kInterruptOptimized) {
      scanned.push_back(in.queue);
    } else if (in.flags & kInterruptScanAll) {
      scanned = ctx.gpu.engines[in.engine].queues;  // NULL HWQueue: every log of the engine
      scan_every_fence = true;
    } else {
      scanned = ctx.ids.adapter_queues[in.adapter];  // no cap: all HWQueues of the device
    }
    if (ReadLogs(ctx.run, ctx.ids, ctx.gpu, ctx.logs, in.adapter, scanned)) {
      scan_every_fence = true;
    }
  }
  if (scan_every_fence) return ctx.ids.adapter_fences[in.adapter];
  return {in.fence};
}

}  // namespace

void HandleInterrupt(GpuContext gpu, CpuWaitContext cpu, uint64_t interrupt_index) {
  SimRun& run = gpu.run;
  const PendingInterrupt in = gpu.interrupts.pending[interrupt_index];
  run.deferring = true;
  run.deferred.clear();
  const std::vector<uint32_t> evaluated = FencesToEvaluate(gpu, in);

  uint32_t released = 0;
  for (uint32_t fence : evaluated) {
    FenceState& f = gpu.fences.fences[fence];
    // seed 001: a wait satisfied by a racing higher value stays satisfied even if the fence was
    // rewound since: the OS evaluates against the signalled value too.
    const uint64_t observed = fence == in.fence ? std::max(f.current, in.value) : f.current;
    const int64_t signal_id = fence == in.fence ? in.signal_id : f.last_signal_id;
    const uint64_t signal_value = fence == in.fence ? in.value : f.current;
    released += ReleaseCpuWaiters(cpu, fence, observed, kInterruptRowPlaceholder);
    if (!gpu.fences.NativeOn(fence, in.adapter)) {
      released += ReleaseGpuWaiters(gpu, fence, in.adapter, observed, signal_id, signal_value,
                                    false);
    }
    if (fence == in.fence && f.cross_adapter) {
      for (uint32_t other : f.adapters) {
        if (other == in.adapter) continue;
        RecordPropagation(run, gpu.ids, f, observed, in.adapter, other);
        released += ReleaseGpuWaiters(gpu, fence, other, observed, signal_id, signal_value, true);
      }
    }
  }

  run.deferring = false;
  const EventRowId row = run.Emit(events::Interrupt{
      .ts_ns = run.now,
      .queue_id = (in.flags & kInterruptOptimized) ? gpu.gpu.queues[in.queue].id : 0,
      .fence_id = gpu.fences.fences[in.fence].id,
      .fence_value = in.value,
      .signal_id = in.signal_id,
      .adapter_id = gpu.ids.adapter_ids[in.adapter],
      .waiters_released = released,  // 0: the permitted race where the interrupt releases nobody
      .fences_evaluated = static_cast<int64_t>(evaluated.size()),
      .interrupt_flags = in.flags});
  for (EventRecord& d : run.deferred) {
    if (d.kind == events::CpuWaitReleased::kKind) {
      auto release = events::CpuWaitReleased::Of(d);
      if (release.interrupt_event == kInterruptRowPlaceholder) {
        release.interrupt_event = row;
        d = release.Record();
      }
    }
    run.writer->Append(d);
  }
  run.deferred.clear();
}

}  // namespace core::sim
