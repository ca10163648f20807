// CPU threads running scenario scripts: each frame the thread walks its steps in order; every
// API call costs CPU time, a CPU wait blocks the thread until the OS releases it.
#include "core/model/error.h"
#include "core/sim/sim_state.h"

namespace core::sim {

using core::model::EventKind;

void WakeThread(Sim& sim, uint32_t thread) {
  CpuThread& t = sim.threads[thread];
  if (!t.blocked) return;
  t.blocked = false;
  sim.events.Push(sim.now, SimEventType::kThreadStep, thread);
}

namespace {

constexpr uint64_t kMaxStepsAtOneInstant = 10'000'000;

bool StepActive(const Step& step, int64_t frame) {
  return frame >= step.from_frame && (frame - step.from_frame) % step.every == 0;
}

uint64_t FenceValueOf(const FrameExpr& expr, int64_t frame) {
  const int64_t v = expr.Eval(frame);
  return v < 0 ? 0 : static_cast<uint64_t>(v);
}

}  // namespace

void SubmitPacket(Sim& sim, uint32_t thread, uint32_t queue, DurationNs duration,
                  core::model::StringId name, GpuCommand packet, uint32_t flags) {
  packet.kind = GpuCommand::Kind::kPacket;
  packet.op = sim.next_packet_id++;
  packet.remaining_ns = duration;
  packet.duration_ns = duration;
  packet.fence_submission = packet.op;
  const HwQueue& q = sim.queues[queue];
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::PacketSubmitted;
  e.queue = q.id;
  e.thread = sim.threads[thread].id;
  e.op = packet.op;
  e.value = static_cast<uint64_t>(duration);
  e.arg0 = q.context;
  e.arg1 = name;
  e.arg2 = packet.fence_submission;
  e.flags = flags;
  const EventRowId row = sim.Emit(e);
  if (packet.pso >= 0) {
    // Which PSO and constant set the packet runs with (seed 000 PGO), for the details panel.
    sim.writer->AddEventArg(row, "pso", static_cast<int64_t>(sim.bg.psos[packet.pso].id));
    sim.writer->AddEventArg(row, "constants", packet.constants);
  }
  PushGpuCommand(sim, queue, packet);
}

namespace {

// Queue Signal / Wait: records FENCE_SIGNAL_QUEUED / FENCE_WAIT_QUEUED with the CPU timestamp at
// which it was queued (seed 003) and puts the command in the HW queue.
void QueueFenceOp(Sim& sim, uint32_t thread, uint32_t queue, uint32_t fence, uint64_t value,
                  GpuCommand::Kind kind) {
  GpuCommand c;
  c.kind = kind;
  c.fence = fence;
  c.value = value;
  c.op = sim.next_fence_op_id++;
  EventRecord e;
  e.ts = sim.now;
  e.kind = kind == GpuCommand::Kind::kSignal ? EventKind::FenceSignalQueued
                                             : EventKind::FenceWaitQueued;
  e.queue = sim.queues[queue].id;
  e.thread = sim.threads[thread].id;
  e.fence = sim.fences[fence].id;
  e.value = value;
  e.op = c.op;
  sim.Emit(e);
  if (kind == GpuCommand::Kind::kWait) NoteQueuedWait(sim, queue, c);
  PushGpuCommand(sim, queue, c);
}

}  // namespace

void QueueGpuSignal(Sim& sim, uint32_t thread, uint32_t queue, uint32_t fence, uint64_t value) {
  QueueFenceOp(sim, thread, queue, fence, value, GpuCommand::Kind::kSignal);
}

void QueueGpuWait(Sim& sim, uint32_t thread, uint32_t queue, uint32_t fence, uint64_t value) {
  QueueFenceOp(sim, thread, queue, fence, value, GpuCommand::Kind::kWait);
}

void RunThread(Sim& sim, uint32_t thread) {
  CpuThread& t = sim.threads[thread];
  if (t.done || t.blocked) return;
  if (t.spec->program == ProgramKind::kAsyncComputeGraphics) {
    RunAsyncPipeline(sim, thread);
    return;
  }
  const ThreadSpec& spec = *t.spec;
  const bool endless = spec.frames == 0;
  if (t.last_step_ts == sim.now) {
    if (++t.steps_at_ts > kMaxStepsAtOneInstant) {
      throw core::Error(sim.scenario->source + ": thread '" + spec.name +
                        "' runs without simulated time passing (give its steps api_call_us, "
                        "duration_us or frame_period_us)");
    }
  } else {
    t.last_step_ts = sim.now;
    t.steps_at_ts = 0;
  }
  while (true) {
    if (t.stop_loop) break;
    if (t.pc == spec.steps.size()) {
      t.pc = 0;
      ++t.frame;
      if (spec.frame_period_ns > 0) {
        const TimeNs next = spec.start_ns + (t.frame - 1) * spec.frame_period_ns;
        if (next > sim.now) {
          if (!endless && t.frame > spec.frames) break;
          sim.events.Push(next, SimEventType::kThreadStep, thread);
          return;
        }
      }
    }
    if (!endless && t.frame > spec.frames) break;
    const size_t index = t.pc++;
    const Step& step = spec.steps[index];
    if (!StepActive(step, t.frame)) continue;
    DurationNs cost = spec.api_call_ns;
    switch (step.op) {
      case StepOp::kExecute: {
        GpuCommand c;
        c.uses = step.resources.empty() ? nullptr : &step.resources;
        c.frame = t.frame;
        c.remaining_ns = sim.random.Jittered(step.duration_ns, step.jitter);
        const uint32_t flags = PlanPgoPacket(sim, thread, step, t.frame, c);
        SubmitRenderCommand(sim, thread, step.queue, step, sim.step_name_sids[thread][index], c,
                            flags);
        break;
      }
      case StepOp::kSetBackgroundMode:
        if (!SetBackgroundProcessingMode(sim, thread, step)) {
          t.blocked = true;  // WaitForSingleObject on the commit's completion event
          return;
        }
        break;
      case StepOp::kDestroyPso:
        DestroyPso(sim, thread, static_cast<uint32_t>(step.pso));
        break;
      case StepOp::kDestroyDevice:
        if (!DestroyDevice(sim, thread)) {
          --t.pc;  // run the step again when the in-flight tasks have completed
          t.blocked = true;
          return;
        }
        FinishThread(sim, thread);
        return;
      case StepOp::kSignal:
        QueueGpuSignal(sim, thread, step.queue, step.fence, FenceValueOf(step.value, t.frame));
        break;
      case StepOp::kWait:
        QueueGpuWait(sim, thread, step.queue, step.fence, FenceValueOf(step.value, t.frame));
        break;
      case StepOp::kCpuSignal:
        CpuSignal(sim, thread, step.fence, FenceValueOf(step.value, t.frame));
        break;
      case StepOp::kCpuWork:
        cost = sim.random.Jittered(step.duration_ns, step.jitter);
        break;
      case StepOp::kCpuWait: {
        std::vector<uint64_t> values;
        for (const FrameExpr& v : step.values) values.push_back(FenceValueOf(v, t.frame));
        bool satisfied = false;
        t.group = BeginCpuWait(sim, thread, step.fences, values, step.mode, &satisfied);
        if (!satisfied) {
          t.blocked = true;
          return;
        }
        break;
      }
    }
    sim.events.Push(sim.now + WithInterference(sim, thread, cost), SimEventType::kThreadStep,
                    thread);
    return;
  }
  FinishThread(sim, thread);
}

void FinishThread(Sim& sim, uint32_t thread) {
  sim.threads[thread].done = true;
  for (uint32_t other = 0; other < sim.threads.size(); ++other) {
    const ThreadSpec& spec = *sim.threads[other].spec;
    if (spec.start_after == static_cast<int32_t>(thread)) {
      sim.events.Push(sim.now + spec.start_ns, SimEventType::kThreadStep, other);
    }
  }
}

}  // namespace core::sim
