// CPU threads running scenario scripts: each frame the thread walks its steps in order; every
// API call costs CPU time, a CPU wait blocks the thread until the OS releases it.
#include "core/sim/thread_program.h"

#include <algorithm>

#include "core/model/error.h"
#include "core/sim/async_pipeline_program.h"
#include "core/sim/background_mode.h"
#include "core/sim/background_tasks.h"
#include "core/sim/fence.h"
#include "core/sim/preemption.h"
#include "core/sim/shader_pgo.h"

namespace core::sim {

void WakeThread(SimRun& run, CpuThreads& cpu, uint32_t thread) {
  CpuThread& t = cpu.threads[thread];
  if (!t.blocked) return;
  t.blocked = false;
  run.events.Push(run.now, SimEventType::kThreadStep, thread);
}

namespace {

constexpr uint64_t kMaxStepsAtOneInstant = 10'000'000;

bool StepActive(const Step& step, int64_t frame) {
  if (!step.detail.has_value()) return true;  // from frame 1, every frame
  const StepDetail& d = step.detail.get();
  return frame >= d.from_frame && (frame - d.from_frame) % d.every == 0;
}

uint64_t FenceValueOf(const FrameExpr& expr, int64_t frame) {
  const int64_t v = expr.Eval(frame);
  return v < 0 ? 0 : static_cast<uint64_t>(v);
}

}  // namespace

void SubmitPacket(const GpuContext& ctx, core::model::ThreadId thread, uint32_t queue,
                  DurationNs duration, core::model::StringId name, GpuCommand& packet,
                  uint32_t flags) {
  SimRun& run = ctx.run;
  packet.kind = GpuCommand::Kind::kPacket;
  if (packet.op > 0) {
    // A derived program keeps its trace's packet ids; later ids follow the largest.
    ctx.gpu.next_packet_id = std::max(ctx.gpu.next_packet_id, packet.op + 1);
  } else {
    packet.op = ctx.gpu.next_packet_id++;
  }
  packet.work.remaining_ns = duration;
  packet.work.duration_ns = duration;
  packet.preemption.fence_submission = packet.op;
  const HwQueue& q = ctx.gpu.queues[queue];
  packet.ready_at = run.now + q.launch_latency_ns;
  const EventRowId row = run.Emit(events::PacketSubmitted{
      .ts_ns = run.now,
      .queue_id = q.id,
      .thread_id = thread,
      .packet_id = packet.op,
      .planned_duration_ns = duration,
      .context_id = q.context,
      .name_sid = name,
      .fence_submission_id = packet.preemption.fence_submission,
      .packet_flags = flags});
  if (packet.pgo.pso >= 0) {
    // Which PSO and constant set the packet runs with (seed 000 PGO), for the details panel.
    run.writer->AddEventArg(row, "pso", static_cast<int64_t>(ctx.bg.psos[packet.pgo.pso].id));
    run.writer->AddEventArg(row, "constants", packet.pgo.constants);
  }
  PushGpuCommand(ctx, queue, packet);
}

namespace {

// Queue Signal / Wait: records FENCE_SIGNAL_QUEUED / FENCE_WAIT_QUEUED with the CPU timestamp at
// which it was queued (seed 003) and puts the command in the HW queue.
void QueueFenceOp(const GpuContext& ctx, core::model::ThreadId thread, uint32_t queue,
                  uint32_t fence, uint64_t value, GpuCommand::Kind kind) {
  SimRun& run = ctx.run;
  GpuCommand c;
  c.kind = kind;
  c.fence = {fence, value};
  c.op = ctx.fences.next_fence_op_id++;
  const HwQueue& q = ctx.gpu.queues[queue];
  const core::model::FenceId fence_id = ctx.fences.fences[fence].id;
  if (kind == GpuCommand::Kind::kSignal) {
    run.Emit(events::FenceSignalQueued{.ts_ns = run.now,
                                       .queue_id = q.id,
                                       .thread_id = thread,
                                       .fence_id = fence_id,
                                       .fence_value = value,
                                       .signal_id = c.op});
  } else {
    run.Emit(events::FenceWaitQueued{.ts_ns = run.now,
                                     .queue_id = q.id,
                                     .thread_id = thread,
                                     .fence_id = fence_id,
                                     .fence_value = value,
                                     .wait_id = c.op});
    NoteQueuedWait(ctx.fences, q, queue, c);
  }
  PushGpuCommand(ctx, queue, c);
}

// Keeps a program from running forever at one instant of simulated time.
void CheckTimeAdvances(const SimRun& run, CpuThread& t) {
  if (t.last_step_ts == run.now) {
    if (++t.steps_at_ts > kMaxStepsAtOneInstant) {
      throw core::Error(run.scenario->source + ": thread '" + t.spec->name +
                        "' runs without simulated time passing (give its steps api_call_us, "
                        "duration_us or frame_period_us)");
    }
  } else {
    t.last_step_ts = run.now;
    t.steps_at_ts = 0;
  }
}

enum class StepResult : uint8_t { kContinue, kBlocked, kFinished };

// Whether a step that took no CPU time may be followed by the thread's next at once, in this
// call: exactly when the event it would otherwise schedule at this instant is the one the run
// would take next (nothing else pending at this instant, no released queue to look at first),
// so that the order of everything the run does is the same, without the round trip through
// the event queue (a derived program's calls take no time of their own, half its steps).
bool NextAtOnce(const GpuContext& ctx) {
  const EventQueue& events = ctx.run.events;
  return ctx.gpu.queues_to_advance.empty() && (events.Empty() || events.Top().t > ctx.run.now);
}

// Runs one active step; `*cost` is its CPU time.
StepResult RunStep(const ThreadContext& ctx, uint32_t thread, size_t index, DurationNs* cost) {
  SimRun& run = ctx.gpu.run;
  CpuThread& t = ctx.waits.cpu.threads[thread];
  const Step& step = t.spec->steps[index];
  const DurationNs duration = t.durations ? t.durations[index] : step.duration_ns;
  switch (step.op) {
    case StepOp::kExecute: {
      GpuCommand c;
      c.op = step.packet_id;
      const std::vector<ResourceUse>& uses = step.detail.get().resources;
      c.work.uses = uses.empty() ? nullptr : &uses;
      c.work.frame = t.frame;
      c.work.remaining_ns = run.random.Jittered(duration, step.detail.get().jitter);
      const uint32_t flags = PlanPgoPacket(*run.scenario, ctx.gpu.bg, t.id, step, t.frame, c);
      SubmitRenderCommand(ctx.gpu, t.id, step.queue, step,
                          ctx.waits.cpu.name_sids[step.name], c, flags);
      break;
    }
    case StepOp::kSetBackgroundMode:
      if (!SetBackgroundProcessingMode(ctx.Background(), thread, step)) {
        t.blocked = true;  // WaitForSingleObject on the commit's completion event
        return StepResult::kBlocked;
      }
      break;
    case StepOp::kDestroyPso:
      DestroyPso(run, ctx.gpu.bg, t.id, static_cast<uint32_t>(step.detail.get().pso));
      break;
    case StepOp::kDestroyDevice:
      if (!DestroyDevice(ctx.Background(), thread)) {
        --t.pc;  // run the step again when the in-flight tasks have completed
        t.blocked = true;
        return StepResult::kBlocked;
      }
      return StepResult::kFinished;
    case StepOp::kSignal:
      QueueGpuSignal(ctx.gpu, t.id, step.queue, step.fence, FenceValueOf(step.value, t.frame));
      break;
    case StepOp::kWait:
      QueueGpuWait(ctx.gpu, t.id, step.queue, step.fence, FenceValueOf(step.value, t.frame));
      break;
    case StepOp::kCpuSignal:
      CpuSignal(ctx.gpu, ctx.waits, t.id, step.fence, FenceValueOf(step.value, t.frame));
      break;
    case StepOp::kCpuWork:
      *cost = run.random.Jittered(duration, step.detail.get().jitter);
      break;
    case StepOp::kGpuDelay: {
      GpuCommand c;
      c.kind = GpuCommand::Kind::kDelay;
      c.delay_ns = duration;
      PushGpuCommand(ctx.gpu, step.queue, c);
      break;
    }
    case StepOp::kMarker:
      run.Emit(events::Marker{
          .ts_ns = run.now,
          .thread_id = t.id,
          .name_sid = ctx.waits.cpu.name_sids[step.name],
          .adapter_id = step.marker_adapter >= 0 ? ctx.gpu.ids.adapter_ids[step.marker_adapter] : 0,
          .marker_type = step.marker_type});
      break;
    case StepOp::kSliceBegin:
      t.open_slices.push_back({run.now, index});
      break;
    case StepOp::kSliceEnd:
      if (!t.open_slices.empty()) {
        const OpenSlice slice = t.open_slices.back();
        t.open_slices.pop_back();
        run.Emit(events::CpuSlice{
            .ts_ns = slice.begin,
            .thread_id = t.id,
            .duration_ns = run.now - slice.begin,
            .name_sid = ctx.waits.cpu.name_sids[t.spec->steps[slice.step].name],
            .depth = static_cast<int64_t>(t.open_slices.size())});
      }
      break;
    case StepOp::kCpuWait: {
      const StepDetail& wait = step.detail.get();
      std::vector<uint64_t> values;
      for (const FrameExpr& v : wait.values) values.push_back(FenceValueOf(v, t.frame));
      bool satisfied = false;
      t.group = BeginCpuWait(ctx.waits, thread, wait.fences, values, step.mode, &satisfied);
      if (!satisfied) {
        t.blocked = true;
        return StepResult::kBlocked;
      }
      break;
    }
  }
  return StepResult::kContinue;
}

}  // namespace

void QueueGpuSignal(const GpuContext& ctx, core::model::ThreadId thread, uint32_t queue,
                    uint32_t fence, uint64_t value) {
  QueueFenceOp(ctx, thread, queue, fence, value, GpuCommand::Kind::kSignal);
}

void QueueGpuWait(const GpuContext& ctx, core::model::ThreadId thread, uint32_t queue,
                  uint32_t fence, uint64_t value) {
  QueueFenceOp(ctx, thread, queue, fence, value, GpuCommand::Kind::kWait);
}

void RunThread(const ThreadContext& ctx, uint32_t thread) {
  SimRun& run = ctx.gpu.run;
  CpuThreads& cpu = ctx.waits.cpu;
  CpuThread& t = cpu.threads[thread];
  if (t.done || t.blocked) return;
  if (t.spec->program == ProgramKind::kAsyncComputeGraphics) {
    RunAsyncPipeline(ctx, thread);
    return;
  }
  const ThreadSpec& spec = *t.spec;
  const bool endless = spec.frames == 0;
  CheckTimeAdvances(run, t);
  while (true) {
    if (t.stop_loop) break;
    if (t.pc == spec.steps.size()) {
      t.pc = 0;
      ++t.frame;
      if (spec.frame_period_ns > 0) {
        const TimeNs next = spec.start_ns + (t.frame - 1) * spec.frame_period_ns;
        if (next > run.now) {
          if (!endless && t.frame > spec.frames) break;
          run.events.Push(next, SimEventType::kThreadStep, thread);
          return;
        }
      }
    }
    if (!endless && t.frame > spec.frames) break;
    const size_t index = t.pc++;
    if (!StepActive(spec.steps[index], t.frame)) continue;
    DurationNs cost = spec.api_call_ns;
    switch (RunStep(ctx, thread, index, &cost)) {
      case StepResult::kContinue: break;
      case StepResult::kBlocked: return;
      case StepResult::kFinished: FinishThread(run, cpu, thread); return;
    }
    const DurationNs slowed =
        WithInterference(*run.scenario, ctx.gpu.bg, cpu.threads.size(), thread, cost);
    if (slowed == 0 && NextAtOnce(ctx.gpu)) {
      CheckTimeAdvances(run, t);
      continue;
    }
    run.events.Push(run.now + slowed, SimEventType::kThreadStep, thread);
    return;
  }
  FinishThread(run, cpu, thread);
}

void FinishThread(SimRun& run, CpuThreads& cpu, uint32_t thread) {
  cpu.threads[thread].done = true;
  for (uint32_t other = 0; other < cpu.threads.size(); ++other) {
    const ThreadSpec& spec = *cpu.threads[other].spec;
    if (spec.start_after == static_cast<int32_t>(thread)) {
      run.events.Push(run.now + spec.start_ns, SimEventType::kThreadStep, other);
    }
  }
}

}  // namespace core::sim
