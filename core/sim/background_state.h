// seed 000: the runtime's background thread pool and the driver's PGO state, as plain data.
#pragma once

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "core/model/types.h"
#include "core/sim/sim_run.h"

namespace core::sim {

struct CpuThreads;

// What the driver's PGO knows about one constant set of one PSO.
struct ConstantStats {
  int64_t samples = 0;      // histogram count since the last variant / discard
  int32_t level = 0;        // specialisation rounds applied
  bool task_pending = false;
};

struct PsoState {
  core::model::PsoId id = 0;
  bool destroyed = false;
  int32_t next_variant = 1;
  std::vector<std::pair<int64_t, ConstantStats>> constants;  // in first-seen order
  ConstantStats& Stats(int64_t constant) {
    for (auto& [c, stats] : constants) {
      if (c == constant) return stats;
    }
    constants.emplace_back(constant, ConstantStats{});
    return constants.back().second;
  }
};

struct BackgroundTask {
  int64_t id = 0;
  uint32_t pso = 0;
  int64_t constants = 0;
  int32_t level = 0;        // level the variant reaches
  int32_t variant = 0;
  int64_t commit = 0;       // commit id, 0 none
  DurationNs duration = 0;
  bool started = false;
  bool ended = false;       // finished or cancelled
};

struct CommitState {
  int64_t id = 0;
  int64_t call_id = 0;
  uint32_t tasks = 0;
  uint32_t outstanding = 0;
  bool high_priority = false;
  int32_t waiting_thread = -1;  // thread in WaitForSingleObject on the completion event
  bool done = false;
};

struct BackgroundState {
  BackgroundMode mode = BackgroundMode::kAllowed;
  std::vector<core::model::ThreadId> thread_ids;  // runtime-owned threads
  std::vector<int64_t> running_task;              // per runtime thread: task index or -1
  std::deque<size_t> queue;                       // queued task indices, in order received
  std::vector<BackgroundTask> tasks;
  std::vector<CommitState> commits;
  std::vector<PsoState> psos;
  uint32_t running = 0;
  uint32_t high_priority_open = 0;  // high-priority commits with tasks outstanding
  bool device_destroyed = false;
  bool hold_starts = false;  // a commit is being set up: its tasks start once it is complete
  int64_t next_call_id = 1;
  // The current pass (since the last SetBackgroundProcessingMode call).
  bool pass_instrumented = false;
  bool pass_found_new = false;
};

// What background work that can wake application threads touches (commit completion events,
// device destruction).
struct BackgroundContext {
  SimRun& run;
  BackgroundState& bg;
  CpuThreads& cpu;
};

}  // namespace core::sim
