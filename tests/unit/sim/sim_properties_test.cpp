// Property tests: random scenarios and seeds, checked against the seeds' rules by replaying the
// recorded events (independently of the simulator's own state).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/sim/sim_random.h"
#include "tests/unit/sim/sim_test_helpers.h"

using core::model::EventKind;
using core::model::FenceKind;
using core::model::events::CpuWaitReleased;
using core::model::events::FenceWaitUnblocked;
namespace events = core::model::events;
using namespace core::sim;  // NOLINT
using test_support::ScratchDir;

namespace {

// Entries in a log of `bytes`: a 64-byte header, then 64-byte entries (schemas/scenario_format.md).
uint32_t LogEntries(uint32_t bytes) { return (bytes - 64) / 64; }

core::sim::FrameExpr Expr(int64_t per_frame, int64_t constant) {
  return core::sim::FrameExpr{per_frame, constant, 0};
}

// A random but well-formed scenario: queues only use fences opened on their adapter.
Scenario RandomScenario(uint64_t seed) {
  SimRandom r(seed * 7919 + 17);
  Scenario s = sim_test::SeededScenario("random-", seed, 8'000'000);
  s.fence_mode = r.Chance(0.5) ? FenceMode::kNative : FenceMode::kMonitored;
  const int adapters = r.Chance(0.35) ? 2 : 1;
  for (int a = 0; a < adapters; ++a) {
    core::sim::AdapterSpec spec;
    spec.name = "GPU" + std::to_string(a);
    spec.native_fences = r.Chance(0.8);
    spec.optimized_interrupts = r.Chance(0.6);
    spec.interrupt_latency_ns = r.Between(1'000, 20'000);
    spec.held_wait_release_ns = r.Between(5'000, 30'000);
    spec.propagation_ns = r.Between(2'000, 20'000);
    spec.log_bytes = r.Chance(0.5) ? 256 + 64 * static_cast<uint32_t>(r.Between(0, 8)) : 4096;
    spec.grow_logs_when_tracing = r.Chance(0.3);
    spec.log_max_bytes = spec.log_bytes * 4;
    spec.os_log_read_ns = r.Chance(0.4) ? r.Between(200'000, 2'000'000) : 0;
    spec.null_hwqueue_chance = r.Chance(0.5) ? r.Unit() * 0.5 : 0;
    spec.zero_timestamp_chance = r.Chance(0.2) ? 0.1 : 0;
    s.adapters.push_back(spec);
    const int engines = static_cast<int>(r.Between(1, 3));
    for (int e = 0; e < engines; ++e) {
      core::sim::EngineSpec engine;
      engine.name = spec.name + "/E" + std::to_string(e);
      engine.adapter = static_cast<uint32_t>(a);
      engine.type = static_cast<core::model::EngineType>(e);
      s.engines.push_back(engine);
      const int queues = static_cast<int>(r.Between(1, 2));
      for (int q = 0; q < queues; ++q) {
        core::sim::QueueSpec queue;
        queue.name = engine.name + "/Q" + std::to_string(q);
        queue.engine = static_cast<uint32_t>(s.engines.size() - 1);
        queue.type = static_cast<core::model::QueueType>(e);
        queue.priority = static_cast<int32_t>(r.Between(0, 2));
        s.queues.push_back(queue);
      }
    }
  }
  const int fences = static_cast<int>(r.Between(1, 4));
  for (int f = 0; f < fences; ++f) {
    core::sim::FenceSpec fence;
    fence.name = "F" + std::to_string(f);
    fence.adapter = static_cast<uint32_t>(r.Between(0, adapters - 1));
    const double kind = r.Unit();
    fence.kind = kind < 0.6 ? FenceKind::kNative : FenceKind::kMonitored;
    if (adapters == 2 && kind > 0.75) {
      fence.kind = FenceKind::kCrossAdapter;
      fence.opened_on.push_back(1 - fence.adapter);
    }
    s.fences.push_back(fence);
  }
  core::sim::ResourceSpec buffer;
  buffer.name = "buffer";
  buffer.size_bytes = 3 * 4096;
  buffer.slots = 3;
  s.resources.push_back(buffer);
  auto queue_for_fence = [&](uint32_t fence) {
    const auto& spec = s.fences[fence];
    std::vector<uint32_t> ok;
    for (uint32_t q = 0; q < s.queues.size(); ++q) {
      const uint32_t adapter = s.engines[s.queues[q].engine].adapter;
      if (adapter == spec.adapter ||
          std::find(spec.opened_on.begin(), spec.opened_on.end(), adapter) !=
              spec.opened_on.end()) {
        ok.push_back(q);
      }
    }
    return ok[static_cast<size_t>(r.Between(0, static_cast<int64_t>(ok.size()) - 1))];
  };
  const int threads = static_cast<int>(r.Between(1, 3));
  for (int t = 0; t < threads; ++t) {
    core::sim::ThreadSpec thread;
    thread.name = "T" + std::to_string(t);
    thread.frames = r.Between(3, 25);
    thread.start_ns = r.Between(0, 200'000);
    thread.frame_period_ns = r.Chance(0.5) ? r.Between(50'000, 400'000) : 0;
    thread.api_call_ns = r.Between(0, 5'000);
    const int steps = static_cast<int>(r.Between(2, 8));
    for (int k = 0; k < steps; ++k) {
      Step step;
      const double pick = r.Unit();
      const uint32_t fence = static_cast<uint32_t>(r.Between(0, fences - 1));
      // Values mostly follow the frame number, sometimes offset: racing signallers rewind.
      const int64_t per_frame = r.Between(1, 2);
      const int64_t offset = r.Between(-3, 2);
      if (pick < 0.35) {
        step.op = StepOp::kExecute;
        step.queue = static_cast<uint32_t>(r.Between(0, static_cast<int64_t>(s.queues.size()) - 1));
        step.duration_ns = r.Between(5'000, 300'000);
        step.detail.edit().jitter = r.Chance(0.5) ? 0.3 : 0;
        step.name = core::sim::NameStep(s, "P" + std::to_string(k));
        if (r.Chance(0.5)) {
          step.detail.edit().resources.push_back({0, core::sim::FrameExpr{1, 0, 3}, r.Chance(0.5)});
        }
      } else if (pick < 0.6) {
        step.op = StepOp::kSignal;
        step.fence = fence;
        step.queue = queue_for_fence(fence);
        step.value = Expr(per_frame, offset);
      } else if (pick < 0.78) {
        step.op = StepOp::kWait;
        step.fence = fence;
        step.queue = queue_for_fence(fence);
        step.value = Expr(1, offset - 1);
      } else if (pick < 0.93) {
        step.op = StepOp::kCpuWait;
        step.detail.edit().fences.push_back(fence);
        step.detail.edit().values.push_back(Expr(1, offset - 1));
        step.mode = core::sim::WaitMode::kSingle;
        if (fences > 1 && r.Chance(0.5)) {
          step.detail.edit().fences.push_back(static_cast<uint32_t>((fence + 1) % fences));
          step.detail.edit().values.push_back(Expr(1, offset - 2));
          step.mode = r.Chance(0.5) ? core::sim::WaitMode::kAny : core::sim::WaitMode::kAll;
        }
      } else {
        step.op = StepOp::kCpuSignal;
        step.fence = fence;
        step.value = Expr(per_frame, offset);
      }
      step.detail.edit().from_frame = r.Chance(0.2) ? r.Between(1, 4) : 1;
      thread.steps.push_back(step);
    }
    s.threads.push_back(thread);
  }
  return s;
}

// Checks the seeds' rules on one trace; `adapter_log_bytes` gives each queue's initial log size.
// seed 002: each queue's wait and signal log buffers replayed record by record: entries written
// since the last read, what a read must find lost, and the capacity after a resize.
class LogReplay {
 public:
  LogReplay(const core::store::TraceStore& s, const Scenario& scenario) {
    for (const auto& q : s.queues) {
      const uint32_t bytes = scenario.adapters[q.adapter - 1].log_bytes;
      for (uint32_t type = 0; type < 2; ++type) {
        m_logs[{q.id, type}].capacity = LogEntries(bytes);
      }
    }
  }

  // A log_write, log_flush, log_overrun or log_resized record.
  void OnRecord(const core::store::EventColumns& ev, size_t i) {
    switch (ev.kind[i]) {
      case EventKind::LogWrite: {
        Log& log = LogOf(ev, i);
        ++log.since_read;
        const bool zero = (ev.flags[i] & core::model::kLogEntryZeroTimestamp) != 0;
        if (!zero) {
          EXPECT_GE(ev.ts[i], log.last_ts) << "log timestamp went backwards";
          log.last_ts = ev.ts[i];
        }
        EXPECT_LT(events::LogWrite::At(ev, i).entry_index, log.capacity);
        break;
      }
      case EventKind::LogFlush: {
        Log& log = LogOf(ev, i);
        log.expected_lost = std::max<int64_t>(0, log.since_read - log.capacity);
        EXPECT_EQ(events::LogFlush::At(ev, i).entries_read,
                  log.since_read - log.expected_lost);
        log.since_read = 0;
        // The overrun record, when expected, must come right after.
        const bool overrun_next = i + 1 < ev.size() && ev.kind[i + 1] == EventKind::LogOverrun;
        EXPECT_EQ(overrun_next, log.expected_lost > 0) << "overrun not detected, event " << i;
        break;
      }
      case EventKind::LogOverrun: {
        Log& log = LogOf(ev, i);
        EXPECT_EQ(events::LogOverrun::At(ev, i).entries_lost, log.expected_lost);
        break;
      }
      case EventKind::LogResized: {
        Log& log = LogOf(ev, i);
        log.capacity =
            LogEntries(static_cast<uint32_t>(events::LogResized::At(ev, i).size_bytes));
        log.since_read = 0;
        break;
      }
      default:
        break;
    }
  }

  // Every log entry written was read or reported lost by the final read.
  void CheckAllRead() const {
    for (const auto& [key, log] : m_logs) EXPECT_EQ(log.since_read, 0);
  }

 private:
  struct Log {
    uint32_t capacity = 0;
    int64_t since_read = 0;
    int64_t expected_lost = 0;
    int64_t last_ts = 0;
  };
  // The log record i is about: its queue's wait (flags bit 0 clear) or signal log.
  Log& LogOf(const core::store::EventColumns& ev, size_t i) {
    return m_logs[{ev.queue[i], ev.flags[i] & 1}];
  }
  std::map<std::pair<uint32_t, uint32_t>, Log> m_logs;  // (queue, log type)
};

void CheckRules(const core::store::TraceStore& s, const Scenario& scenario) {
  const auto& ev = s.events;
  struct Signal {
    uint32_t fence;
    uint64_t value;
    int64_t ts;
  };
  std::map<int64_t, Signal> signals;  // signal_id -> signal
  std::map<uint32_t, uint64_t> highest_seen;  // fence -> highest value ever written so far
  for (const auto& f : s.fences) highest_seen[f.id] = f.initial_value;
  std::map<uint32_t, std::multiset<uint64_t>> cpu_pending;  // fence -> waited values
  std::map<int64_t, std::pair<uint32_t, uint64_t>> cpu_waiters;  // waiter -> fence, value
  std::map<int64_t, int> cpu_waiter_ends;
  std::map<uint32_t, uint64_t> monitored;  // fence -> MonitoredValue as recorded
  std::set<int64_t> interrupt_rows;
  std::map<int64_t, uint32_t> interrupt_of_signal;  // signal_id -> interrupt flags
  std::set<int64_t> signals_that_must_interrupt;
  std::map<int64_t, int> gpu_wait_ends;
  std::set<int64_t> gpu_waits_queued;
  LogReplay logs(s, scenario);
  auto expected_mv = [&](uint32_t fence) {
    const auto& set = cpu_pending[fence];
    return set.empty() ? UINT64_MAX : *set.begin() - 1;
  };

  for (size_t i = 0; i < ev.size(); ++i) {
    const uint32_t fence = ev.fence[i];
    const core::store::Fence* f = fence ? s.FindFence(fence) : nullptr;
    switch (ev.kind[i]) {
      case EventKind::FenceSignalExecuted:
      case EventKind::FenceCpuSignal: {
        signals[ev.op[i]] = {fence, ev.value[i], ev.ts[i]};
        highest_seen[fence] = std::max(highest_seen[fence], ev.value[i]);
        if (ev.kind[i] == EventKind::FenceCpuSignal) break;
        // seed 003: native fences interrupt exactly when the new value > MonitoredValue; legacy
        // monitored fences on every signal; cross-adapter on every non-zero signal (MV 0).
        const auto& q = *s.FindQueue(ev.queue[i]);
        const bool adapter_native = s.FindAdapter(q.adapter)->native_fences;
        if (f->kind == FenceKind::kNative) {
          EXPECT_EQ(monitored.count(fence) ? monitored[fence] : UINT64_MAX, expected_mv(fence))
              << "MonitoredValue != least waited value - 1 at event " << i;
          if (ev.value[i] > expected_mv(fence)) signals_that_must_interrupt.insert(ev.op[i]);
        } else if (f->kind == FenceKind::kMonitored || !adapter_native || ev.value[i] > 0) {
          signals_that_must_interrupt.insert(ev.op[i]);
        }
        break;
      }
      case EventKind::Interrupt:
        interrupt_rows.insert(ev.RowIdOf(i));
        EXPECT_FALSE(interrupt_of_signal.count(ev.op[i])) << "two interrupts for one signal";
        interrupt_of_signal[ev.op[i]] = ev.flags[i];
        EXPECT_TRUE(signals.count(ev.op[i]));
        EXPECT_GE(ev.ts[i], signals[ev.op[i]].ts);
        break;
      case EventKind::MonitoredValueUpdated:
        monitored[fence] = ev.value[i];
        if (f->kind == FenceKind::kNative) {
          EXPECT_EQ(ev.value[i], expected_mv(fence)) << "MonitoredValue at event " << i;
        } else {
          EXPECT_EQ(ev.value[i], 0u);  // cross-adapter: pinned to 0
        }
        break;
      case EventKind::CpuWaitBegin:
        cpu_waiters[ev.op[i]] = {fence, ev.value[i]};
        cpu_pending[fence].insert(ev.value[i]);
        cpu_waiter_ends[ev.op[i]] = 0;
        break;
      case EventKind::CpuWaitReleased:
      case EventKind::CpuWaitWithdrawn:
      case EventKind::WaitPendingAtEnd: {
        const bool cpu = ev.kind[i] != EventKind::WaitPendingAtEnd || ev.thread[i] != 0;
        if (!cpu) {
          ++gpu_wait_ends[ev.op[i]];
          break;
        }
        ASSERT_TRUE(cpu_waiters.count(ev.op[i])) << "end of an unknown CPU waiter";
        ++cpu_waiter_ends[ev.op[i]];
        auto& set = cpu_pending[fence];
        auto it = set.find(ev.value[i]);
        ASSERT_NE(it, set.end());
        set.erase(it);
        if (ev.kind[i] == EventKind::CpuWaitReleased) {
          // No wait released before its value was reached (seed 001 races included).
          EXPECT_GE(highest_seen[fence], ev.value[i]) << "CPU waiter released early, event " << i;
          const auto released = CpuWaitReleased::At(ev, i);
          EXPECT_GE(released.observed_value, released.fence_value);
          if (released.interrupt_event != 0) {
            EXPECT_TRUE(interrupt_rows.count(released.interrupt_event))
                << "released by a non-interrupt";
          }
        }
        break;
      }
      case EventKind::FenceWaitQueued:
        gpu_waits_queued.insert(ev.op[i]);
        break;
      case EventKind::FenceWaitUnblocked: {
        ++gpu_wait_ends[ev.op[i]];
        EXPECT_GE(highest_seen[fence], ev.value[i]) << "GPU wait released early, event " << i;
        const auto unblocked = FenceWaitUnblocked::At(ev, i);
        if (unblocked.released_by_signal_id != 0) {
          ASSERT_TRUE(signals.count(unblocked.released_by_signal_id));
          const Signal& by = signals[unblocked.released_by_signal_id];
          EXPECT_EQ(by.fence, fence);
          EXPECT_GE(by.value, ev.value[i]) << "released by a signal too low, event " << i;
          EXPECT_LE(by.ts, ev.ts[i]);
        } else {
          EXPECT_GE(f->initial_value, ev.value[i]);
        }
        EXPECT_LE(unblocked.observed_ns, ev.ts[i]);  // observed before unblocked
        break;
      }
      case EventKind::LogWrite:
      case EventKind::LogFlush:
      case EventKind::LogOverrun:
      case EventKind::LogResized:
        logs.OnRecord(ev, i);
        break;
      default:
        break;
    }
  }
  // Every CPU waiter released, withdrawn or pending at the end, exactly once.
  for (const auto& [waiter, ends] : cpu_waiter_ends) EXPECT_EQ(ends, 1) << "waiter " << waiter;
  // Every GPU wait unblocked or pending at the end, exactly once.
  for (int64_t wait : gpu_waits_queued) EXPECT_EQ(gpu_wait_ends[wait], 1) << "wait " << wait;
  // Interrupts happen for exactly the signals that must raise one (those whose interrupt time
  // fell inside the run).
  const int64_t end = s.end_ns();
  for (int64_t signal : signals_that_must_interrupt) {
    const auto& q = signals[signal];
    if (q.ts + 20'000 <= end) {
      EXPECT_TRUE(interrupt_of_signal.count(signal)) << signal;
    }
  }
  for (const auto& [signal, flags] : interrupt_of_signal) {
    EXPECT_TRUE(signals_that_must_interrupt.count(signal)) << "interrupt without cause " << signal;
  }
  logs.CheckAllRead();
}

}  // namespace

TEST(SimProperties, RandomScenariosKeepTheSeedsRules) {
  // The random mix must actually exercise the rules' interesting cases: each of these kinds
  // occurs, and some interrupt releases nobody.
  sim_test::KindTally tally(
      {EventKind::FenceRewind, EventKind::LogOverrun, EventKind::CpuWaitWithdrawn});
  size_t total_events = 0, spurious = 0;
  sim_test::ForRandomScenarios(220, RandomScenario, [&](const Scenario& scenario,
                                                        const core::store::TraceStore& store) {
    CheckRules(store, scenario);
    total_events += store.events.size();
    tally.Add(store);
    for (size_t i : sim_test::EventsOf(store, EventKind::Interrupt)) {
      spurious += events::Interrupt::At(store.events, i).waiters_released == 0;
    }
  });
  EXPECT_GT(total_events, 50'000u);
  tally.ExpectEachSeen();
  EXPECT_GT(spurious, 0u);
}

TEST(SimProperties, RandomScenariosAreDeterministic) {
  ScratchDir dir;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Scenario scenario = RandomScenario(seed * 13);
    auto a = sim_test::Simulate(scenario, dir, "a.db");
    auto b = sim_test::Simulate(scenario, dir, "b.db");
    EXPECT_EQ(sim_test::EventTable(a), sim_test::EventTable(b)) << seed;
  }
}
