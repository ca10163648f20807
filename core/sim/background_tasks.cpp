// seed 000: runtime-owned background threads. Work is processed in the order received; by
// default at most `max_tasks` (two) run at once at idle priority; during a
// COMMIT_RESULTS_HIGH_PRIORITY commit more run at once above idle priority until every task of
// that commit has finished. Exactly one of the callback (task_finished) or the cancel callback
// (task_cancelled) runs for each queued task.
#include "core/sim/background_tasks.h"

#include <cmath>
#include <string>

#include "core/sim/shader_pgo.h"
#include "core/sim/thread_program.h"

namespace core::sim {

using core::model::BackgroundMode;

void SetUpBackground(SimRun& run, BackgroundState& bg, size_t application_threads) {
  const Scenario& s = *run.scenario;
  for (const PsoSpec& p : s.psos) {
    PsoState state;
    state.id = run.writer->AddPso({p.name, p.shaders});
    bg.psos.push_back(std::move(state));
  }
  if (s.psos.empty() || !s.background.supported) return;
  for (int32_t t = 0; t < s.background.threads; ++t) {
    bg.thread_ids.push_back(run.writer->AddThread(
        {1, static_cast<int64_t>(3000 + t), core::model::ThreadKind::kRuntimeBackground,
         "D3D12 background worker " + std::to_string(t + 1),
         static_cast<int32_t>(application_threads + static_cast<size_t>(t))}));
    bg.running_task.push_back(-1);
  }
}

bool QueueBackgroundTask(SimRun& run, BackgroundState& bg, core::model::ThreadId caller,
                         uint32_t pso, int64_t constants, int64_t commit, bool bypass_disable) {
  PsoState& state = bg.psos[pso];
  BackgroundTask task;
  task.id = static_cast<int64_t>(bg.tasks.size()) + 1;
  task.pso = pso;
  task.constants = constants;
  task.level = state.Stats(constants).level + 1;
  task.variant = state.next_variant++;
  task.commit = commit;
  task.duration = run.random.Jittered(run.scenario->background.compile_ns,
                                      run.scenario->background.compile_jitter);
  run.Emit(events::TaskQueued{.ts_ns = run.now,
                              .thread_id = caller,
                              .task_id = task.id,
                              .pso_id = state.id,
                              .variant = task.variant,
                              .commit_id = commit});
  const bool disabled = bg.mode == BackgroundMode::kDisableBackgroundWork ||
                        bg.mode == BackgroundMode::kDisableProfilingBySystem;
  if (bg.device_destroyed || (disabled && !bypass_disable)) {
    // seed 000: while disabled the runtime invokes the cancel callback on the calling thread
    // before returning to the driver.
    task.ended = true;
    bg.tasks.push_back(task);
    run.Emit(events::TaskCancelled{.ts_ns = run.now,
                                   .thread_id = caller,
                                   .task_id = task.id,
                                   .reason = bg.device_destroyed ? 1u : 0u});
    return false;
  }
  bg.tasks.push_back(task);
  bg.queue.push_back(bg.tasks.size() - 1);
  TryStartTasks(run, bg);
  return true;
}

void TryStartTasks(SimRun& run, BackgroundState& bg) {
  if (bg.hold_starts) return;
  const BackgroundSpec& spec = run.scenario->background;
  const bool boosted = bg.high_priority_open > 0;
  const uint32_t limit = static_cast<uint32_t>(boosted ? spec.high_priority_tasks : spec.max_tasks);
  while (bg.running < limit && !bg.queue.empty()) {
    size_t free_thread = bg.running_task.size();
    for (size_t t = 0; t < bg.running_task.size(); ++t) {
      if (bg.running_task[t] < 0) {
        free_thread = t;
        break;
      }
    }
    if (free_thread == bg.running_task.size()) return;
    const size_t index = bg.queue.front();
    bg.queue.pop_front();
    BackgroundTask& task = bg.tasks[index];
    task.started = true;
    bg.running_task[free_thread] = static_cast<int64_t>(index);
    ++bg.running;
    run.Emit(events::TaskStarted{.ts_ns = run.now,
                                 .thread_id = bg.thread_ids[free_thread],
                                 .task_id = task.id,
                                 .priority = boosted ? 1u : 0u});
    run.events.Push(run.now + task.duration, SimEventType::kTaskDone,
                    static_cast<uint32_t>(free_thread), index);
  }
}

namespace {

void CompleteCommit(const BackgroundContext& ctx, CommitState& commit) {
  commit.done = true;
  if (commit.high_priority && commit.tasks > 0) --ctx.bg.high_priority_open;
  ctx.run.Emit(events::CommitCompleted{.ts_ns = ctx.run.now,
                                       .commit_id = commit.id,
                                       .tasks = commit.tasks,
                                       .call_id = commit.call_id});
  // seed 000: hEventToSignalUponCompletion is signalled once the commit's tasks have all run.
  if (commit.waiting_thread >= 0) {
    WakeThread(ctx.run, ctx.cpu, static_cast<uint32_t>(commit.waiting_thread));
  }
}

}  // namespace

void TaskEnded(const BackgroundContext& ctx, const BackgroundTask& task) {
  if (task.commit == 0) return;
  CommitState& commit = ctx.bg.commits[static_cast<size_t>(task.commit - 1)];
  if (commit.outstanding > 0 && --commit.outstanding == 0) CompleteCommit(ctx, commit);
}

void CompleteCommitIfEmpty(const BackgroundContext& ctx, CommitState& commit) {
  if (commit.outstanding == 0 && !commit.done) CompleteCommit(ctx, commit);
}

void OnTaskDone(const BackgroundContext& ctx, uint32_t bg_thread, uint64_t index) {
  SimRun& run = ctx.run;
  BackgroundState& bg = ctx.bg;
  BackgroundTask& task = bg.tasks[index];
  task.ended = true;
  bg.running_task[bg_thread] = -1;
  --bg.running;
  const core::model::ThreadId thread_id = bg.thread_ids[bg_thread];
  run.Emit(events::TaskFinished{.ts_ns = run.now, .thread_id = thread_id, .task_id = task.id});
  PsoState& pso = bg.psos[task.pso];
  ConstantStats& stats = pso.Stats(task.constants);
  stats.task_pending = false;
  if (pso.destroyed) {
    // seed 000: the PSO went away while its variant compiled: the result is abandoned.
    run.Emit(events::TaskAbandoned{
        .ts_ns = run.now, .thread_id = thread_id, .task_id = task.id, .pso_id = pso.id});
  } else {
    stats.level = task.level;
    stats.samples = 0;  // measure again with the variant in place
    const double factor = SpeedupFactor(run.scenario->psos[task.pso].speedup, task.level);
    run.Emit(events::VariantApplied{
        .ts_ns = run.now,
        .pso_id = pso.id,
        .variant = task.variant,
        .speedup_permille = static_cast<uint64_t>(std::lround(factor * 1000.0)),
        .task_id = task.id});
  }
  TaskEnded(ctx, task);
  TryStartTasks(run, bg);
  if (bg.running == 0) {
    // seed 000: device destruction waits until every in-flight work item has completed.
    for (uint32_t t = 0; t < ctx.cpu.threads.size(); ++t) {
      if (ctx.cpu.threads[t].destroying) WakeThread(run, ctx.cpu, t);
    }
  }
}

DurationNs WithInterference(const Scenario& scenario, const BackgroundState& bg,
                            size_t application_threads, uint32_t thread, DurationNs cost) {
  const double factor = scenario.background.interference;
  if (factor <= 1.0 || bg.running == 0 || application_threads == 0) return cost;
  // Runtime thread k shares a core with application thread k mod (application threads).
  for (size_t k = 0; k < bg.running_task.size(); ++k) {
    if (bg.running_task[k] >= 0 && k % application_threads == thread) {
      return static_cast<DurationNs>(static_cast<double>(cost) * factor);
    }
  }
  return cost;
}

}  // namespace core::sim
