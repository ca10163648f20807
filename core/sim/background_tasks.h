// seed 000: the runtime's background thread pool: queueing, starting and finishing tasks,
// commits.
#pragma once

#include <cstdint>

#include "core/model/types.h"
#include "core/sim/background_state.h"
#include "core/sim/sim_run.h"

namespace core::sim {

// Adds the scenario's PSOs and the runtime-owned threads to the trace.
void SetUpBackground(SimRun& run, BackgroundState& bg, size_t application_threads);
// QueueProcessingWorkCb from `caller`; returns false when cancelled at once (disabled).
bool QueueBackgroundTask(SimRun& run, BackgroundState& bg, core::model::ThreadId caller,
                         uint32_t pso, int64_t constants, int64_t commit, bool bypass_disable);
void TryStartTasks(SimRun& run, BackgroundState& bg);
// Commit bookkeeping when a task finishes or is cancelled.
void TaskEnded(const BackgroundContext& ctx, const BackgroundTask& task);
void CompleteCommitIfEmpty(const BackgroundContext& ctx, CommitState& commit);
void OnTaskDone(const BackgroundContext& ctx, uint32_t bg_thread, uint64_t task);
// CPU cost of `cost` on application thread `thread` of `application_threads`, slowed while a
// task runs on a runtime thread sharing its core.
DurationNs WithInterference(const Scenario& scenario, const BackgroundState& bg,
                            size_t application_threads, uint32_t thread, DurationNs cost);

}  // namespace core::sim
