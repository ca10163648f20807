// The topology of a trace: adapters, engines, hardware queues, processes, contexts, threads,
// fences, pipeline state objects, resources and counter series. One struct per table of
// schemas/trace_schema.sql, the same for whoever writes a trace (the simulator and the importers,
// through TraceWriter::Add*) and whoever reads one (TraceStore, the analyses and the views).
//
// `id` is the row's id (1, 2, ...; 0 means none). TraceWriter::Add* ignores it and returns the id
// it gives the row; a loaded TraceStore holds row id at index id - 1. It comes last, so that a
// row to add is written without it: writer.AddEngine({adapter, EngineType::k3D, 0, "3D"}).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/types.h"

namespace core::model {

struct Adapter {
  std::string name;
  int64_t luid = 0;
  bool native_fences = false;
  bool optimized_interrupts = false;
  PreemptionGranularity preemption_graphics = PreemptionGranularity::kNone;
  PreemptionGranularity preemption_compute = PreemptionGranularity::kNone;
  AdapterId id = 0;
};

struct Engine {
  AdapterId adapter = 0;
  EngineType type = EngineType::k3D;
  uint32_t ordinal = 0;
  std::string name;
  EngineId id = 0;
};

struct Queue {
  EngineId engine = 0;
  AdapterId adapter = 0;
  QueueType type = QueueType::k3D;
  int32_t priority = 0;
  ProcessId process = 0;
  std::string name;
  int32_t sort_index = 0;
  QueueId id = 0;
};

struct Process {
  int64_t pid = 0;
  std::string name;
  ProcessId id = 0;
};

struct Context {
  ProcessId process = 0;
  QueueId queue = 0;
  int64_t handle = 0;
  std::string name;
  ContextId id = 0;
};

struct Thread {
  ProcessId process = 0;
  int64_t tid = 0;
  ThreadKind kind = ThreadKind::kApplication;
  std::string name;
  int32_t sort_index = 0;
  ThreadId id = 0;
};

// The name an importer gives a process the trace does not name; the window's process header
// reads it as no name at all ("Process pid N", not "Process process N (pid N)").
inline std::string UnnamedProcessName(int64_t pid) {
  return "process " + std::to_string(pid);
}

// A thread named as a track beside the queues: "thread NAME", unless its name says so already
// (an importer's "thread 3727853 (pt_main_thread)").
inline std::string ThreadTrackName(const std::string& name) {
  if (name.rfind("thread ", 0) == 0) return name;
  std::string track = "thread ";
  track += name;
  return track;
}

struct Fence {
  std::string name;
  FenceKind kind = FenceKind::kNative;
  bool shared = false;
  AdapterId owner_adapter = 0;
  uint32_t adapter_mask = 0;
  FenceValue initial_value = 0;
  int64_t handle = 0;
  FenceId id = 0;
};

struct Pso {
  std::string name;
  uint32_t shaders = 1;
  PsoId id = 0;
};

struct Resource {
  std::string name;
  int64_t size_bytes = 0;
  ResourceId id = 0;
};

// A counter series and, once loaded, its samples (table counter_samples). The writer takes the
// series alone (TraceWriter::AddCounterSeries) and its samples one by one (AddCounterSample).
struct CounterSeries {
  std::string name;
  ProcessId process = 0;
  std::string unit;
  std::vector<TimeNs> ts;       // sorted
  std::vector<double> values;   // same length as ts
  CounterSeriesId id = 0;
};

}  // namespace core::model
