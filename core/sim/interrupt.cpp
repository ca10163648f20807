// Fence-signal interrupts and what the OS does with them (seed 003):
//   * native fence: the GPU interrupts only when the new CurrentValue > MonitoredValue;
//   * legacy monitored fence: every GPU signal interrupts, the OS releases held GPU work;
//   * cross-adapter fence: MonitoredValue pinned to 0, so every signal interrupts and the OS
//     propagates the value to the other adapters;
//   * the OS flushes and reads the HWQueue logs (UpdateNativeFenceLogs), detects overruns from
//     WraparoundCount and falls back to scanning every fence of the device;
//   * with the OptimizedNativeFenceSignaledInterrupt cap the interrupt names the HWQueue and
//     only its logs are read; a NULL HWQueue means every log of the engine is scanned.
#include <algorithm>

#include "core/sim/sim_state.h"

namespace core::sim {

using core::model::EventKind;
using core::model::InterruptType;
using core::model::kInterruptOptimized;
using core::model::kInterruptScanAll;
using core::model::kInterruptTypeMask;
using core::model::LogType;

void MaybeRaiseInterrupt(Sim& sim, uint32_t queue, uint32_t fence, uint64_t value,
                         int64_t signal_id) {
  const HwQueue& q = sim.queues[queue];
  const FenceState& f = sim.fences[fence];
  const AdapterSpec& adapter = sim.scenario->adapters[q.adapter];
  const bool native = sim.NativeOn(fence, q.adapter);
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
    in.flags |= sim.random.Chance(adapter.null_hwqueue_chance) ? kInterruptScanAll
                                                               : kInterruptOptimized;
  }
  sim.interrupts.push_back(in);
  sim.events.Push(sim.now + adapter.interrupt_latency_ns, SimEventType::kInterrupt, 0,
                  sim.interrupts.size() - 1);
}

namespace {

// Reads one log; records the flush, an overrun and a resize. Returns true on an overrun.
bool ReadOneLog(Sim& sim, uint32_t queue, LogType type) {
  HwQueue& q = sim.queues[queue];
  LogBuffer& log = q.logs[static_cast<int>(type)];
  const LogReadResult r = ReadLog(log);
  if (r.entries_read == 0 && r.entries_lost == 0) return false;
  EventRecord flush;
  flush.ts = sim.now;
  flush.kind = EventKind::LogFlush;
  flush.queue = q.id;
  flush.arg0 = static_cast<int64_t>(r.entries_read);
  flush.flags = static_cast<uint32_t>(type);
  sim.Emit(flush);
  if (r.entries_lost == 0) return false;
  EventRecord overrun;
  overrun.ts = sim.now;
  overrun.kind = EventKind::LogOverrun;
  overrun.queue = q.id;
  overrun.arg0 = static_cast<int64_t>(r.entries_lost);
  overrun.arg1 = log.wraparound;
  overrun.arg2 = r.missing_since;
  overrun.flags = static_cast<uint32_t>(type);
  sim.Emit(overrun);
  const AdapterSpec& adapter = sim.scenario->adapters[q.adapter];
  if (adapter.grow_logs_when_tracing && log.bytes < adapter.log_max_bytes) {
    // seed 003: when tracing, the OS increases the size of the log buffer to prevent overruns.
    ResizeLog(log, std::min(adapter.log_max_bytes, log.bytes * 2));
    EventRecord resized;
    resized.ts = sim.now;
    resized.kind = EventKind::LogResized;
    resized.queue = q.id;
    resized.arg0 = log.bytes;
    resized.flags = static_cast<uint32_t>(type);
    sim.Emit(resized);
  }
  return true;
}

// Reads the logs of `queues`; on an overrun records the fallback scan of the device's fences.
bool ReadLogs(Sim& sim, uint32_t adapter, const std::vector<uint32_t>& queues) {
  int64_t overrun_queue = -1;
  for (uint32_t qi : queues) {
    if (!sim.queues[qi].has_logs) continue;
    for (LogType type : {LogType::kWait, LogType::kSignal}) {
      if (ReadOneLog(sim, qi, type) && overrun_queue < 0) overrun_queue = qi;
    }
  }
  if (overrun_queue < 0) return false;
  // seed 003: on an overrun the OS reads the live value of every fence owned by the device.
  EventRecord scan;
  scan.ts = sim.now;
  scan.kind = EventKind::LogFallbackScan;
  scan.queue = sim.queues[static_cast<size_t>(overrun_queue)].id;
  scan.arg0 = sim.adapter_ids[adapter];
  scan.arg1 = static_cast<int64_t>(sim.adapter_fences[adapter].size());
  sim.Emit(scan);
  return true;
}

}  // namespace

