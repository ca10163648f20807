// The `background` block of stats --json (seed 000) on a hand-made trace whose answers are
// worked out below by hand.
#include <gtest/gtest.h>

#include "core/report/report_data.h"
#include "core/report/report_json.h"
#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

namespace events = core::model::events;

using namespace core::store;

namespace {

// Timeline (ns):
//   0    mode_changed call 1: intrusive + discard_previous, ok, FurtherMeasurementsDesired = 1
//   10..13 task_queued 1, 2, 3, 4 (app thread); task 4 cancelled at 13 (background work disabled)
//   20   task 1 starts on rt A, task 2 on rt B            -> 2 running
//   30..50 packet P1 (instrumented), 20 ns
//   50   task 1 finishes, task 3 starts on rt A           -> still 2 running (end sorts first)
//   70   task 2 finishes; 80 task 3 abandoned (PSO destroyed)
//   100  mode_changed call 2: keep_all, ok, FMD = 1
//   110..126 packet P2 (instrumented), 16 ns
//   150  api_error + mode_changed call 3 refused (no developer mode)
//   200  mode_changed call 4: keep_all, ok, FMD = 0       -> converged
//   210..222 packet P3 (runs a variant), 12 ns
// Expected: queued 4, started 3, finished 2, cancelled 1, abandoned 1, max_concurrent 2,
// api_errors 1, passes 3 (calls 1, 2, 4; the refused call is not a pass), converged at the 3rd
// successful call, 200 ns after the first; packet time 20 ns in the first pass, 12 in the last.
void WriteBackgroundTrace(const std::filesystem::path& path) {
  TraceWriter w(path, "unit-test");
  ProcessId p = w.AddProcess({1, "game"});
  ThreadId app = w.AddThread({p, 10, ThreadKind::kApplication, "app", 0});
  ThreadId rt_a = w.AddThread({p, 11, ThreadKind::kRuntimeBackground, "rt A", 0});
  ThreadId rt_b = w.AddThread({p, 12, ThreadKind::kRuntimeBackground, "rt B", 0});
  QueueId q = w.AddQueue({0, 0, QueueType::k3D, 0, p, "3d", 0});
  PsoId pso = w.AddPso({"pso", 1});
  auto mode = [&](TimeNs ts, int64_t call, int result, BackgroundMode m, MeasurementsAction a,
                  bool further) {
    w.Append(events::ModeChanged{.ts_ns = ts,
                                 .thread_id = app,
                                 .call_id = call,
                                 .result = static_cast<uint64_t>(result),
                                 .mode = static_cast<BackgroundMode>(static_cast<int64_t>(m)),
                                 .action = static_cast<MeasurementsAction>(static_cast<int64_t>(a)),
                                 .further_measurements_desired = further ? 1u : 0u});
  };
  auto packet = [&](int64_t id, TimeNs start, TimeNs end, uint32_t flags) {
    w.Append(events::PacketSubmitted{.ts_ns = start - 5,
                                     .queue_id = q,
                                     .thread_id = app,
                                     .packet_id = id,
                                     .packet_flags = flags});
    w.Append(events::PacketStarted{.ts_ns = start, .queue_id = q, .packet_id = id});
    w.Append(events::PacketCompleted{.ts_ns = end, .queue_id = q, .packet_id = id});
  };
  mode(0, 1, 0, BackgroundMode::kAllowIntrusiveMeasurements, MeasurementsAction::kDiscardPrevious,
       true);
  for (int64_t task = 1; task <= 4; ++task) {
    w.Append(events::TaskQueued{
        .ts_ns = 9 + task, .thread_id = app, .task_id = task, .pso_id = pso, .variant = task});
  }
  w.Append(events::TaskCancelled{.ts_ns = 13, .thread_id = app, .task_id = 4});
  w.Append(events::TaskStarted{.ts_ns = 20, .thread_id = rt_a, .task_id = 1});
  w.Append(events::TaskStarted{.ts_ns = 20, .thread_id = rt_b, .task_id = 2});
  packet(1, 30, 50, kPacketInstrumented);
  w.Append(events::TaskFinished{.ts_ns = 50, .thread_id = rt_a, .task_id = 1});
  w.Append(events::TaskStarted{.ts_ns = 50, .thread_id = rt_a, .task_id = 3});
  w.Append(events::TaskFinished{.ts_ns = 70, .thread_id = rt_b, .task_id = 2});
  w.Append(events::TaskAbandoned{.ts_ns = 80, .thread_id = rt_a, .task_id = 3, .pso_id = pso});
  mode(100, 2, 0, BackgroundMode::kAllowIntrusiveMeasurements, MeasurementsAction::kKeepAll, true);
  packet(2, 110, 126, kPacketInstrumented);
  w.Append(events::ApiError{.ts_ns = 150,
                            .thread_id = app,
                            .call_id = 3,
                            .mode = static_cast<BackgroundMode>(
                                static_cast<int64_t>(BackgroundMode::kDisableBackgroundWork)),
                            .error = 1});
  mode(150, 3, 1, BackgroundMode::kDisableBackgroundWork, MeasurementsAction::kKeepAll, true);
  mode(200, 4, 0, BackgroundMode::kAllowIntrusiveMeasurements, MeasurementsAction::kKeepAll,
       false);
  packet(3, 210, 222, kPacketUsesVariant);
  w.Commit();
}

}  // namespace

