// seed 000 scenarios against expectations worked out from their TOML and the seed's rules.
#include <gtest/gtest.h>

#include <map>

#include "tests/unit/sim/sim_test_helpers.h"

using core::model::EventKind;
namespace events = core::model::events;
using core::sim::LoadScenario;
using sim_test::EventsOf;
using sim_test::Simulate;
using test_support::ScratchDir;

namespace {

// Sum of planned packet time per pass: packets submitted between consecutive mode_changed
// calls of `thread`.
std::vector<int64_t> PacketTimePerPass(const core::store::TraceStore& s, uint32_t thread) {
  std::vector<int64_t> passes;
  bool open = false;
  for (size_t i = 0; i < s.events.size(); ++i) {
    if (s.events.kind[i] == EventKind::ModeChanged && s.events.thread[i] == thread) {
      passes.push_back(0);
      open = true;
    } else if (open && s.events.kind[i] == EventKind::PacketSubmitted &&
               s.events.thread[i] == thread) {
      passes.back() += static_cast<int64_t>(s.events.value[i]);
    }
  }
  if (!passes.empty() && passes.back() == 0) passes.pop_back();  // after the last call
  return passes;
}

}  // namespace

// The priming loop: DISCARD_PREVIOUS, then passes until FurtherMeasurementsDesired is false.
TEST(PgoBenchmarkPriming, ConvergesAndTheLastPassIsFasterThanTheFirst) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("pgo_benchmark_priming"), dir, "t.db");
  auto calls = EventsOf(s, EventKind::ModeChanged);
  ASSERT_GE(calls.size(), 3u);
  // The first call discards (action 3) in intrusive mode (1); then KEEP_ALL (0) each pass.
  const auto first = events::ModeChanged::At(s.events, calls[0]);
  EXPECT_EQ(first.mode, core::model::BackgroundMode::kAllowIntrusiveMeasurements);
  EXPECT_EQ(first.action, core::model::MeasurementsAction::kDiscardPrevious);
  for (size_t k = 0; k + 1 < calls.size(); ++k) EXPECT_EQ(s.events.flags[calls[k]], 1u) << k;
  EXPECT_EQ(s.events.flags[calls.back()], 0u);  // converged: the loop ended
  EXPECT_LT(calls.size(), 31u);                 // before the 30-pass bound
  // Three PSOs: GBuffer (2 constant sets x 2 levels), Lighting (1 x 2), Post (3 x 1) = 9
  // variants, all applied, none left queued.
  EXPECT_EQ(EventsOf(s, EventKind::VariantApplied).size(), 9u);
  EXPECT_EQ(EventsOf(s, EventKind::TaskFinished).size(), 9u);
  auto passes = PacketTimePerPass(s, 1);
  ASSERT_GE(passes.size(), 2u);
  // First pass: (900 + 700 + 400) us x 1.3 intrusive overhead = 2600 us; fully specialised:
  // (900 x 0.64 + 700 x 0.5625 + 400 x 0.85) x 1.3 = 1309.75 x 1.3 = 1702.675 us.
  EXPECT_EQ(passes.front(), 2'600'000);
  EXPECT_LT(passes.back(), passes.front());
  // The real benchmark starts after the loop and runs every packet with its variants.
  auto submitted = EventsOf(s, EventKind::PacketSubmitted);
  int64_t benchmark_frame = 0;
  int benchmark_packets = 0;
  for (size_t i : submitted) {
    if (s.events.thread[i] != 2) continue;
    EXPECT_GT(s.events.ts[i], s.events.ts[calls.back()]);
    if (benchmark_packets++ < 3) benchmark_frame += static_cast<int64_t>(s.events.value[i]);
  }
  EXPECT_EQ(benchmark_packets, 30);
  EXPECT_EQ(benchmark_frame, 1'702'675);
}

TEST(PgoPixSingleFrame, HighPriorityCommitsRunThreeTasksAboveIdleAndSignalTheirEvent) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("pgo_pix_single_frame"), dir, "t.db");
  int running = 0, max_running = 0;
  for (size_t i = 0; i < s.events.size(); ++i) {
    if (s.events.kind[i] == EventKind::TaskStarted) {
      EXPECT_EQ(s.events.flags[i], 1u);  // above idle: every task belongs to a HP commit
      max_running = std::max(max_running, ++running);
    }
    if (s.events.kind[i] == EventKind::TaskFinished) --running;
  }
  EXPECT_EQ(max_running, 3);  // high_priority_tasks
  // Commits complete only after their tasks; the replay thread waits for each.
  std::map<int64_t, int64_t> last_task_end;  // commit -> time its last task finished
  std::map<int64_t, int64_t> commit_of_task;
  for (size_t i : EventsOf(s, EventKind::TaskQueued)) {
    const auto queued = events::TaskQueued::At(s.events, i);
    commit_of_task[queued.task_id] = queued.commit_id;
  }
  for (size_t i : EventsOf(s, EventKind::TaskFinished)) {
    last_task_end[commit_of_task[s.events.op[i]]] = s.events.ts[i];
  }
  for (size_t i : EventsOf(s, EventKind::CommitCompleted)) {
    EXPECT_GE(s.events.ts[i], last_task_end[s.events.op[i]]);
  }
  auto calls = EventsOf(s, EventKind::ModeChanged);
  EXPECT_EQ(s.events.flags[calls.back()], 0u);  // converged before MaxPasses (8)
  EXPECT_LT(calls.size(), 16u);
}