void ReadAdapterLogs(Sim& sim, uint32_t adapter) {
  ReadLogs(sim, adapter, sim.adapter_queues[adapter]);
}

void HandleInterrupt(Sim& sim, uint64_t interrupt_index) {
  const PendingInterrupt in = sim.interrupts[interrupt_index];
  const auto type = static_cast<InterruptType>(in.flags & kInterruptTypeMask);
  sim.deferring = true;
  sim.deferred.clear();
  bool scan_every_fence = false;
  if (type != InterruptType::kMonitored) {
    // UpdateNativeFenceLogs, then read the logs the interrupt points at.
    std::vector<uint32_t> scanned;
    if (in.flags & kInterruptOptimized) {
      scanned.push_back(in.queue);
    } else if (in.flags & kInterruptScanAll) {
      scanned = sim.engines[in.engine].queues;  // NULL HWQueue: every log of the engine
      scan_every_fence = true;
    } else {
      scanned = sim.adapter_queues[in.adapter];  // no cap: all HWQueues of the device
    }
    if (ReadLogs(sim, in.adapter, scanned)) scan_every_fence = true;
  }
  std::vector<uint32_t> evaluated;
  if (scan_every_fence) evaluated = sim.adapter_fences[in.adapter];
  else evaluated.push_back(in.fence);

  uint32_t released = 0;
  for (uint32_t fence : evaluated) {
    FenceState& f = sim.fences[fence];
    // seed 001: a wait satisfied by a racing higher value stays satisfied even if the fence was
    // rewound since: the OS evaluates against the signalled value too.
    const uint64_t observed = fence == in.fence ? std::max(f.current, in.value) : f.current;
    const int64_t signal_id = fence == in.fence ? in.signal_id : f.last_signal_id;
    const uint64_t signal_value = fence == in.fence ? in.value : f.current;
    released += ReleaseCpuWaiters(sim, fence, observed, kInterruptRowPlaceholder);
    if (!sim.NativeOn(fence, in.adapter)) {
      released += ReleaseGpuWaiters(sim, fence, in.adapter, observed, signal_id, signal_value,
                                    false);
    }
    if (fence == in.fence && f.cross_adapter) {
      for (uint32_t other : f.adapters) {
        if (other == in.adapter) continue;
        RecordPropagation(sim, fence, observed, in.adapter, other);
        released += ReleaseGpuWaiters(sim, fence, other, observed, signal_id, signal_value, true);
      }
    }
  }

  sim.deferring = false;
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::Interrupt;
  e.queue = (in.flags & kInterruptOptimized) ? sim.queues[in.queue].id : 0;
  e.fence = sim.fences[in.fence].id;
  e.value = in.value;
  e.op = in.signal_id;
  e.arg0 = sim.adapter_ids[in.adapter];
  e.arg1 = released;  // 0: the permitted race where the interrupt releases nobody
  e.arg2 = static_cast<int64_t>(evaluated.size());
  e.flags = in.flags;
  const EventRowId row = sim.writer->Append(e);
  for (EventRecord& d : sim.deferred) {
    if (d.kind == EventKind::CpuWaitReleased && d.arg0 == kInterruptRowPlaceholder) d.arg0 = row;
    sim.writer->Append(d);
  }
  sim.deferred.clear();
}

}  // namespace core::sim
