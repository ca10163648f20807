// An unedited replay of a simulated trace reproduces it: the simulator wrote the trace, so the
// program derived from its records must be the whole program (every packet starts within 1 us
// of where it started in the trace, the span is the same, nothing is replayed as a fixed delay).
// The truth here is the trace itself, not the replay code.
#include <gtest/gtest.h>

#include <cmath>

#include "core/sim/scenario_loader.h"
#include "tests/replay/replay_support.h"
#include "tests/support/test_support.h"

namespace {

using replay_test::Loaded;

// Every packet of `a` that started, started in `b` within `tolerance_ns` (matched by id); the
// largest difference seen.
int64_t LargestStartDifference(const Loaded& a, const Loaded& b, uint64_t* matched) {
  std::unordered_map<int64_t, core::model::TimeNs> starts;
  for (const auto& p : b.recon.packets) {
    if (p.start != core::analysis::kUnknownTime) starts.emplace(p.packet_id, p.start);
  }
  int64_t largest = 0;
  *matched = 0;
  for (const auto& p : a.recon.packets) {
    if (p.start == core::analysis::kUnknownTime) continue;
    auto it = starts.find(p.packet_id);
    if (it == starts.end()) {
      largest = INT64_MAX;
      continue;
    }
    ++*matched;
    largest = std::max<int64_t>(largest, std::llabs(it->second - p.start));
  }
  return largest;
}

}  // namespace

TEST(ReplayOfSimulatedTraces, EveryEmbeddedScenarioReplaysExactly) {
  std::vector<std::string> names = core::sim::EmbeddedScenarioNames();
  // The tests' own scenarios too: a deadlock (its waits never unblocked, replayed as waits that
  // nothing releases) and a rewound fence.
  for (const char* file : {"deadlock_beside_late_queues.toml", "rewound_fence.toml"}) {
    names.push_back((test_support::SourceDir() / "tests/cli/scenarios" / file).string());
  }
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    test_support::ScratchDir dir;
    const Loaded trace = replay_test::Simulate(core::sim::LoadScenario(name), dir / "trace.db");
    const auto program = core::replay::DeriveProgram(trace.store, trace.recon);
    const Loaded replay = replay_test::Replay(trace, program, dir / "replay.db");
    uint64_t matched = 0;
    const int64_t largest = LargestStartDifference(trace, replay, &matched);
    const auto fidelity =
        core::replay::MeasureFidelity(trace.store, trace.recon, replay.store, replay.recon, program);
    if (name == "preemption") {
      // seed 004: where a packet can stop depends on its work's structure (primitives,
      // dispatches), which the trace does not record; the replay's packets are one DMA buffer
      // each, so a preemption lands elsewhere. Measured, not exact: see the README.
      EXPECT_GT(matched, 0u);
      EXPECT_LT(std::abs(fidelity.span_error_pct), 1.0);
      continue;
    }
    EXPECT_GT(matched, 0u);
    EXPECT_LE(largest, 1000) << "a packet starts more than 1 us from where it started";
    EXPECT_EQ(fidelity.packets_missing, 0u);
    EXPECT_LE(std::llabs(fidelity.replay_span_ns - fidelity.trace_span_ns), 1000);
    EXPECT_EQ(fidelity.fixed_delays.count, 0u);
    EXPECT_EQ(fidelity.launches_not_in_trace, 0u);
  }
}
