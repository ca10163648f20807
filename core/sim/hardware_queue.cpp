// HW queues and the per-engine run lists. A queue executes its commands in order: a signal or a
// wait at the head is handled when the queue reaches it, a packet waits for its engine. An
// engine runs one packet at a time and picks among its ready queues by priority, then by who
// was ready first. A running packet keeps `remaining_ns` and the engine a generation number, so
// a packet can be stopped mid-way and resumed later (preemption builds on this).
#include "core/model/types.h"
#include "core/sim/sim_state.h"

namespace core::sim {

using core::model::EventKind;
using core::model::LogType;
using core::model::WaitPath;

void PushGpuCommand(Sim& sim, uint32_t queue, GpuCommand command) {
  HwQueue& q = sim.queues[queue];
  if (q.lost) return;  // seed 004: a context lost in a TDR runs nothing more
  q.commands.push_back(command);
  if (q.status == QueueStatus::kIdle && q.commands.size() == 1) AdvanceQueue(sim, queue);
}

void AdvanceQueue(Sim& sim, uint32_t queue) {
  HwQueue& q = sim.queues[queue];
  while (q.status == QueueStatus::kIdle && !q.commands.empty()) {
    GpuCommand head = q.commands.front();
    switch (head.kind) {
      case GpuCommand::Kind::kSignal:
        // seed 001: a queue Signal updates the fence after all earlier work on the queue.
        q.commands.pop_front();
        ExecuteGpuSignal(sim, queue, head);
        break;
      case GpuCommand::Kind::kWait:
        if (ReachGpuWait(sim, queue, head)) {
          q.commands.pop_front();
        } else {
          q.status = QueueStatus::kBlocked;
          q.wait_observed = sim.now;
          HoldEngineForWait(sim, queue);
        }
        break;
      case GpuCommand::Kind::kPacket:
        q.status = QueueStatus::kReady;
        q.ready_seq = sim.next_ready_seq++;
        TryStartEngine(sim, q.engine);
        return;
    }
  }
}

void AdvanceUnblockedQueues(Sim& sim) {
  while (!sim.queues_to_advance.empty()) {
    uint32_t queue = sim.queues_to_advance.back();
    sim.queues_to_advance.pop_back();
    AdvanceQueue(sim, queue);
  }
}

namespace {

void RecordResourceAccess(Sim& sim, const HwQueue& q, const GpuCommand& packet,
                          uint32_t resource, int64_t slot, bool write) {
  const ResourceSpec& spec = sim.scenario->resources[resource];
  const int64_t slot_bytes = spec.size_bytes / spec.slots;
  const int64_t index = ((slot % spec.slots) + spec.slots) % spec.slots;
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::ResourceAccess;
  e.queue = q.id;
  e.op = packet.op;
  e.arg0 = sim.resource_ids[resource];
  e.arg1 = spec.slots > 1 ? index * slot_bytes : 0;
  e.arg2 = spec.slots > 1 ? slot_bytes : spec.size_bytes;
  e.flags = write ? 1 : 0;
  sim.Emit(e);
}

}  // namespace

void TryStartEngine(Sim& sim, uint32_t engine) {
  EngineState& en = sim.engines[engine];
  if (en.running >= 0 || en.preempt.wait_holder >= 0) {
    RequestPreemptionIfNeeded(sim, engine);
    return;
  }
  int32_t best = ForcedNextQueue(sim, engine);
  const bool forced = best >= 0;
  for (uint32_t qi : en.queues) {
    if (forced) break;
    const HwQueue& q = sim.queues[qi];
    if (q.status != QueueStatus::kReady) continue;
    if (best < 0) {
      best = static_cast<int32_t>(qi);
      continue;
    }
    const HwQueue& b = sim.queues[best];
    if (q.priority > b.priority || (q.priority == b.priority && q.ready_seq < b.ready_seq)) {
      best = static_cast<int32_t>(qi);
    }
  }
  if (best < 0) return;
  HwQueue& q = sim.queues[best];
  const GpuCommand& packet = q.commands.front();
  q.status = QueueStatus::kRunning;
  en.running = best;
  en.started = sim.now;
  ++en.generation;
  const DurationNs restore = BeginPacketWork(sim, engine);  // records packet_resumed
  if (!packet.preempted) {
    EventRecord e;
    e.ts = sim.now;
    e.kind = EventKind::PacketStarted;
    e.queue = q.id;
    e.op = packet.op;
    e.arg0 = en.id;
    sim.Emit(e);
    if (packet.uses) {
      for (const ResourceUse& use : *packet.uses) {
        RecordResourceAccess(sim, q, packet, use.resource, use.slot.Eval(packet.frame), use.write);
      }
    }
    if (packet.direct_resource >= 0) {
      RecordResourceAccess(sim, q, packet, static_cast<uint32_t>(packet.direct_resource),
                           packet.direct_slot, packet.direct_write);
    }
  }
  sim.events.Push(sim.now + restore + packet.remaining_ns, SimEventType::kPacketDone, engine,
                  en.generation);
  // A packet chosen ahead of priority (split, paging) may at once be asked to make way.
  RequestPreemptionIfNeeded(sim, engine);
}

void OnPacketDone(Sim& sim, uint32_t engine, uint64_t generation) {
  EngineState& en = sim.engines[engine];
  if (en.running < 0 || generation != en.generation) return;  // stopped before it finished
  const uint32_t queue = static_cast<uint32_t>(en.running);
  HwQueue& q = sim.queues[queue];
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::PacketCompleted;
  e.queue = q.id;
  e.op = q.commands.front().op;
  e.arg0 = en.id;
  sim.Emit(e);
  OnPacketFinished(sim, engine);
  OnPgoPacketDone(sim, q.commands.front());
  q.commands.pop_front();
  q.status = QueueStatus::kIdle;
  en.running = -1;
  // The finishing queue looks at its next command first, so its own next packet competes.
  AdvanceQueue(sim, queue);
  TryStartEngine(sim, engine);
}

void WriteLog(Sim& sim, uint32_t queue, LogType type, uint32_t fence, uint64_t value, int64_t op,
              TimeNs observed) {
  HwQueue& q = sim.queues[queue];
  if (!q.has_logs || !sim.NativeOn(fence, q.adapter)) return;
  LogBuffer& log = q.logs[static_cast<int>(type)];
  const AdapterSpec& adapter = sim.scenario->adapters[q.adapter];
  // seed 003: on linked adapters one GPU can skip the write, leaving a zero timestamp.
  const bool zero = sim.random.Chance(adapter.zero_timestamp_chance);
  const LogWriteResult w = WriteLogEntry(log, zero ? 0 : sim.now);
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::LogWrite;
  e.queue = q.id;
  e.fence = sim.fences[fence].id;
  e.value = value;
  e.op = op;
  e.arg0 = w.entry_index;
  e.arg1 = log.wraparound;
  e.arg2 = type == LogType::kWait && !zero ? observed : 0;
  e.flags = static_cast<uint32_t>(type) | (zero ? core::model::kLogEntryZeroTimestamp : 0);
  sim.Emit(e);
  if (w.wrapped) {
    EventRecord wrap;
    wrap.ts = sim.now;
    wrap.kind = EventKind::LogWraparound;
    wrap.queue = q.id;
    wrap.arg1 = log.wraparound;
    wrap.flags = static_cast<uint32_t>(type);
    sim.Emit(wrap);
  }
}

void UnblockQueueWait(Sim& sim, uint32_t queue, uint64_t value, int64_t wait_id,
                      int64_t signal_id, WaitPath path, TimeNs observed) {
  HwQueue& q = sim.queues[queue];
  if (q.lost) return;  // seed 004: its context was lost in a TDR while it waited
  const GpuCommand& head = q.commands.front();
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::FenceWaitUnblocked;
  e.queue = q.id;
  e.fence = sim.fences[head.fence].id;
  e.value = value;
  e.op = wait_id;
  e.arg0 = observed;
  e.arg1 = signal_id;
  e.flags = static_cast<uint32_t>(path);
  sim.Emit(e);
  // seed 003: the GPU logs WAIT_UNBLOCKED with FenceObservedGpuTimestamp and the end time.
  WriteLog(sim, queue, LogType::kWait, head.fence, value, wait_id, observed);
  if (q.status == QueueStatus::kBlocked) {
    q.commands.pop_front();
    q.status = QueueStatus::kIdle;
    sim.queues_to_advance.push_back(queue);
    ReleaseWaitHold(sim, queue);
  }
}

}  // namespace core::sim
