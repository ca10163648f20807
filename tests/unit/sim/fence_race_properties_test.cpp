// Property test of seed 001's rewind race: "If a race does occur, between a value which will
// satisfy an outstanding wait, and a lower value which will not, the wait will be satisfied
// regardless of which value remains afterwards", while "any new waits ... will be compared against
// the new lower fence value". Random interleavings of a satisfying signal (GPU or CPU), a lower CPU
// signal and the moment the waiting queue reaches a wait queued before both, in every fence mode;
// checked by replaying the recorded events, independently of the simulator's state.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "core/sim/sim_random.h"
#include "tests/unit/sim/sim_test_helpers.h"

namespace sim = core::sim;
using core::model::EventKind;
namespace events = core::model::events;

namespace {

enum class RaceMode { kNative, kMonitored, kCrossAdapter };

constexpr core::model::TimeNs kLateWaitAt = 600'000;  // after every signal of the race landed

struct Race {
  RaceMode mode = RaceMode::kNative;
  bool gpu_signal = false;  // the satisfying value comes from a queue, else from the CPU
  uint64_t high = 0;        // satisfies the waits
  uint64_t low = 0;         // does not
};

// Every step is named "work", the first name RaceScenario gives its scenario.
constexpr sim::StepName kWork = 1;

sim::Step MakeStep(sim::StepOp op, uint32_t queue, uint64_t value,
                   core::model::DurationNs duration = 0) {
  sim::Step s;
  s.op = op;
  s.queue = queue;
  s.fence = 0;
  s.value = sim::FrameExpr{0, static_cast<int64_t>(value), 0};
  s.duration_ns = duration;
  s.name = kWork;
  return s;
}

sim::ThreadSpec MakeThread(const std::string& name, core::model::TimeNs start,
                           std::vector<sim::Step> steps) {
  sim::ThreadSpec t;
  t.name = name;
  t.start_ns = start;
  t.api_call_ns = 1'000;
  t.steps = std::move(steps);
  return t;
}

// Queues: 0 "Waiter" (blocked behind a packet of random length, then waits), 1 "Signaller",
// 2 "Late" (waits after the race). Cross-adapter: the signaller on the fence's owner, the waiting
// queues on the other adapter.
sim::Scenario RaceScenario(uint64_t seed, Race* race) {
  sim::SimRandom r(seed * 104729 + 7);
  race->mode = static_cast<RaceMode>(seed % 3);
  race->gpu_signal = r.Chance(0.5);
  race->high = static_cast<uint64_t>(r.Between(2, 9));
  race->low = static_cast<uint64_t>(r.Between(1, static_cast<int64_t>(race->high) - 1));
  sim::Scenario s;
  s.name = "race-" + std::to_string(seed);
  if (sim::NameStep(s, "work") != kWork) throw std::logic_error("step names");
  s.seed = seed;
  s.duration_ns = 3'000'000;
  s.fence_mode =
      race->mode == RaceMode::kMonitored ? sim::FenceMode::kMonitored : sim::FenceMode::kNative;
  const bool two = race->mode == RaceMode::kCrossAdapter;
  for (int a = 0; a < (two ? 2 : 1); ++a) {
    sim::AdapterSpec spec;
    spec.name = "GPU" + std::to_string(a);
    spec.interrupt_latency_ns = r.Between(1'000, 20'000);
    spec.held_wait_release_ns = r.Between(5'000, 30'000);
    spec.propagation_ns = r.Between(2'000, 20'000);
    s.adapters.push_back(spec);
  }
  const uint32_t wait_adapter = two ? 1 : 0;
  const std::pair<const char*, uint32_t> queues[] = {
      {"Waiter", wait_adapter}, {"Signaller", 0}, {"Late", wait_adapter}};
  for (const auto& [name, adapter] : queues) {
    sim::EngineSpec engine;
    engine.name = std::string(name) + " engine";
    engine.adapter = adapter;
    s.engines.push_back(engine);
    sim::QueueSpec queue;
    queue.name = name;
    queue.engine = static_cast<uint32_t>(s.engines.size() - 1);
    s.queues.push_back(queue);
  }
  sim::FenceSpec fence;
  fence.name = "F";
  fence.kind = two ? core::model::FenceKind::kCrossAdapter : core::model::FenceKind::kNative;
  if (two) fence.opened_on.push_back(1);
  s.fences.push_back(fence);

  // The GPU wait and the CPU wait are queued before either signal (both start at 0).
  std::vector<sim::Step> submit = {MakeStep(sim::StepOp::kExecute, 0, 0, r.Between(1'000, 500'000)),
                                   MakeStep(sim::StepOp::kWait, 0, race->high)};
  const core::model::DurationNs signaller_work = r.Between(1'000, 400'000);
  const core::model::TimeNs cpu_high_at = r.Between(5'000, 400'000);
  if (race->gpu_signal) {
    submit.push_back(MakeStep(sim::StepOp::kExecute, 1, 0, signaller_work));
    submit.push_back(MakeStep(sim::StepOp::kSignal, 1, race->high));
  }
  s.threads.push_back(MakeThread("Submit", 0, std::move(submit)));
  sim::Step cpu_wait;
  cpu_wait.op = sim::StepOp::kCpuWait;
  cpu_wait.detail.edit().fences = {0};
  cpu_wait.detail.edit().values = {sim::FrameExpr{0, static_cast<int64_t>(race->high), 0}};
  s.threads.push_back(MakeThread("CpuWaiter", 0, {cpu_wait}));
  if (!race->gpu_signal) {
    s.threads.push_back(
        MakeThread("High", cpu_high_at, {MakeStep(sim::StepOp::kCpuSignal, 0, race->high)}));
  }
  s.threads.push_back(MakeThread("Rewind", r.Between(5'000, 400'000),
                                 {MakeStep(sim::StepOp::kCpuSignal, 0, race->low)}));
  s.threads.push_back(
      MakeThread("LateSubmit", kLateWaitAt, {MakeStep(sim::StepOp::kWait, 2, race->high)}));
  return s;
}

}  // namespace

