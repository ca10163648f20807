// The program behind a trace: what each CPU thread called, in order, with the CPU time between
// its calls, and what each queue was given, as a simulator scenario built in memory. Running it
// through core/sim (replay_writer.h) replays the trace; editing it first (whatif_edits.h) asks
// what a change would do. Simulated and imported traces are derived the same way, from the
// reconstruction alone.
//
//   thread T   call ---- cpu work ---- call [cpu wait .......] ---- cpu work ---- call
//              submit P1 to Q            released by signal S          signal F=3 on Q
//   queue Q             [ launch latency ][== P1 (its measured run time) ==]
//
// What is measured and kept: every packet's run time, the CPU time between a thread's calls
// (from the end of a CPU wait when the call before was one), each queue's launch latency (the
// median time from submission to start of the packets that nothing held) and resume time (the
// median time from what held a packet, its queue's previous packet or a wait, to its start),
// and per adapter how long the OS takes to wake a CPU waiter after a signal (interrupts) and to
// let a held GPU wait go. No packet keeps its start: when it starts in the replay follows from
// what it waited for there.
//
// What is re-bound in the replay: a GPU or CPU wait waits for its fence to reach its value, so
// it is released by whichever signal gets there first in the replay (a CUDA stream sync by the
// work that ends last in the replay, not in the capture). A device sync (a CPU wait made inside
// a cudaDeviceSynchronize / hipDeviceSynchronize call) waits for every queue of its device: a
// signal of a fence of the replay's own on each, and a wait for all of them.
//
// What the trace does not explain is replayed as measured and counted (fixed_delays): a GPU
// wait or CPU wait with no signal in the trace reaching its value pauses its queue or thread
// for as long as it did. Packets whose submitting thread the trace does not name are submitted
// by a stand-in thread per queue at the times the trace gives (launches_not_in_trace).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/model/types.h"
#include "core/sim/scenario.h"
#include "core/store/trace_store.h"

namespace core::replay {

using core::model::DurationNs;
using core::model::TimeNs;

// What one step of a derived thread program stands for.
enum class StepOrigin : uint8_t {
  kPacket,         // a packet submission: index into Reconstruction::packets
  kGpuSignal,      // a queue Signal: index into signals
  kGpuWait,        // a queue Wait: index into waits
  kCpuSignal,      // a CPU Signal: index into signals
  kCpuWait,        // a CPU wait (one step per wait group): index into cpu_waits (its first)
  kCpuWork,        // CPU time between two calls
  kFixedGpuDelay,  // a GPU wait with no known release, replayed as measured: index into waits
  kFixedCpuDelay,  // a CPU wait with no known release, replayed as measured: index into cpu_waits
  kSliceBegin,     // a step marker slice (ProfilerStep#N) begins
  kSliceEnd,
  kMarker,            // a marker record (present, vsync): index into the trace's events
  kDeviceSyncSignal,  // a device sync's signal on one queue of its device: index into cpu_waits
  // The time between two steps of a stand-in (launches not in the trace, the display's
  // vsyncs): when the trace shows them happen, not CPU time of the host, so --cpu-scale leaves
  // it as it is.
  kStandInGap,
};

struct StepSource {
  StepOrigin origin = StepOrigin::kCpuWork;
  uint32_t index = analysis::kNoIndex;
};

struct FixedDelays {
  uint64_t count = 0;
  DurationNs total_ns = 0;
};

struct DerivedProgram {
  core::sim::Scenario scenario;
  // [thread][step]: what each step of each thread's program stands for.
  std::vector<std::vector<StepSource>> sources;
  // Scenario index -> the trace's id. Engines the trace does not have (a CUDA stream runs on an
  // engine of its own in the replay) and the stand-in adapter are 0.
  std::vector<core::model::AdapterId> adapter_ids;
  std::vector<core::model::EngineId> engine_ids;
  std::vector<core::model::QueueId> queue_ids;
  // The trace's fences, then the replay's own (0: the replay adds their rows).
  std::vector<core::model::FenceId> fence_ids;
  // Threads of the trace first (thread_ids[i] = i + 1), then the stand-in submitters (0: the
  // replay adds their rows).
  std::vector<core::model::ThreadId> thread_ids;
  TimeNs origin = 0;  // the trace time of simulated time 0 (the trace's start)
  TimeNs end = 0;     // the trace's end
  FixedDelays fixed_delays;
  uint64_t launches_not_in_trace = 0;  // packets submitted by a stand-in thread
  // CPU waits the trace shows no release for, after which their thread made more calls (the
  // release is missing from the capture): not made in the replay.
  uint64_t cpu_waits_without_release = 0;
  // Device syncs (cudaDeviceSynchronize, hipDeviceSynchronize) re-bound to every queue of their
  // device: the importer tied each to the stream whose work ended last in the capture.
  uint64_t device_syncs = 0;
};

// Throws nothing: what cannot be derived is replayed as measured and counted.
DerivedProgram DeriveProgram(const core::store::TraceStore& store,
                             const analysis::Reconstruction& recon);

}  // namespace core::replay
