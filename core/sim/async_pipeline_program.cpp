// seed 001 "Asynchronous compute and graphics example" (AsyncPipelinedComputeGraphics), run as
// written: two stages (compute, graphics), each throttled by a CPU event set on completion of
// the stage's fence CpuLatency frames back, WaitForMultipleObjects picking the lowest signalled
// stage; the graphics queue waits only once (compute fence 1) and signals the
// graphics-compute fence *before* rendering with the compute frame it is done with.
#include "core/sim/async_pipeline_program.h"

#include <algorithm>

namespace core::sim {

namespace {

constexpr int kComputeStage = 0;
constexpr int kGraphicsStage = 1;

DurationNs RunStage(const GpuContext& ctx, CpuThreads& cpu, uint32_t thread, int stage) {
  SimRun& run = ctx.run;
  CpuThread& t = cpu.threads[thread];
  const AsyncPipelineSpec& a = t.spec->async;
  const DurationNs call = t.spec->api_call_ns;
  const int64_t frame = ++t.frame_numbers[stage];
  GpuCommand packet;
  if (stage == kComputeStage) {
    DurationNs cost = 0;
    if (frame > a.compute_graphics_latency) {
      QueueGpuWait(ctx, t.id, a.compute_queue, a.graphics_compute_fence,
                   static_cast<uint64_t>(frame - a.compute_graphics_latency));
      cost += call;
    }
    if (a.buffer_resource >= 0) {
      packet.work.direct_resource = static_cast<int32_t>(a.buffer_resource);
      packet.work.direct_slot = (frame - 1) % a.compute_graphics_latency;
      packet.work.direct_write = true;
    }
    SubmitPacket(ctx, t.id, a.compute_queue, run.random.Jittered(a.compute_ns, a.jitter),
                 cpu.pipeline_name_sids[kComputeStage], packet);
    QueueGpuSignal(ctx, t.id, a.compute_queue, a.compute_fence, static_cast<uint64_t>(frame));
    return cost + 2 * call;
  }
  // The seed writes min(1, GetCompletedValue()); the graphics queue's first wait guarantees at
  // least compute frame 1, so the intent is max (min would index buffer -1).
  const uint64_t completed = std::max<uint64_t>(1, ctx.fences.fences[a.compute_fence].current);
  const int64_t pipe_buffer = static_cast<int64_t>(completed - 1) % a.compute_graphics_latency;
  // Signal *before* new rendering to indicate what compute work the graphics queue is done with.
  QueueGpuSignal(ctx, t.id, a.graphics_queue, a.graphics_compute_fence, completed - 1);
  if (a.buffer_resource >= 0) {
    packet.work.direct_resource = static_cast<int32_t>(a.buffer_resource);
    packet.work.direct_slot = pipe_buffer;
    packet.work.direct_write = false;
  }
  SubmitPacket(ctx, t.id, a.graphics_queue, run.random.Jittered(a.graphics_ns, a.jitter),
               cpu.pipeline_name_sids[kGraphicsStage], packet);
  QueueGpuSignal(ctx, t.id, a.graphics_queue, a.graphics_fence, static_cast<uint64_t>(frame));
  return 4 * call;  // GetCompletedValue, Signal, ExecuteCommandLists, Signal
}

}  // namespace

void RunAsyncPipeline(const ThreadContext& ctx, uint32_t thread) {
  SimRun& run = ctx.gpu.run;
  CpuThreads& cpu = ctx.waits.cpu;
  CpuThread& t = cpu.threads[thread];
  const ThreadSpec& spec = *t.spec;
  const AsyncPipelineSpec& a = spec.async;
  if (!t.started) {
    t.started = true;
    // Graphics needs to wait for the first compute frame; its only wait.
    QueueGpuWait(ctx.gpu, t.id, a.graphics_queue, a.compute_fence, 1);
    run.events.Push(run.now + spec.api_call_ns, SimEventType::kThreadStep, thread);
    return;
  }
  int stage = -1;
  if (t.awaiting) {
    t.awaiting = false;
    stage = ctx.waits.waiters.groups[t.group].satisfied_member;
  } else {
    if (spec.frames > 0 && t.frame_numbers[kComputeStage] + t.frame_numbers[kGraphicsStage] >=
                               2 * spec.frames) {
      FinishThread(run, cpu, thread);
      return;
    }
    const uint32_t stage_fences[2] = {a.compute_fence, a.graphics_fence};
    std::vector<uint32_t> fences;
    std::vector<uint64_t> values;
    for (int i = 0; i < 2 && stage < 0; ++i) {
      if (t.frame_numbers[i] <= a.cpu_latency) {
        stage = i;  // ::SetEvent: the handle is already signalled
        break;
      }
      const uint64_t value = static_cast<uint64_t>(t.frame_numbers[i] - a.cpu_latency);
      if (ctx.waits.fences.fences[stage_fences[i]].current >= value) {
        bool satisfied = false;  // SetEventOnCompletion on a reached value: set at once
        BeginCpuWait(ctx.waits, thread, {stage_fences[i]}, {value}, WaitMode::kSingle, &satisfied);
        stage = i;
        break;
      }
      fences.push_back(stage_fences[i]);
      values.push_back(value);
    }
    if (stage < 0) {
      // WaitForMultipleObjects(2, handles, FALSE, INFINITE): the lowest signalled index wins.
      bool satisfied = false;
      t.group = BeginCpuWait(ctx.waits, thread, fences, values, WaitMode::kAny, &satisfied);
      t.blocked = true;
      t.awaiting = true;
      return;
    }
  }
  const DurationNs cost = RunStage(ctx.gpu, cpu, thread, stage);
  run.events.Push(run.now + cost, SimEventType::kThreadStep, thread);
}

}  // namespace core::sim
