// seed 000: SetBackgroundProcessingMode (modes, measurement actions, developer mode,
// FurtherMeasurementsDesired), PSO destruction and device destruction.
#include "core/sim/sim_state.h"

namespace core::sim {

using core::model::BackgroundMode;
using core::model::EventKind;
using core::model::MeasurementsAction;

namespace {

constexpr uint32_t kErrorNeedsDeveloperMode = 1;
constexpr uint32_t kErrorEventWithoutCommit = 2;

bool IsCommit(MeasurementsAction a) {
  return a == MeasurementsAction::kCommitResults ||
         a == MeasurementsAction::kCommitResultsHighPriority;
}

void EmitModeChanged(Sim& sim, uint32_t thread, int64_t call_id, const Step& step, bool refused,
                     int64_t commit_id, bool further) {
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::ModeChanged;
  e.thread = sim.threads[thread].id;
  e.op = call_id;
  e.value = refused ? 1 : 0;
  e.arg0 = static_cast<int64_t>(step.background_mode);
  e.arg1 = static_cast<int64_t>(step.action);
  e.arg2 = commit_id;
  e.flags = further ? 1 : 0;
  sim.Emit(e);
}

bool Refuse(Sim& sim, uint32_t thread, int64_t call_id, const Step& step, uint32_t error) {
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::ApiError;
  e.thread = sim.threads[thread].id;
  e.op = call_id;
  e.arg0 = static_cast<int64_t>(step.background_mode);
  e.arg1 = static_cast<int64_t>(step.action);
  e.flags = error;
  sim.Emit(e);
  // Nothing changes: mode, histograms and the pass stay as they were.
  EmitModeChanged(sim, thread, call_id, step, true, 0, true);
  return true;
}

}  // namespace

bool SetBackgroundProcessingMode(Sim& sim, uint32_t thread, const Step& step) {
  BackgroundState& bg = sim.bg;
  const BackgroundSpec& spec = sim.scenario->background;
  const int64_t call_id = bg.next_call_id++;
  // seed 000: DISABLE_BACKGROUND_WORK, DISABLE_PROFILING_BY_SYSTEM and
  // COMMIT_RESULTS_HIGH_PRIORITY are only valid with developer mode.
  const bool needs_developer_mode = step.background_mode == BackgroundMode::kDisableBackgroundWork ||
                                    step.background_mode == BackgroundMode::kDisableProfilingBySystem ||
                                    step.action == MeasurementsAction::kCommitResultsHighPriority;
  if (needs_developer_mode && !spec.developer_mode) {
    return Refuse(sim, thread, call_id, step, kErrorNeedsDeveloperMode);
  }
  // seed 000: if the action is not a commit, hEventToSignalOnCompletion must be null.
  if (step.with_event && !IsCommit(step.action)) {
    return Refuse(sim, thread, call_id, step, kErrorEventWithoutCommit);
  }
  if (step.action == MeasurementsAction::kDiscardPrevious) {
    for (PsoState& pso : bg.psos) {
      for (auto& entry : pso.constants) entry.second.samples = 0;
    }
  }
  // The commit's new tasks are generated before a disable in the same call takes effect.
  std::vector<std::pair<uint32_t, int64_t>> candidates;
  if (IsCommit(step.action)) candidates = CommitCandidates(sim);
  // seed 000 FurtherMeasurementsDesired: false once a pass measured the workload without
  // identifying anything further: nothing new queued, nothing compiling (its variant may reveal
  // more), no histogram still short of its threshold.
  const bool pending = !bg.queue.empty() || bg.running > 0;
  const bool further =
      spec.supported && (bg.pass_found_new || !candidates.empty() || pending ||
                         !bg.pass_instrumented || MeasurementsIncomplete(sim));
  int64_t commit_id = 0;
  if (IsCommit(step.action)) {
    CommitState commit;
    commit.id = static_cast<int64_t>(bg.commits.size()) + 1;
    commit.call_id = call_id;
    commit.high_priority = step.action == MeasurementsAction::kCommitResultsHighPriority;
    commit.waiting_thread = -1;
    bg.commits.push_back(commit);
    commit_id = commit.id;
  }
  EmitModeChanged(sim, thread, call_id, step, false, commit_id, further);
  if (commit_id != 0) {
    bg.hold_starts = true;
    for (const auto& [pso, constants] : candidates) {
      if (QueueBackgroundTask(sim, thread, pso, constants, commit_id, true)) {
        bg.psos[pso].Stats(constants).task_pending = true;
      }
    }
    // seed 000: every task queued when the call returns belongs to the commit.
    CommitState& commit = bg.commits.back();
    for (BackgroundTask& task : bg.tasks) {
      if (task.ended) continue;
      if (task.commit == 0) task.commit = commit_id;
      if (task.commit == commit_id) ++commit.tasks;
    }
    commit.outstanding = commit.tasks;
    if (commit.high_priority && commit.tasks > 0) ++bg.high_priority_open;
    bg.hold_starts = false;
    CompleteCommitIfEmpty(sim, commit);
  }
  bg.mode = step.background_mode;
  bg.pass_found_new = false;
  bg.pass_instrumented = false;
  TryStartTasks(sim);
  CpuThread& t = sim.threads[thread];
  if (step.stop_when_converged && !further) t.stop_loop = true;
  if (step.wait_event && commit_id != 0 && !bg.commits.back().done) {
    bg.commits.back().waiting_thread = static_cast<int32_t>(thread);
    return false;
  }
  return true;
}

void DestroyPso(Sim& sim, uint32_t thread, uint32_t pso) {
  PsoState& state = sim.bg.psos[pso];
  if (state.destroyed) return;
  state.destroyed = true;
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::PsoDestroyed;
  e.thread = sim.threads[thread].id;
  e.arg0 = state.id;
  sim.Emit(e);
}

bool DestroyDevice(Sim& sim, uint32_t thread) {
  BackgroundState& bg = sim.bg;
  CpuThread& t = sim.threads[thread];
  if (!t.destroying) {
    t.destroying = true;
    bg.device_destroyed = true;
    // seed 000: queued work that will not run gets its cancel callback instead.
    while (!bg.queue.empty()) {
      BackgroundTask& task = bg.tasks[bg.queue.front()];
      bg.queue.pop_front();
      task.ended = true;
      EventRecord e;
      e.ts = sim.now;
      e.kind = EventKind::TaskCancelled;
      e.thread = t.id;
      e.op = task.id;
      e.flags = 1;  // device destroyed
      sim.Emit(e);
      TaskEnded(sim, task);
    }
  }
  // In-flight tasks complete; destruction waits for them.
  if (bg.running > 0) return false;
  t.destroying = false;
  EventRecord e;
  e.ts = sim.now;
  e.kind = EventKind::Marker;
  e.thread = t.id;
  e.arg0 = sim.writer->Intern("Device destroyed");
  sim.Emit(e);
  return true;
}

}  // namespace core::sim
