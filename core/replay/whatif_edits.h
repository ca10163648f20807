// The changes `fencescope whatif` asks about, applied to a derived program (derived_program.h)
// before it is replayed: an edit of the program, never of the replay's output. Removing one
// dependency keeps every other one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/replay/derived_program.h"
#include "core/store/trace_store.h"

namespace core::replay {

struct Edits {
  // Packets whose name is the pattern or matches it as a glob (fnmatch) run FACTOR times as
  // long.
  std::vector<std::pair<std::string, double>> scale;
  // Every packet of the queue named so runs FACTOR times as long.
  std::vector<std::pair<std::string, double>> scale_queue;
  // The GPU wait with this wait_id is not made.
  std::vector<int64_t> remove_wait;
  // GPU waits of the first queue (by name) released in the trace by a signal of the second.
  std::vector<std::pair<std::string, std::string>> remove_waits;
  // CPU waits made inside a CPU slice of this name on their thread (a host call such as
  // cudaStreamSynchronize) are not made.
  std::vector<std::string> remove_sync;
  // Every CPU wait of the thread named so is not made.
  std::vector<std::string> remove_cpu_waits;
  // The CPU wait with this waiter_id (its wait group's) is not made.
  std::vector<int64_t> remove_cpu_wait;
  // The CPU time between a thread's calls is FACTOR times as long (0: an infinitely fast host).
  std::optional<double> cpu_scale;
  // Every queue's launch latency.
  std::optional<DurationNs> launch_latency_ns;
  // The queue named so gets this priority on its engine.
  std::vector<std::pair<std::string, int32_t>> priority;
  // As `simulate` takes them: every fence native or legacy monitored ("native", "monitored";
  // "": as the trace ran), every adapter's preemption granularity (a name of
  // core/sim/preemption.h's ApplyGranularityOverride; "": as the trace ran).
  std::string fence_mode;
  std::string preemption_granularity;

  bool Empty() const;
  // One line, for meta.replay_edits and the printout: "--scale 'gemm*=0.5' --cpu-scale 0".
  std::string Describe() const;
};

// What each edit touched.
struct EditCounts {
  uint64_t packets_scaled = 0;
  uint64_t gpu_waits_removed = 0;
  uint64_t cpu_waits_removed = 0;
  uint64_t cpu_gaps_scaled = 0;
  uint64_t queues_changed = 0;  // launch latency or priority
};

// Throws core::Error for a queue or thread name the trace does not have, or a factor that is
// negative or not finite.
EditCounts ApplyEdits(const Edits& edits, const core::store::TraceStore& store,
                      const analysis::Reconstruction& recon, DerivedProgram& program);

// Whether the edits change nothing but run times: packets' (--scale, --scale-queue) and the
// host's CPU time between calls (--cpu-scale); no step added or removed, no queue or fence
// changed.
bool ChangesDurationsAlone(const Edits& edits);

// For edits that change durations alone: every step's duration as ApplyEdits would set it,
// [thread][step] of `program` (left unedited), for the simulator to run the program with
// (core::sim::SimOptions::step_durations) instead of an edited copy of it. `durations` is
// reused (its storage kept). False, `durations` untouched, for any other edit; throws as
// ApplyEdits for a factor or queue it would refuse.
bool EditedDurations(const Edits& edits, const DerivedProgram& program,
                     core::sim::StepDurations& durations);

// Makes `edited`, a copy of `original` that ApplyEdits(edits, ...) changed, equal to `original`
// again, so that one copy serves replay after replay (the opportunities' candidates) instead of
// a new copy of the whole program each. Edits that only scale run times (packets, queues, the
// host) change nothing but the steps' durations, which are copied back; any other edit is undone
// by copying the whole program over the edited one (its storage reused).
void UndoEdits(const Edits& edits, const DerivedProgram& original, DerivedProgram& edited);

}  // namespace core::replay
