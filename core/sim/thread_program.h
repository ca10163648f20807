// CPU threads running scenario scripts: each frame the thread walks its steps in order; every
// API call costs CPU time, a CPU wait blocks the thread until the OS releases it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/model/types.h"
#include "core/sim/background_state.h"
#include "core/sim/cpu_waiter_list.h"
#include "core/sim/gpu_command.h"
#include "core/sim/hardware_queue.h"
#include "core/sim/scenario.h"
#include "core/sim/sim_run.h"

namespace core::sim {

// A CPU slice a derived program opened (StepOp::kSliceBegin): when, and the step naming it.
struct OpenSlice {
  TimeNs begin = 0;
  size_t step = 0;
};

struct CpuThread {
  core::model::ThreadId id = 0;
  const ThreadSpec* spec = nullptr;
  // Its steps' durations in place of their duration_ns (SimOptions::step_durations); null: theirs.
  const DurationNs* durations = nullptr;
  int64_t frame = 1;
  size_t pc = 0;
  bool done = false;
  bool blocked = false;
  uint32_t group = 0;  // wait group it is blocked on
  // seed 001 asynchronous compute/graphics program state.
  int64_t frame_numbers[2] = {0, 0};
  bool started = false;
  bool awaiting = false;  // blocked in WaitForMultipleObjects; the released member picks the stage
  bool stop_loop = false;  // FurtherMeasurementsDesired came back false (stop_when_converged)
  bool destroying = false; // waiting in device destruction for in-flight background tasks
  TimeNs last_step_ts = -1;   // guards against a program that never advances simulated time
  uint64_t steps_at_ts = 0;
  std::vector<OpenSlice> open_slices;  // kSliceBegin .. kSliceEnd, innermost last
};

struct CpuThreads {
  std::vector<CpuThread> threads;
  std::vector<core::model::StringId> name_sids;  // [StepName]: the trace's string of a step name
  // The seed 001 pipeline's packet names (ComputeDispatch, GraphicsFrame), when a thread runs it.
  std::array<core::model::StringId, 2> pipeline_name_sids{};
};

// A thread step may make any API call: it reaches the GPU side and the CPU waits.
struct ThreadContext {
  GpuContext gpu;
  CpuWaitContext waits;

  BackgroundContext Background() const { return {gpu.run, gpu.bg, waits.cpu}; }
};

// API calls a CPU thread makes: record the *_QUEUED / packet_submitted event and queue the work.
// SubmitPacket completes `packet` (its kind, id, run time and ready time) where it lies and
// queues a copy of it (passed by value, the 168-byte command was copied at each call).
void SubmitPacket(const GpuContext& ctx, core::model::ThreadId thread, uint32_t queue,
                  DurationNs duration, core::model::StringId name, GpuCommand& packet,
                  uint32_t flags = 0);
void QueueGpuSignal(const GpuContext& ctx, core::model::ThreadId thread, uint32_t queue,
                    uint32_t fence, uint64_t value);
void QueueGpuWait(const GpuContext& ctx, core::model::ThreadId thread, uint32_t queue,
                  uint32_t fence, uint64_t value);
void RunThread(const ThreadContext& ctx, uint32_t thread);
void WakeThread(SimRun& run, CpuThreads& cpu, uint32_t thread);
// Marks the thread finished and starts the threads that wait for it (start_after).
void FinishThread(SimRun& run, CpuThreads& cpu, uint32_t thread);

}  // namespace core::sim
