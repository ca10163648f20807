// seed 000: runtime-owned background threads. Work is processed in the order received; by
// default at most `max_tasks` (two) run at once at idle priority; during a
// COMMIT_RESULTS_HIGH_PRIORITY commit more run at once above idle priority until every task of
// that commit has finished. Exactly one of the callback (task_finished) or the cancel callback
// (task_cancelled) runs for each queued task.
#include <cmath>

#include "core/sim/sim_state.h"

namespace core::sim {

using core::model::BackgroundMode;
using core::model::EventKind;

void SetUpBackground(Sim& sim) {
  const Scenario& s = *sim.scenario;
  for (const PsoSpec& p : s.psos) {
    PsoState state;
    state.id = sim.writer->AddPso({p.name, p.shaders});
    sim.bg.psos.push_back(std::move(state));
  }
  if (s.psos.empty() || !s.background.supported) return;
  for (int32_t t = 0; t < s.background.threads; ++t) {
    sim.bg.thread_ids.push_back(sim.writer->AddThread(
        {1, static_cast<int64_t>(3000 + t), core::model::ThreadKind::kRuntimeBackground,
         "D3D12 background worker " + std::to_string(t + 1),
         static_cast<int32_t>(s.threads.size() + static_cast<size_t>(t))}));
    sim.bg.running_task.push_back(-1);
  }
}

namespace {

void EmitTaskRecord(Sim& sim, EventKind kind, core::model::ThreadId thread, int64_t task_id,
                    int64_t arg0 = 0, uint32_t flags = 0) {
  EventRecord e;
  e.ts = sim.now;
  e.kind = kind;
  e.thread = thread;
  e.op = task_id;
  e.arg0 = arg0;
  e.flags = flags;
  sim.Emit(e);
}

}  // namespace

bool QueueBackgroundTask(Sim& sim, uint32_t caller, uint32_t pso, int64_t constants,
                         int64_t commit, bool bypass_disable) {
  BackgroundState& bg = sim.bg;
  PsoState& state = bg.psos[pso];
  BackgroundTask task;
  task.id = static_cast<int64_t>(bg.tasks.size()) + 1;
  task.pso = pso;
  task.constants = constants;
  task.level = state.Stats(constants).level + 1;
  task.variant = state.next_variant++;
  task.commit = commit;
  task.duration = sim.random.Jittered(sim.scenario->background.compile_ns,
                                      sim.scenario->background.compile_jitter);
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::TaskQueued;
  e.thread = sim.threads[caller].id;
  e.op = task.id;
  e.arg0 = state.id;
  e.arg1 = task.variant;
  e.arg2 = commit;
  sim.Emit(e);
  const bool disabled = bg.mode == BackgroundMode::kDisableBackgroundWork ||
                        bg.mode == BackgroundMode::kDisableProfilingBySystem;
  if (bg.device_destroyed || (disabled && !bypass_disable)) {
    // seed 000: while disabled the runtime invokes the cancel callback on the calling thread
    // before returning to the driver.
    task.ended = true;
    bg.tasks.push_back(task);
    EmitTaskRecord(sim, EventKind::TaskCancelled, sim.threads[caller].id, task.id, 0,
                   bg.device_destroyed ? 1 : 0);
    return false;
  }
  bg.tasks.push_back(task);
  bg.queue.push_back(bg.tasks.size() - 1);
  TryStartTasks(sim);
  return true;
}

void TryStartTasks(Sim& sim) {
  BackgroundState& bg = sim.bg;
  if (bg.hold_starts) return;
  const BackgroundSpec& spec = sim.scenario->background;
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
    EmitTaskRecord(sim, EventKind::TaskStarted, bg.thread_ids[free_thread], task.id, 0,
                   boosted ? 1 : 0);
    sim.events.Push(sim.now + task.duration, SimEventType::kTaskDone,
                    static_cast<uint32_t>(free_thread), index);
  }
}

namespace {

void CompleteCommit(Sim& sim, CommitState& commit) {
  commit.done = true;
  if (commit.high_priority && commit.tasks > 0) --sim.bg.high_priority_open;
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::CommitCompleted;
  e.op = commit.id;
  e.arg0 = commit.tasks;
  e.arg1 = commit.call_id;
  sim.Emit(e);
  // seed 000: hEventToSignalUponCompletion is signalled once the commit's tasks have all run.
  if (commit.waiting_thread >= 0) WakeThread(sim, static_cast<uint32_t>(commit.waiting_thread));
}

}  // namespace

void TaskEnded(Sim& sim, const BackgroundTask& task) {
  if (task.commit == 0) return;
  CommitState& commit = sim.bg.commits[static_cast<size_t>(task.commit - 1)];
  if (commit.outstanding > 0 && --commit.outstanding == 0) CompleteCommit(sim, commit);
}

void CompleteCommitIfEmpty(Sim& sim, CommitState& commit) {
  if (commit.outstanding == 0 && !commit.done) CompleteCommit(sim, commit);
}

void OnTaskDone(Sim& sim, uint32_t bg_thread, uint64_t index) {
  BackgroundState& bg = sim.bg;
  BackgroundTask& task = bg.tasks[index];
  task.ended = true;
  bg.running_task[bg_thread] = -1;
  --bg.running;
  EmitTaskRecord(sim, EventKind::TaskFinished, bg.thread_ids[bg_thread], task.id);
  PsoState& pso = bg.psos[task.pso];
  ConstantStats& stats = pso.Stats(task.constants);
  stats.task_pending = false;
  if (pso.destroyed) {
    // seed 000: the PSO went away while its variant compiled: the result is abandoned.
    EmitTaskRecord(sim, EventKind::TaskAbandoned, bg.thread_ids[bg_thread], task.id, pso.id);
  } else {
    stats.level = task.level;
    stats.samples = 0;  // measure again with the variant in place
    const double factor = SpeedupFactor(sim.scenario->psos[task.pso].speedup, task.level);
    EventRecord e;
    e.ts = sim.now;
    e.kind = EventKind::VariantApplied;
    e.arg0 = pso.id;
    e.arg1 = task.variant;
    e.value = static_cast<uint64_t>(std::lround(factor * 1000.0));
    e.op = task.id;
    sim.Emit(e);
  }
  TaskEnded(sim, task);
  TryStartTasks(sim);
  if (bg.running == 0) {
    // seed 000: device destruction waits until every in-flight work item has completed.
    for (uint32_t t = 0; t < sim.threads.size(); ++t) {
      if (sim.threads[t].destroying) WakeThread(sim, t);
    }
  }
}

DurationNs WithInterference(const Sim& sim, uint32_t thread, DurationNs cost) {
  const double factor = sim.scenario->background.interference;
  if (factor <= 1.0 || sim.bg.running == 0 || sim.threads.empty()) return cost;
  // Runtime thread k shares a core with application thread k mod (application threads).
  for (size_t k = 0; k < sim.bg.running_task.size(); ++k) {
    if (sim.bg.running_task[k] >= 0 && k % sim.threads.size() == thread) {
      return static_cast<DurationNs>(static_cast<double>(cost) * factor);
    }
  }
  return cost;
}

}  // namespace core::sim
