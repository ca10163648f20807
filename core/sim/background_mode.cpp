// seed 000: SetBackgroundProcessingMode (modes, measurement actions, developer mode,
// FurtherMeasurementsDesired), PSO destruction and device destruction.
#include "core/sim/background_mode.h"

#include "core/sim/background_tasks.h"
#include "core/sim/shader_pgo.h"
#include "core/sim/thread_program.h"

namespace core::sim {

using core::model::BackgroundMode;
using core::model::MeasurementsAction;

namespace {

constexpr uint32_t kErrorNeedsDeveloperMode = 1;
constexpr uint32_t kErrorEventWithoutCommit = 2;

bool IsCommit(MeasurementsAction a) {
  return a == MeasurementsAction::kCommitResults ||
         a == MeasurementsAction::kCommitResultsHighPriority;
}

void EmitModeChanged(SimRun& run, core::model::ThreadId thread, int64_t call_id, const Step& step,
                     bool refused, int64_t commit_id, bool further) {
  run.Emit(events::ModeChanged{.ts_ns = run.now,
                               .thread_id = thread,
                               .call_id = call_id,
                               .result = refused ? 1u : 0u,
                               .mode = step.detail.get().background_mode,
                               .action = step.detail.get().action,
                               .commit_id = commit_id,
                               .further_measurements_desired = further ? 1u : 0u});
}

bool Refuse(SimRun& run, core::model::ThreadId thread, int64_t call_id, const Step& step,
            uint32_t error) {
  run.Emit(events::ApiError{.ts_ns = run.now,
                            .thread_id = thread,
                            .call_id = call_id,
                            .mode = step.detail.get().background_mode,
                            .action = step.detail.get().action,
                            .error = error});
  // Nothing changes: mode, histograms and the pass stay as they were.
  EmitModeChanged(run, thread, call_id, step, true, 0, true);
  return true;
}

}  // namespace

bool SetBackgroundProcessingMode(const BackgroundContext& ctx, uint32_t thread, const Step& step) {
  SimRun& run = ctx.run;
  BackgroundState& bg = ctx.bg;
  CpuThread& t = ctx.cpu.threads[thread];
  const Scenario& scenario = *run.scenario;
  const BackgroundSpec& spec = scenario.background;
  const int64_t call_id = bg.next_call_id++;
  const StepDetail& call = step.detail.get();  // the mode and action asked
  // seed 000: DISABLE_BACKGROUND_WORK, DISABLE_PROFILING_BY_SYSTEM and
  // COMMIT_RESULTS_HIGH_PRIORITY are only valid with developer mode.
  const bool needs_developer_mode =
      call.background_mode == BackgroundMode::kDisableBackgroundWork ||
      call.background_mode == BackgroundMode::kDisableProfilingBySystem ||
      call.action == MeasurementsAction::kCommitResultsHighPriority;
  if (needs_developer_mode && !spec.developer_mode) {
    return Refuse(run, t.id, call_id, step, kErrorNeedsDeveloperMode);
  }
  // seed 000: if the action is not a commit, hEventToSignalOnCompletion must be null.
  if (step.with_event && !IsCommit(call.action)) {
    return Refuse(run, t.id, call_id, step, kErrorEventWithoutCommit);
  }
  if (call.action == MeasurementsAction::kDiscardPrevious) {
    for (PsoState& pso : bg.psos) {
      for (auto& entry : pso.constants) entry.second.samples = 0;
    }
  }
  // The commit's new tasks are generated before a disable in the same call takes effect.
  std::vector<std::pair<uint32_t, int64_t>> candidates;
  if (IsCommit(call.action)) candidates = CommitCandidates(scenario, bg);
  // seed 000 FurtherMeasurementsDesired: false once a pass measured the workload without
  // identifying anything further: nothing new queued, nothing compiling (its variant may reveal
  // more), no histogram still short of its threshold.
  const bool pending = !bg.queue.empty() || bg.running > 0;
  const bool further =
      spec.supported && (bg.pass_found_new || !candidates.empty() || pending ||
                         !bg.pass_instrumented || MeasurementsIncomplete(scenario, bg));
  int64_t commit_id = 0;
  if (IsCommit(call.action)) {
    CommitState commit;
    commit.id = static_cast<int64_t>(bg.commits.size()) + 1;
    commit.call_id = call_id;
    commit.high_priority = call.action == MeasurementsAction::kCommitResultsHighPriority;
    commit.waiting_thread = -1;
    bg.commits.push_back(commit);
    commit_id = commit.id;
  }
  EmitModeChanged(run, t.id, call_id, step, false, commit_id, further);
  if (commit_id != 0) {
    bg.hold_starts = true;
    for (const auto& [pso, constants] : candidates) {
      if (QueueBackgroundTask(run, bg, t.id, pso, constants, commit_id, true)) {
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
    CompleteCommitIfEmpty(ctx, commit);
  }
  bg.mode = call.background_mode;
  bg.pass_found_new = false;
  bg.pass_instrumented = false;
  TryStartTasks(run, bg);
  if (call.stop_when_converged && !further) t.stop_loop = true;
  if (step.wait_event && commit_id != 0 && !bg.commits.back().done) {
    bg.commits.back().waiting_thread = static_cast<int32_t>(thread);
    return false;
  }
  return true;
}

void DestroyPso(SimRun& run, BackgroundState& bg, core::model::ThreadId thread, uint32_t pso) {
  PsoState& state = bg.psos[pso];
  if (state.destroyed) return;
  state.destroyed = true;
  run.Emit(events::PsoDestroyed{.ts_ns = run.now, .thread_id = thread, .pso_id = state.id});
}

bool DestroyDevice(const BackgroundContext& ctx, uint32_t thread) {
  SimRun& run = ctx.run;
  BackgroundState& bg = ctx.bg;
  CpuThread& t = ctx.cpu.threads[thread];
  if (!t.destroying) {
    t.destroying = true;
    bg.device_destroyed = true;
    // seed 000: queued work that will not run gets its cancel callback instead.
    while (!bg.queue.empty()) {
      BackgroundTask& task = bg.tasks[bg.queue.front()];
      bg.queue.pop_front();
      task.ended = true;
      run.Emit(events::TaskCancelled{
          .ts_ns = run.now, .thread_id = t.id, .task_id = task.id, .reason = 1});  // destroyed
      TaskEnded(ctx, task);
    }
  }
  // In-flight tasks complete; destruction waits for them.
  if (bg.running > 0) return false;
  t.destroying = false;
  run.Emit(events::Marker{.ts_ns = run.now,
                          .thread_id = t.id,
                          .name_sid = run.writer->Intern("Device destroyed")});
  return true;
}

}  // namespace core::sim
