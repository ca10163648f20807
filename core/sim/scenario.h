// A simulator scenario as plain data: topology (adapters, engines, HW queues, fences, resources)
// and CPU threads with the programs they run. Loaded from TOML by scenario_loader.h (the format
// is documented in schemas/scenario_format.md) or built directly by tests.
//
// Cross references are indices into the scenario's own vectors (0-based).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/types.h"
#include "core/sim/boxed.h"
#include "core/sim/preemption_state.h"

namespace core::sim {

using core::model::BackgroundMode;
using core::model::DurationNs;
using core::model::MeasurementsAction;
using core::model::EngineType;
using core::model::FenceKind;
using core::model::QueueType;
using core::model::TimeNs;

enum class FenceMode : uint8_t { kNative = 0, kMonitored = 1 };

// An integer that depends on the frame number i of a thread's loop: per_frame * i + constant,
// optionally reduced modulo `modulo` (when > 0). Written in TOML as "i - 3", "2*i + 1", "7",
// "i % 3".
struct FrameExpr {
  int64_t per_frame = 0;
  int64_t constant = 0;
  int64_t modulo = 0;
  int64_t Eval(int64_t frame) const {
    int64_t v = per_frame * frame + constant;
    if (modulo > 0) v = ((v % modulo) + modulo) % modulo;
    return v;
  }
};

struct AdapterSpec {
  std::string name;
  bool native_fences = true;         // WDDM 3.2 native GPU fences
  bool write_logs = true;            // keep the per-HWQueue logs (off for a derived program of a
                                     // trace that has none: a CUDA capture)
  bool optimized_interrupts = true;  // OptimizedNativeFenceSignaledInterrupt cap
  DurationNs interrupt_latency_ns = 5'000;     // GPU raises -> OS interrupt handler runs
  DurationNs held_wait_release_ns = 20'000;    // OS releasing CPU-held GPU work (legacy fences)
  DurationNs propagation_ns = 10'000;          // cross-adapter signal propagation to another GPU
  uint32_t log_bytes = 4096;                   // each wait / signal log buffer
  uint32_t log_max_bytes = 65536;              // growth limit when grow_logs_when_tracing
  bool grow_logs_when_tracing = false;         // seed 003: the OS grows the log when tracing
  DurationNs os_log_read_ns = 0;               // OS reads every log this often (0: only on interrupts)
  double null_hwqueue_chance = 0;              // optimized interrupt names a NULL HWQueue
  double zero_timestamp_chance = 0;            // linked adapter skipped the write: zero timestamp
  // seed 004: preemption granularities and costs, and the TDR timeout.
  AdapterPreemption preemption;
  DurationNs context_save_ns = 20'000;         // saving a preempted context's state
  DurationNs context_restore_ns = 20'000;      // restoring it when the packet resumes
  DurationNs tdr_timeout_ns = 2'000'000'000;   // request -> engine reset when no point is reached
};

struct EngineSpec {
  std::string name;
  uint32_t adapter = 0;
  EngineType type = EngineType::k3D;
};

struct QueueSpec {
  std::string name;
  uint32_t engine = 0;
  QueueType type = QueueType::k3D;
  int32_t priority = 0;  // higher runs first on a shared engine
  // A packet can start no earlier than this after its submission (a CUDA stream's launch
  // latency), and no earlier than resume_ns after the queue's previous packet completed or its
  // wait was released when it was already queued then (the gap between back-to-back kernels).
  // 0 for D3D12 queues.
  DurationNs launch_latency_ns = 0;
  DurationNs resume_ns = 0;
};

struct FenceSpec {
  std::string name;
  uint32_t adapter = 0;              // creating adapter
  FenceKind kind = FenceKind::kNative;  // native, monitored (legacy) or cross_adapter
  std::vector<uint32_t> opened_on;   // other adapters (cross_adapter fences)
  uint64_t initial_value = 0;
};

struct ResourceSpec {
  std::string name;
  int64_t size_bytes = 0;
  int64_t slots = 1;  // equal parts addressed by `slot` (a ring buffer's entries)
};

struct ResourceUse {
  uint32_t resource = 0;
  FrameExpr slot;   // which slot (mod slots) the packet touches; whole resource when slots = 1
  bool write = false;
};

// A step's name, as an index into Scenario::step_names: each name is kept once, however many
// steps carry it (a derived program has a step per packet of its trace, most of them named by a
// long kernel name; a string per step was most of the cost of building, copying and starting
// one).
using StepName = uint32_t;

enum class StepOp : uint8_t {
  kExecute,    // ExecuteCommandLists: one packet on a queue
  kSignal,     // ID3D12CommandQueue::Signal (GPU signal)
  kWait,       // ID3D12CommandQueue::Wait (GPU wait)
  kCpuSignal,  // ID3D12Fence::Signal (CPU signal)
  kCpuWait,    // SetEventOnCompletion + WaitForSingle/MultipleObjects
  kCpuWork,    // CPU time spent recording / simulating
  kSetBackgroundMode,  // ID3D12Device6::SetBackgroundProcessingMode (seed 000)
  kDestroyPso,         // the application releases a PSO
  kDestroyDevice,      // the application destroys the device (ends the thread)
  // Derived programs (core/replay) only; no TOML spelling:
  kGpuDelay,    // the queue pauses for duration_ns when it reaches this point (a wait the trace
                // gives no cause for, replayed as measured); nothing is recorded for it
  kSliceBegin,  // a CPU slice `name` begins on the thread (ProfilerStep#N, a frame marker)
  kSliceEnd,    // the innermost open slice ends: its cpu_slice record is written now
  kMarker,      // a marker record `name` of type marker_type (a Present call, a vsync) now
};

enum class WaitMode : uint8_t { kSingle = 0, kAny = 1, kAll = 2 };

// What few steps set: the parts of a step a derived program never uses (frame gating, jitter,
// PSOs, resources, the packet's structure, background processing, the TOML line) and a CPU
// wait's fences. Kept out of line so that a
// step is 80 bytes, not ~300 (a derived program holds a step or two per packet of its trace).
struct StepDetail {
  int64_t from_frame = 1;  // the step runs only in frames >= from_frame
  int64_t every = 1;       // ... and only when (frame - from_frame) % every == 0
  double jitter = 0;       // duration scaled by a factor in [1 - jitter, 1 + jitter]
  std::vector<uint32_t> fences;   // kCpuWait
  std::vector<FrameExpr> values;  // kCpuWait, one per fence
  std::vector<ResourceUse> resources;
  int32_t pso = -1;        // kExecute: PSO the packet runs (-1: none); kDestroyPso: the PSO
  FrameExpr constants;     // kExecute: the constant values bound (a value-set number)
  BackgroundMode background_mode = BackgroundMode::kAllowed;  // kSetBackgroundMode
  MeasurementsAction action = MeasurementsAction::kKeepAll;   // kSetBackgroundMode
  bool stop_when_converged = false;  // leave the frame loop once FurtherMeasurementsDesired is false
  // seed 004 (kExecute): the packet's structure, the DMA packets the render command is split
  // into.
  PacketShape shape;
  int64_t split_packets = 1;
  int line = 0;  // TOML line, for messages
};

struct Step {
  StepOp op = StepOp::kExecute;
  WaitMode mode = WaitMode::kSingle;
  bool with_event = false;  // hEventToSignalUponCompletion given
  bool wait_event = false;  // WaitForSingleObject on it after the call
  // seed 004 (kExecute): a paging packet (video memory manager work), a present.
  bool paging = false;
  bool present = false;
  uint32_t queue = 0;
  uint32_t fence = 0;
  StepName name = 0;            // into Scenario::step_names: the packet's, slice's or marker's name
  uint32_t marker_type = 0;     // kMarker: marker_type (0 text, 1 vsync, 2 present)
  int32_t marker_adapter = -1;  // kMarker: adapter index it names, -1 none
  FrameExpr value;
  DurationNs duration_ns = 0;  // kExecute: GPU time; kCpuWork: CPU time
  int64_t packet_id = 0;  // kExecute: the packet id to record (0: the next one; derived programs
                          // keep their trace's)
  Boxed<StepDetail> detail;
};
// A derived program holds a step or two per packet: keep the common step small.
static_assert(sizeof(Step) <= 80, "a step's rarely set fields belong in StepDetail");

// seed 001 "Asynchronous compute and graphics example", parameters of the program.
struct AsyncPipelineSpec {
  uint32_t compute_queue = 0;
  uint32_t graphics_queue = 0;
  uint32_t compute_fence = 0;
  uint32_t graphics_fence = 0;
  uint32_t graphics_compute_fence = 0;
  int64_t cpu_latency = 3;
  int64_t compute_graphics_latency = 2;
  DurationNs compute_ns = 0;
  DurationNs graphics_ns = 0;
  double jitter = 0;
  int64_t buffer_resource = -1;  // resource with compute_graphics_latency slots, or -1
};

enum class ProgramKind : uint8_t { kScript = 0, kAsyncComputeGraphics = 1 };

// [thread][step]: a duration per step of each thread's program (SimOptions::step_durations).
using StepDurations = std::vector<std::vector<DurationNs>>;

struct ThreadSpec {
  std::string name;
  ProgramKind program = ProgramKind::kScript;
  int64_t frames = 1;            // loop iterations (script) / stage iterations (async)
  DurationNs start_ns = 0;
  DurationNs frame_period_ns = 0;  // a frame starts no earlier than start + (frame-1) * period
  DurationNs api_call_ns = 2'000;  // CPU cost of each API call
  std::vector<Step> steps;
  AsyncPipelineSpec async;
  int32_t start_after = -1;  // thread index: start when that thread has finished
};

// seed 000: runtime-owned background threads running the driver's PGO recompiles.
struct BackgroundSpec {
  bool supported = true;           // BackgroundProcessingSupported: the driver does PGO
  bool developer_mode = false;     // needed by DISABLE_* and COMMIT_RESULTS_HIGH_PRIORITY
  int32_t threads = 4;             // runtime-owned background threads
  int32_t max_tasks = 2;           // tasks at once by default (idle priority)
  int32_t high_priority_tasks = 3; // tasks at once during a high-priority commit (cores - 1)
  int64_t threshold = 8;           // samples of one (PSO, constants) before a recompile
  int64_t intrusive_threshold = 3; // ... with ALLOW_INTRUSIVE_MEASUREMENTS
  double intrusive_overhead = 0.3; // extra GPU time of instrumented packets when intrusive
  DurationNs compile_ns = 2'000'000;  // one recompile task
  double compile_jitter = 0.2;
  double interference = 1.0;       // foreground CPU slowdown while a task shares its core
};

struct PsoSpec {
  std::string name;
  uint32_t shaders = 1;
  int32_t levels = 2;    // rounds of specialisation the driver can find per constant set
  double speedup = 0.8;  // packet time factor per applied level
};

struct Scenario {
  std::string name;
  std::string description;
  std::string source;  // file path or embedded name, for messages
  std::string process_name = "app.exe";
  DurationNs duration_ns = 100'000'000;  // time limit of the run
  uint64_t seed = 1;
  FenceMode fence_mode = FenceMode::kNative;
  std::vector<AdapterSpec> adapters;
  std::vector<EngineSpec> engines;
  std::vector<QueueSpec> queues;
  std::vector<FenceSpec> fences;
  std::vector<ResourceSpec> resources;
  std::vector<ThreadSpec> threads;
  BackgroundSpec background;
  std::vector<PsoSpec> psos;
  std::vector<std::string> step_names{""};  // [StepName]; [0] is ""
};

// The name of `text` in s.step_names, added when new. A linear search: for scenarios written by
// hand or in TOML, with a few names; a derived program maps its trace's string ids instead.
inline StepName NameStep(Scenario& s, std::string_view text) {
  for (size_t i = 0; i < s.step_names.size(); ++i) {
    if (s.step_names[i] == text) return static_cast<StepName>(i);
  }
  s.step_names.emplace_back(text);
  return static_cast<StepName>(s.step_names.size() - 1);
}

inline const std::string& NameOf(const Scenario& s, const Step& step) {
  return s.step_names[step.name];
}

std::string_view FenceModeName(FenceMode mode);

}  // namespace core::sim