TEST(PgoDisabled, SubmittedTasksFinishLaterOnesAreCancelledAtOnce) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("pgo_disabled"), dir, "t.db");
  auto calls = EventsOf(s, EventKind::ModeChanged);
  ASSERT_EQ(calls.size(), 1u);
  const int64_t disabled_at = s.events.ts[calls[0]];
  EXPECT_EQ(s.events.value[calls[0]], 0u);  // developer mode: accepted
  std::map<int64_t, int64_t> queued_at;
  for (size_t i : EventsOf(s, EventKind::TaskQueued)) queued_at[s.events.op[i]] = s.events.ts[i];
  size_t before = 0, after = 0;
  for (const auto& [task, ts] : queued_at) (ts < disabled_at ? before : after) += 1;
  EXPECT_GT(before, 0u);
  EXPECT_GT(after, 0u);
  for (size_t i : EventsOf(s, EventKind::TaskStarted)) {
    EXPECT_LT(queued_at[s.events.op[i]], disabled_at);  // only tasks submitted before
  }
  for (size_t i : EventsOf(s, EventKind::TaskCancelled)) {
    const int64_t task = s.events.op[i];
    EXPECT_GE(queued_at[task], disabled_at);
    EXPECT_EQ(s.events.ts[i], queued_at[task]);  // at once, on the calling thread
    EXPECT_EQ(s.events.flags[i], 0u);            // reason: background work disabled
  }
  EXPECT_EQ(EventsOf(s, EventKind::TaskFinished).size(), before);
  EXPECT_EQ(EventsOf(s, EventKind::TaskCancelled).size(), after);
}

TEST(PgoPsoDestroyed, TheCompilingVariantIsAbandonedAndQueuedWorkIsCancelledOnDestroy) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("pgo_pso_destroyed"), dir, "t.db");
  auto destroyed = EventsOf(s, EventKind::PsoDestroyed);
  ASSERT_EQ(destroyed.size(), 1u);
  const core::model::PsoId pso = events::PsoDestroyed::At(s.events, destroyed[0]).pso_id;
  EXPECT_EQ(s.FindPso(pso)->name, "ParticlesPSO");
  auto abandoned = EventsOf(s, EventKind::TaskAbandoned);
  ASSERT_EQ(abandoned.size(), 1u);
  EXPECT_EQ(events::TaskAbandoned::At(s.events, abandoned[0]).pso_id, pso);
  EXPECT_GT(s.events.ts[abandoned[0]], s.events.ts[destroyed[0]]);
  // Its task was queued (after 4 frames) before the PSO went away, and still got its callback.
  int64_t task = s.events.op[abandoned[0]];
  bool finished = false;
  for (size_t i : EventsOf(s, EventKind::TaskFinished)) finished |= s.events.op[i] == task;
  EXPECT_TRUE(finished);
  for (size_t i : EventsOf(s, EventKind::VariantApplied)) {
    EXPECT_NE(events::VariantApplied::At(s.events, i).pso_id, pso);
  }
  // Device destruction waits for in-flight tasks: the marker comes after every task_finished.
  auto marker = EventsOf(s, EventKind::Marker);
  ASSERT_EQ(marker.size(), 1u);
  for (size_t i : EventsOf(s, EventKind::TaskFinished)) EXPECT_LE(s.events.ts[i], s.events.ts[marker[0]]);
}

TEST(PgoNoDeveloperMode, RefusedCallsAreRecordedAndChangeNothing) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("pgo_no_developer_mode"), dir, "t.db");
  std::vector<uint32_t> errors;
  for (size_t i : EventsOf(s, EventKind::ApiError)) errors.push_back(s.events.flags[i]);
  // disable (needs developer mode), HP commit (needs it), event with KEEP_ALL (non-commit),
  // DISABLE_PROFILING_BY_SYSTEM (needs it).
  EXPECT_EQ(errors, (std::vector<uint32_t>{1, 1, 2, 1}));
  std::vector<uint64_t> results;
  for (size_t i : EventsOf(s, EventKind::ModeChanged)) results.push_back(s.events.value[i]);
  EXPECT_EQ(results, (std::vector<uint64_t>{1, 1, 1, 1, 0}));
  EXPECT_TRUE(EventsOf(s, EventKind::TaskCancelled).empty());  // never disabled
  EXPECT_EQ(EventsOf(s, EventKind::CommitCompleted).size(), 1u);  // the allowed COMMIT_RESULTS
  // Packets stayed instrumented (flag 2) throughout: profiling was never disabled.
  for (size_t i : EventsOf(s, EventKind::PacketSubmitted)) {
    EXPECT_TRUE(s.events.flags[i] & core::model::kPacketInstrumented);
  }
}