TEST(FenceRaceProperties, OutstandingWaitsSurviveARewindAndNewWaitsSeeTheLowerValue) {
  std::map<RaceMode, int> rewound_before_reached;  // the race the seed's sentence is about
  std::map<RaceMode, int> late_waits_held;
  Race race;
  sim_test::ForRandomScenarios(
      300, [&](uint64_t seed) { return RaceScenario(seed, &race); },
      [&](const sim::Scenario&, const core::store::TraceStore& s) {
        const auto& ev = s.events;
        const core::model::QueueId waiter = sim_test::QueueNamed(s, "Waiter");
        const core::model::QueueId late = sim_test::QueueNamed(s, "Late");
        std::map<int64_t, std::pair<uint64_t, int64_t>> signals;  // signal_id -> value, ts
        uint64_t value = 0;  // CurrentValue as the records tell it
        int64_t first_high_ts = -1, rewind_ts = -1;
        int64_t early_wait = 0, late_wait = 0;
        uint64_t value_when_late_queued = 0;
        int64_t early_unblocked = -1;
        bool late_unblocked = false, late_pending = false, cpu_released = false;
        for (size_t i = 0; i < ev.size(); ++i) {
          switch (ev.kind[i]) {
            case EventKind::FenceSignalExecuted:
            case EventKind::FenceCpuSignal:
              signals[ev.op[i]] = {ev.value[i], ev.ts[i]};
              value = ev.value[i];
              if (value >= race.high && first_high_ts < 0) first_high_ts = ev.ts[i];
              if (value < race.high && first_high_ts >= 0) rewind_ts = ev.ts[i];
              break;
            case EventKind::FenceWaitQueued:
              if (ev.queue[i] == waiter) early_wait = ev.op[i];
              if (ev.queue[i] == late) late_wait = ev.op[i], value_when_late_queued = value;
              break;
            case EventKind::FenceWaitUnblocked: {
              const int64_t by = events::FenceWaitUnblocked::At(ev, i).released_by_signal_id;
              ASSERT_TRUE(signals.count(by)) << "released by an unknown signal";
              const auto [by_value, by_ts] = signals[by];
              EXPECT_GE(by_value, ev.value[i]) << "released by a value too low";
              EXPECT_LE(by_ts, ev.ts[i]);
              if (ev.op[i] == early_wait) early_unblocked = ev.ts[i];
              if (ev.op[i] == late_wait) late_unblocked = true;
              break;
            }
            case EventKind::WaitPendingAtEnd:
              if (ev.queue[i] == late && ev.op[i] == late_wait) late_pending = true;
              break;
            case EventKind::CpuWaitReleased:
              EXPECT_GE(ev.ts[i], first_high_ts);
              cpu_released = true;
              break;
            default:
              break;
          }
        }
        ASSERT_NE(early_wait, 0);
        ASSERT_NE(late_wait, 0);
        // The outstanding waits are satisfied in every mode, whichever value remained, and not
        // before the satisfying value was written.
        EXPECT_GE(early_unblocked, 0) << "the GPU wait queued before the race was never unblocked";
        EXPECT_GE(early_unblocked, first_high_ts);
        EXPECT_TRUE(cpu_released) << "the CPU wait begun before the race was never released";
        if (rewind_ts >= 0 && early_unblocked > rewind_ts) ++rewound_before_reached[race.mode];
        // A wait queued after the race compares against the value that remained.
        const bool satisfiable = value_when_late_queued >= race.high;
        EXPECT_EQ(late_unblocked, satisfiable)
            << "late wait, fence value " << value_when_late_queued;
        EXPECT_EQ(late_pending, !satisfiable);
        if (!satisfiable) ++late_waits_held[race.mode];
      });
  // Every mode met both cases often enough for the property to mean something.
  for (RaceMode mode : {RaceMode::kNative, RaceMode::kMonitored, RaceMode::kCrossAdapter}) {
    SCOPED_TRACE(static_cast<int>(mode));
    EXPECT_GE(rewound_before_reached[mode], 10);
    EXPECT_GE(late_waits_held[mode], 10);
  }
}
