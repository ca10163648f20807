// HW queues and the per-engine run lists. A queue executes its commands in order: a signal or a
// wait at the head is handled when the queue reaches it, a packet waits for its engine. An
// engine runs one packet at a time and picks among its ready queues by priority, then by who
// was ready first. A running packet keeps `remaining_ns` and the engine a generation number, so
// a packet can be stopped mid-way and resumed later (preemption builds on this).
#include "core/sim/hardware_queue.h"

#include <algorithm>

#include "core/model/types.h"
#include "core/sim/background_state.h"
#include "core/sim/fence.h"
#include "core/sim/log_buffer.h"
#include "core/sim/preemption.h"
#include "core/sim/shader_pgo.h"

namespace core::sim {

using core::model::LogType;
using core::model::WaitPath;

void PushGpuCommand(const GpuContext& ctx, uint32_t queue, const GpuCommand& command) {
  HwQueue& q = ctx.gpu.queues[queue];
  if (q.lost) return;  // seed 004: a context lost in a TDR runs nothing more
  q.commands.push_back(command);
  if (q.status == QueueStatus::kIdle && q.commands.size() == 1) AdvanceQueue(ctx, queue);
}

namespace {

// Looks at the queue's head again at `at` (a launch latency, a pause), once.
void WakeQueueAt(SimRun& run, HwQueue& q, uint32_t queue, TimeNs at) {
  if (q.wake_pending) return;
  q.wake_pending = true;
  run.events.Push(at, SimEventType::kQueueWake, queue);
}

}  // namespace

void OnQueueWake(const GpuContext& ctx, uint32_t queue) {
  ctx.gpu.queues[queue].wake_pending = false;
  AdvanceQueue(ctx, queue);
}

void AdvanceQueue(const GpuContext& ctx, uint32_t queue) {
  HwQueue& q = ctx.gpu.queues[queue];
  while (q.status == QueueStatus::kIdle && !q.commands.empty()) {
    // Read where it lies (a copy is 168 bytes); a command is copied only where what handles it
    // runs after it was taken from the queue.
    GpuCommand& head = q.commands.front();
    switch (head.kind) {
      case GpuCommand::Kind::kDelay:
        // A pause the queue takes when it gets here (derived programs: a wait with no known
        // release, replayed as measured).
        if (!head.delay_started) {
          head.delay_started = true;
          head.ready_at = ctx.run.now + head.delay_ns;
          if (head.delay_ns > 0) {
            WakeQueueAt(ctx.run, q, queue, ctx.run.now + head.delay_ns);
            return;
          }
        } else if (head.ready_at > ctx.run.now) {
          WakeQueueAt(ctx.run, q, queue, head.ready_at);
          return;
        }
        q.commands.pop_front();
        break;
      case GpuCommand::Kind::kSignal: {
        // seed 001: a queue Signal updates the fence after all earlier work on the queue.
        const GpuCommand signal = head;
        q.commands.pop_front();
        ExecuteGpuSignal(ctx, queue, signal);
        break;
      }
      case GpuCommand::Kind::kWait:
        // Read in place: a satisfied wait stays at the head until it is taken below.
        if (ReachGpuWait(ctx, queue, head)) {
          q.commands.pop_front();
        } else {
          q.status = QueueStatus::kBlocked;
          q.wait_observed = ctx.run.now;
          HoldEngineForWait(ctx.Engine(), queue);
        }
        break;
      case GpuCommand::Kind::kPacket: {
        const TimeNs at = std::max(head.ready_at, q.not_before);
        if (at > ctx.run.now) {
          WakeQueueAt(ctx.run, q, queue, at);
          return;
        }
        q.status = QueueStatus::kReady;
        q.ready_seq = ctx.gpu.next_ready_seq++;
        TryStartEngine(ctx.Engine(), q.engine);
        return;
      }
    }
  }
}

void AdvanceUnblockedQueues(const GpuContext& ctx) {
  while (!ctx.gpu.queues_to_advance.empty()) {
    uint32_t queue = ctx.gpu.queues_to_advance.back();
    ctx.gpu.queues_to_advance.pop_back();
    AdvanceQueue(ctx, queue);
  }
}

namespace {

// seed 001 multi-queue resource access rules: what each packet reads or writes, for the hazard
// checks.
void RecordResourceAccess(SimRun& run, const Topology& ids, const HwQueue& q, int64_t packet_id,
                          uint32_t resource, int64_t slot, bool write) {
  const ResourceSpec& spec = run.scenario->resources[resource];
  const int64_t slot_bytes = spec.size_bytes / spec.slots;
  const int64_t index = ((slot % spec.slots) + spec.slots) % spec.slots;
  run.Emit(events::ResourceAccess{.ts_ns = run.now,
                                  .queue_id = q.id,
                                  .packet_id = packet_id,
                                  .resource_id = ids.resource_ids[resource],
                                  .offset_bytes = spec.slots > 1 ? index * slot_bytes : 0,
                                  .length_bytes = spec.slots > 1 ? slot_bytes : spec.size_bytes,
                                  .access = write ? 1u : 0u});
}

// The ready queue the engine runs next: by priority, then by who was ready first.
int32_t PickReadyQueue(const GpuQueues& gpu, const EngineState& en) {
  int32_t best = -1;
  for (uint32_t qi : en.queues) {
    const HwQueue& q = gpu.queues[qi];
    if (q.status != QueueStatus::kReady) continue;
    if (best < 0) {
      best = static_cast<int32_t>(qi);
      continue;
    }
    const HwQueue& b = gpu.queues[best];
    if (q.priority > b.priority || (q.priority == b.priority && q.ready_seq < b.ready_seq)) {
      best = static_cast<int32_t>(qi);
    }
  }
  return best;
}

}  // namespace

void TryStartEngine(const EngineContext& ctx, uint32_t engine) {
  EngineState& en = ctx.gpu.engines[engine];
  if (en.running >= 0 || ctx.preemption.engines[engine].wait_holder >= 0) {
    RequestPreemptionIfNeeded(ctx, engine);
    return;
  }
  int32_t best = ForcedNextQueue(ctx.gpu, ctx.preemption.engines[engine]);
  if (best < 0) best = PickReadyQueue(ctx.gpu, en);
  if (best < 0) return;
  SimRun& run = ctx.run;
  HwQueue& q = ctx.gpu.queues[best];
  const GpuCommand& packet = q.commands.front();
  q.status = QueueStatus::kRunning;
  en.running = best;
  en.started = run.now;
  ++en.generation;
  const DurationNs restore = BeginPacketWork(ctx, engine);  // records packet_resumed
  if (!packet.preemption.preempted) {
    run.Emit(events::PacketStarted{
        .ts_ns = run.now, .queue_id = q.id, .packet_id = packet.op, .engine_id = en.id});
    const PacketWork& work = packet.work;
    if (work.uses) {
      for (const ResourceUse& use : *work.uses) {
        RecordResourceAccess(run, ctx.ids, q, packet.op, use.resource, use.slot.Eval(work.frame),
                             use.write);
      }
    }
    if (work.direct_resource >= 0) {
      RecordResourceAccess(run, ctx.ids, q, packet.op,
                           static_cast<uint32_t>(work.direct_resource), work.direct_slot,
                           work.direct_write);
    }
  }
  run.events.Push(run.now + restore + packet.work.remaining_ns, SimEventType::kPacketDone, engine,
                  en.generation);
  // A packet chosen ahead of priority (split, paging) may at once be asked to make way.
  RequestPreemptionIfNeeded(ctx, engine);
}

// When the queue's next command may start after its packet completed or its wait was released
// at `now`: resume_ns later for a packet already queued then (what a replay measured as resume:
// the gap after what held a waiting packet); a command submitted later starts after its own
// launch latency alone, as the trace measured it for packets nothing held. (Signals and waits
// queued behind the packet do not count: they are not what resume_ns measured.)
namespace {
TimeNs ResumeAt(const HwQueue& q, TimeNs now) {
  for (const GpuCommand& c : q.commands) {
    if (c.kind == GpuCommand::Kind::kPacket) return now + q.resume_ns;
  }
  return now;
}
}  // namespace

void OnPacketDone(const GpuContext& ctx, uint32_t engine, uint64_t generation) {
  EngineState& en = ctx.gpu.engines[engine];
  if (en.running < 0 || generation != en.generation) return;  // stopped before it finished
  const uint32_t queue = static_cast<uint32_t>(en.running);
  HwQueue& q = ctx.gpu.queues[queue];
  ctx.run.Emit(events::PacketCompleted{.ts_ns = ctx.run.now,
                                       .queue_id = q.id,
                                       .packet_id = q.commands.front().op,
                                       .engine_id = en.id});
  OnPacketFinished(ctx.Engine(), engine);
  OnPgoPacketDone(ctx.run, ctx.bg, q.commands.front().pgo);
  q.commands.pop_front();
  q.status = QueueStatus::kIdle;
  q.not_before = ResumeAt(q, ctx.run.now);
  en.running = -1;
  // The finishing queue looks at its next command first, so its own next packet competes.
  AdvanceQueue(ctx, queue);
  TryStartEngine(ctx.Engine(), engine);
}

void UnblockQueueWait(const GpuContext& ctx, uint32_t queue, uint64_t value, int64_t wait_id,
                      int64_t signal_id, WaitPath path, TimeNs observed) {
  HwQueue& q = ctx.gpu.queues[queue];
  if (q.lost) return;  // seed 004: its context was lost in a TDR while it waited
  const uint32_t fence = q.commands.front().fence.fence;
  ctx.run.Emit(events::FenceWaitUnblocked{.ts_ns = ctx.run.now,
                                          .queue_id = q.id,
                                          .fence_id = ctx.fences.fences[fence].id,
                                          .fence_value = value,
                                          .wait_id = wait_id,
                                          .observed_ns = observed,
                                          .released_by_signal_id = signal_id,
                                          .wait_path = path});
  // seed 003: the GPU logs WAIT_UNBLOCKED with FenceObservedGpuTimestamp and the end time.
  WriteLog(ctx.run, q, ctx.logs.queues[queue], ctx.fences, fence, LogType::kWait, value, wait_id,
           observed);
  if (q.status == QueueStatus::kBlocked) {
    q.commands.pop_front();
    q.status = QueueStatus::kIdle;
    q.not_before = ResumeAt(q, ctx.run.now);
    ctx.gpu.queues_to_advance.push_back(queue);
    ReleaseWaitHold(ctx.Engine(), queue);
  }
}

}  // namespace core::sim
