// The parts of the simulator's state, one per concept of the seed documents, each declared with
// the file that implements it:
//   sim_run.h              the scenario, the clock, pending simulation events, the trace
//   hardware_queue.h       HW queues, per-engine run lists, packets (seeds 001, 002)
//   preemption_state.h     GPU preemption and TDR (seed 004)
//   fence.h                CurrentValue, GPU signal / wait, CPU signal, rewinds (seeds 001, 003)
//   cpu_waiter_list.h      CPU waiters, wait groups, MonitoredValue (seed 003)
//   interrupt.h            raising interrupts and the OS's handling of them (seed 003)
//   log_buffer.h           per-HWQueue wait and signal logs (seed 003)
//   background_state.h     the runtime's background thread pool and the driver's PGO (seed 000)
//   thread_program.h       CPU threads running scenario scripts
//
// Functions take the parts they read and write. Where one call reaches several parts (a GPU
// signal unblocks waits, writes a log entry and raises an interrupt) they take a context of
// references to just those parts: EngineContext, GpuContext, CpuWaitContext, BackgroundContext,
// and ThreadContext for a CPU thread's API calls, which may reach any of them.
#pragma once

#include "core/sim/background_state.h"
#include "core/sim/cpu_waiter_list.h"
#include "core/sim/fence.h"
#include "core/sim/hardware_queue.h"
#include "core/sim/interrupt.h"
#include "core/sim/log_buffer.h"
#include "core/sim/preemption_state.h"
#include "core/sim/sim_run.h"
#include "core/sim/thread_program.h"

namespace core::sim {

struct Sim {
  SimRun run;
  Topology ids;
  GpuQueues gpu;
  PreemptionState preemption;
  FenceTable fences;
  CpuWaiterList waiters;
  InterruptState interrupts;
  LogBuffers logs;
  BackgroundState bg;
  CpuThreads cpu;

  EngineContext Engine() { return {run, ids, gpu, preemption}; }
  GpuContext Gpu() { return {run, ids, gpu, preemption, fences, logs, interrupts, bg}; }
  CpuWaitContext CpuWait() { return {run, ids, fences, waiters, cpu}; }
  ThreadContext Thread() { return {Gpu(), CpuWait()}; }
  BackgroundContext Background() { return {run, bg, cpu}; }
};

}  // namespace core::sim