// A running task slows the application thread sharing its core by `interference`: one thread
// doing 1000 us of CPU work and a 100 us packet per frame (API calls free). The first packet's
// completion (at 1100 us) queues a 10 ms recompile (threshold 1) on runtime thread 0, which
// shares the core of application thread 0: CPU work then takes 2000 us until 11100 us.
TEST(PgoInterference, ARunningTaskSlowsTheThreadSharingItsCore) {
  core::sim::Scenario s;
  s.name = "interference";
  s.duration_ns = 30'000'000;
  s.background.threshold = 1;
  s.background.compile_ns = 10'000'000;
  s.background.compile_jitter = 0;
  s.background.interference = 2.0;
  s.adapters.push_back({});
  s.adapters[0].name = "GPU";
  s.engines.push_back({"3D", 0, core::model::EngineType::k3D});
  s.queues.push_back({"Graphics", 0, core::model::QueueType::k3D, 0});
  s.psos.push_back({"PSO", 1, 1, 0.5});
  core::sim::ThreadSpec t;
  t.name = "Game";
  t.frames = 12;
  t.api_call_ns = 0;
  core::sim::Step work;
  work.op = core::sim::StepOp::kCpuWork;
  work.duration_ns = 1'000'000;
  core::sim::Step draw;
  draw.op = core::sim::StepOp::kExecute;
  draw.duration_ns = 100'000;
  draw.name = core::sim::NameStep(s, "Draw");
  draw.detail.edit().pso = 0;
  t.steps = {work, draw};
  s.threads.push_back(t);
  ScratchDir dir;
  auto store = Simulate(s, dir, "t.db");
  std::vector<int64_t> submits;
  for (size_t i : EventsOf(store, EventKind::PacketSubmitted)) submits.push_back(store.events.ts[i]);
  // Frame 1 draws at 1000 us, done at 1100 us: the task starts at 1100 us and runs to 11100 us.
  // Frame 2's CPU work started at 1000 us with no task running (1000 us): draw at 2000 us.
  // Frames 3..: work starts while the task runs and takes 2000 us: 4000, 6000, 8000, 10000,
  // 12000 (started at 10000, still slowed); then 13000, 14000, ...
  ASSERT_EQ(submits.size(), 12u);
  EXPECT_EQ(submits, (std::vector<int64_t>{1'000'000, 2'000'000, 4'000'000, 6'000'000, 8'000'000,
                                           10'000'000, 12'000'000, 13'000'000, 14'000'000,
                                           15'000'000, 16'000'000, 17'000'000}));
  // The variant (level 1, speedup 0.5) halves the draws submitted after 11100 us.
  auto submitted = EventsOf(store, EventKind::PacketSubmitted);
  EXPECT_EQ(store.events.value[submitted[5]], 100'000u);
  EXPECT_EQ(store.events.value[submitted[6]], 50'000u);
}

// A game at default settings: ALLOWED, tasks at most two at once at idle priority, variants
// landing over time and the matching packets getting faster.
TEST(PgoGameDefault, VariantsLandInTheBackgroundAndPacketsGetFaster) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("pgo_game_default"), dir, "t.db");
  EXPECT_TRUE(EventsOf(s, EventKind::ModeChanged).empty());
  int running = 0;
  for (size_t i = 0; i < s.events.size(); ++i) {
    if (s.events.kind[i] == EventKind::TaskStarted) {
      EXPECT_EQ(s.events.flags[i], 0u);  // idle priority
      EXPECT_LE(++running, 2);
    }
    if (s.events.kind[i] == EventKind::TaskFinished) --running;
  }
  // GBufferPSO (2 constant sets x 2 levels) + LightingPSO (3 x 2) = 10 variants.
  EXPECT_EQ(EventsOf(s, EventKind::VariantApplied).size(), 10u);
  // GBuffer: 900 us at first (ALLOWED adds no GPU cost), then x0.8, then x0.64 (jitter 5%).
  std::vector<uint64_t> gbuffer;
  for (size_t i : EventsOf(s, EventKind::PacketSubmitted)) {
    if (s.String(events::PacketSubmitted::At(s.events, i).name_sid) == "GBuffer") {
      gbuffer.push_back(s.events.value[i]);
    }
  }
  ASSERT_GT(gbuffer.size(), 20u);
  EXPECT_GT(gbuffer.front(), 855'000u);
  EXPECT_LT(gbuffer.front(), 945'000u);
  EXPECT_GT(gbuffer.back(), 547'200u);  // 576 us +- 5%
  EXPECT_LT(gbuffer.back(), 604'800u);
}