TEST(BackgroundStats, HandWorkedTraceGivesEveryKey) {
  test_support::ScratchDir dir;
  auto path = dir / "bg.db";
  WriteBackgroundTrace(path);
  TraceStore store = LoadTrace(path);
  auto data = core::report::AnalyseTrace(store, false);
  const auto& b = data.background;
  EXPECT_EQ(b.tasks_queued, 4u);
  EXPECT_EQ(b.tasks_started, 3u);
  EXPECT_EQ(b.tasks_finished, 2u);
  EXPECT_EQ(b.tasks_cancelled, 1u);
  EXPECT_EQ(b.tasks_abandoned, 1u);
  EXPECT_EQ(b.max_concurrent, 2u);
  EXPECT_EQ(b.api_errors, 1u);
  EXPECT_EQ(b.passes, 3u);
  EXPECT_TRUE(b.converged);
  EXPECT_EQ(b.passes_to_converge, 3u);
  EXPECT_EQ(b.time_to_converge_ns, 200);
  EXPECT_EQ(b.packet_time_first_pass_ns, 20);
  EXPECT_EQ(b.packet_time_last_pass_ns, 12);
}

TEST(BackgroundStats, StatsJsonCarriesTheBackgroundKeys) {
  test_support::ScratchDir dir;
  auto path = dir / "bg.db";
  WriteBackgroundTrace(path);
  auto r = test_support::RunFencescope("stats --json '" + path.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key :
       {"\"background\"", "\"tasks_queued\": 4", "\"tasks_started\": 3", "\"tasks_finished\": 2",
        "\"tasks_cancelled\": 1", "\"tasks_abandoned\": 1", "\"max_concurrent\": 2",
        "\"api_errors\": 1", "\"passes\": 3", "\"converged\": true", "\"passes_to_converge\": 3",
        "\"time_to_converge_ns\": 200", "\"packet_time_first_pass_ns\": 20",
        "\"packet_time_last_pass_ns\": 12"}) {
    EXPECT_NE(r.out.find(key), std::string::npos) << key << "\n" << r.out;
  }
}

TEST(BackgroundStats, PgoScenarioPrimingLoopConvergesAndGetsFaster) {
  test_support::ScratchDir dir;
  TraceStore store =
      LoadTrace(test_support::SimulateTrace(dir / "prime.db", "pgo_benchmark_priming"));
  auto data = core::report::AnalyseTrace(store, false);
  const auto& b = data.background;
  EXPECT_TRUE(b.converged);
  EXPECT_GE(b.passes_to_converge, 2u);
  EXPECT_GT(b.tasks_finished, 0u);
  EXPECT_LE(b.max_concurrent, 2u);  // seed 000: at most two tasks at a time by default
  EXPECT_LT(b.packet_time_last_pass_ns, b.packet_time_first_pass_ns);
}
