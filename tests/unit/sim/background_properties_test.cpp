// Property tests for seed 000 over random PGO scenarios and seeds, replaying the records.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/sim/sim_random.h"
#include "tests/unit/sim/sim_test_helpers.h"

using core::model::BackgroundMode;
using core::model::EventKind;
using core::model::MeasurementsAction;
namespace events = core::model::events;
using namespace core::sim;  // NOLINT
using test_support::ScratchDir;

namespace {

Scenario RandomPgoScenario(uint64_t seed) {
  SimRandom r(seed * 104729 + 3);
  Scenario s = sim_test::SeededScenario("pgo-random-", seed, 60'000'000);
  s.background.developer_mode = r.Chance(0.6);
  s.background.max_tasks = static_cast<int32_t>(r.Between(1, 2));
  s.background.high_priority_tasks = s.background.max_tasks + static_cast<int32_t>(r.Between(0, 2));
  s.background.threads = s.background.high_priority_tasks + static_cast<int32_t>(r.Between(0, 1));
  s.background.threshold = r.Between(1, 6);
  s.background.intrusive_threshold = r.Between(1, 3);
  s.background.compile_ns = r.Between(200'000, 4'000'000);
  s.background.interference = r.Chance(0.5) ? 1.3 : 1.0;
  s.adapters.push_back({});
  s.adapters[0].name = "GPU";
  s.engines.push_back({"3D", 0, core::model::EngineType::k3D});
  s.queues.push_back({"Graphics", 0, core::model::QueueType::k3D, 0});
  s.fences.push_back({});
  s.fences[0].name = "frame";
  const int psos = static_cast<int>(r.Between(1, 4));
  for (int p = 0; p < psos; ++p) {
    s.psos.push_back({"PSO" + std::to_string(p), 1, static_cast<int32_t>(r.Between(0, 3)),
                      0.5 + 0.4 * r.Unit()});
  }
  const int threads = static_cast<int>(r.Between(1, 2));
  for (int t = 0; t < threads; ++t) {
    core::sim::ThreadSpec thread;
    thread.name = "T" + std::to_string(t);
    thread.frames = r.Between(5, 40);
    thread.frame_period_ns = r.Between(200'000, 1'500'000);
    if (t == 1 && r.Chance(0.5)) thread.start_after = 0;
    const int steps = static_cast<int>(r.Between(2, 7));
    for (int k = 0; k < steps; ++k) {
      Step step;
      const double pick = r.Unit();
      if (pick < 0.55) {
        step.op = StepOp::kExecute;
        step.queue = 0;
        step.duration_ns = r.Between(20'000, 400'000);
        step.name = core::sim::NameStep(s, "draw");
        step.detail.edit().pso = static_cast<int32_t>(r.Between(-1, psos - 1));
        step.detail.edit().constants = core::sim::FrameExpr{1, 0, r.Between(1, 3)};
      } else if (pick < 0.85) {
        step.op = StepOp::kSetBackgroundMode;
        step.detail.edit().background_mode = static_cast<BackgroundMode>(r.Between(0, 3));
        step.detail.edit().action = static_cast<MeasurementsAction>(r.Between(0, 3));
        const bool commit =
            step.detail.edit().action == MeasurementsAction::kCommitResults ||
            step.detail.edit().action == MeasurementsAction::kCommitResultsHighPriority;
        step.with_event = r.Chance(commit ? 0.7 : 0.1);
        step.wait_event = step.with_event && commit && r.Chance(0.5);
        step.detail.edit().stop_when_converged = r.Chance(0.2);
        step.detail.edit().from_frame = r.Between(1, 10);
        step.detail.edit().every = r.Between(1, 6);
      } else if (pick < 0.93) {
        step.op = StepOp::kDestroyPso;
        step.detail.edit().pso = static_cast<int32_t>(r.Between(0, psos - 1));
        step.detail.edit().from_frame = r.Between(3, 30);
        step.detail.edit().every = 1000;
      } else {
        step.op = StepOp::kCpuWork;
        step.duration_ns = r.Between(10'000, 300'000);
      }
      thread.steps.push_back(step);
    }
    if (r.Chance(0.2)) {
      Step destroy;
      destroy.op = StepOp::kDestroyDevice;
      destroy.detail.edit().from_frame = thread.frames;
      thread.steps.push_back(destroy);
    }
    s.threads.push_back(thread);
  }
  return s;
}

bool IsDisabled(int64_t mode) {
  return mode == static_cast<int64_t>(BackgroundMode::kDisableBackgroundWork) ||
         mode == static_cast<int64_t>(BackgroundMode::kDisableProfilingBySystem);
}

void CheckBackgroundRules(const core::store::TraceStore& s, const Scenario& scenario) {
  const auto& ev = s.events;
  int64_t mode = 0;
  std::set<int64_t> disabling_commits;  // commits made by calls that also disabled
  std::map<int64_t, int> ends;    // task -> finished + cancelled
  std::map<int64_t, int64_t> task_commit;
  std::map<int64_t, int64_t> task_pso;
  std::map<int64_t, bool> queued_while_disabled;
  std::set<int64_t> started, ended_tasks;
  std::set<int64_t> destroyed_psos;
  std::map<int64_t, bool> commit_high_priority;
  std::set<int64_t> open_hp_commits;
  int running = 0;
  size_t refused = 0;
  for (size_t i = 0; i < ev.size(); ++i) {
    const int64_t task = ev.op[i];
    switch (ev.kind[i]) {
      case EventKind::ModeChanged: {
        const auto call = events::ModeChanged::At(ev, i);
        if (call.result != 0) {
          ++refused;  // refused: nothing changes
          EXPECT_EQ(call.commit_id, 0);
          break;
        }
        const bool high_priority = call.action == MeasurementsAction::kCommitResultsHighPriority;
        const bool needs_dev = IsDisabled(static_cast<int64_t>(call.mode)) || high_priority;
        EXPECT_TRUE(!needs_dev || scenario.background.developer_mode);
        mode = static_cast<int64_t>(call.mode);
        if (IsDisabled(mode) && call.commit_id != 0) disabling_commits.insert(call.commit_id);
        if (call.commit_id != 0) commit_high_priority[call.commit_id] = high_priority;
        // A high-priority commit boosts from its call until its commit_completed (tasks already
        // queued when the call returns belong to it too).
        if (call.commit_id != 0 && high_priority) open_hp_commits.insert(call.commit_id);
        break;
      }
      case EventKind::TaskQueued: {
        const auto queued = events::TaskQueued::At(ev, i);
        task_commit[task] = queued.commit_id;
        task_pso[task] = queued.pso_id;
        queued_while_disabled[task] = IsDisabled(mode);
        break;
      }
      case EventKind::TaskStarted: {
        EXPECT_TRUE(started.insert(task).second);
        // No task queued while disabled starts, unless it belongs to the commit made with the
        // disable.
        if (queued_while_disabled[task]) {
          EXPECT_NE(task_commit[task], 0) << "task " << task << " started while disabled";
          EXPECT_TRUE(disabling_commits.count(task_commit[task]));
        }
        ++running;
        const int limit = open_hp_commits.empty() ? scenario.background.max_tasks
                                                  : scenario.background.high_priority_tasks;
        EXPECT_LE(running, limit) << "too many tasks at once, event " << i;
        if (ev.flags[i] == 1) {
          EXPECT_FALSE(open_hp_commits.empty());
        }
        break;
      }
      case EventKind::TaskFinished:
        ++ends[task];
        --running;
        ended_tasks.insert(task);
        EXPECT_TRUE(started.count(task));
        break;
      case EventKind::TaskCancelled:
        ++ends[task];
        ended_tasks.insert(task);
        EXPECT_FALSE(started.count(task)) << "cancelled after starting";
        break;
      case EventKind::CommitCompleted: {
        const int64_t commit = ev.op[i];
        for (const auto& [t, c] : task_commit) {
          if (c == commit) {
            EXPECT_TRUE(ended_tasks.count(t)) << "commit before its task " << t;
          }
        }
        open_hp_commits.erase(commit);
        break;
      }
      case EventKind::PsoDestroyed:
        destroyed_psos.insert(events::PsoDestroyed::At(ev, i).pso_id);
        break;
      case EventKind::VariantApplied:
        EXPECT_FALSE(destroyed_psos.count(events::VariantApplied::At(ev, i).pso_id))
            << "variant for a destroyed PSO";
        break;
      case EventKind::TaskAbandoned: {
        const int64_t pso = events::TaskAbandoned::At(ev, i).pso_id;
        EXPECT_TRUE(destroyed_psos.count(pso));
        EXPECT_EQ(task_pso[task], pso);
        break;
      }
      default:
        break;
    }
  }
  EXPECT_EQ(refused, sim_test::EventsOf(s, EventKind::ApiError).size());
  // Exactly one callback or cancel per queued task (those still running at the time limit
  // excepted).
  for (const auto& [task, commit] : task_commit) {
    EXPECT_LE(ends[task], 1) << "task " << task;
    if (!started.count(task) || ends[task] == 0) {
      // Queued but never run: only allowed when the run hit its time limit with work pending.
      if (ends[task] == 0) {
        EXPECT_EQ(s.end_ns(), scenario.duration_ns) << "task " << task;
      }
    }
  }
}

}  // namespace

TEST(BackgroundProperties, RandomPgoScenariosKeepSeed000Rules) {
  // The random mix must actually exercise the rules' interesting cases: each of these kinds
  // occurs, and some task runs at high priority.
  sim_test::KindTally tally({EventKind::TaskCancelled, EventKind::TaskAbandoned,
                             EventKind::ApiError, EventKind::CommitCompleted});
  size_t high = 0;
  sim_test::ForRandomScenarios(200, RandomPgoScenario, [&](const Scenario& scenario,
                                                           const core::store::TraceStore& store) {
    CheckBackgroundRules(store, scenario);
    tally.Add(store);
    for (size_t i : sim_test::EventsOf(store, EventKind::TaskStarted)) high += store.events.flags[i];
  });
  tally.ExpectEachSeen();
  EXPECT_GT(high, 0u);
}
