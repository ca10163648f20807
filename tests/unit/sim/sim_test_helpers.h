// Shared by the simulator tests: run a scenario into a scratch trace and load it back.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/sim/scenario_loader.h"
#include "core/model/event_types.h"
#include "core/sim/simulator.h"
#include "core/store/query.h"
#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

namespace sim_test {

inline core::store::TraceStore Simulate(const core::sim::Scenario& scenario,
                                        const test_support::ScratchDir& dir,
                                        const std::string& file,
                                        const core::sim::SimOptions& options = {}) {
  const auto path = dir / file;
  {
    core::store::TraceWriter writer(path, "simulator");
    core::sim::RunSimulation(scenario, writer, options);
    writer.Commit();
  }
  return core::store::LoadTrace(path);
}

// Indices of the events of one kind, in time (and write) order.
inline std::vector<size_t> EventsOf(const core::store::TraceStore& store,
                                    core::model::EventKind kind) {
  std::vector<size_t> out;
  for (size_t i = 0; i < store.events.size(); ++i) {
    if (store.events.kind[i] == kind) out.push_back(i);
  }
  return out;
}

// How many events of each of some kinds a run of traces held: for property tests whose random
// scenarios must produce every kind they are about.
class KindTally {
 public:
  explicit KindTally(std::vector<core::model::EventKind> kinds)
      : m_kinds(std::move(kinds)), m_counts(m_kinds.size(), 0) {}
  void Add(const core::store::TraceStore& store) {
    for (size_t k = 0; k < m_kinds.size(); ++k) m_counts[k] += EventsOf(store, m_kinds[k]).size();
  }
  void ExpectEachSeen() const {
    for (size_t k = 0; k < m_kinds.size(); ++k) {
      EXPECT_GT(m_counts[k], 0u) << core::model::EventKindName(m_kinds[k]);
    }
  }

 private:
  std::vector<core::model::EventKind> m_kinds;
  std::vector<size_t> m_counts;
};

// Every column of every event, in record order: two runs that must be identical compare equal.
inline std::vector<std::vector<std::string>> EventTable(const core::store::TraceStore& store) {
  return core::store::RunQuery(store.path, "SELECT * FROM events ORDER BY rowid").rows;
}

// An empty scenario for a property test: named `prefix` + seed, running `duration_ns` with the
// simulator's random numbers drawn from `seed`.
inline core::sim::Scenario SeededScenario(const std::string& prefix, uint64_t seed,
                                          core::model::DurationNs duration_ns) {
  core::sim::Scenario s;
  s.name = prefix + std::to_string(seed);
  s.duration_ns = duration_ns;
  s.seed = seed;
  return s;
}

// Simulates make(seed) for seeds 1..count and hands each scenario and its trace to `check`;
// stops at the first scenario that fails.
template <typename Make, typename Check>
void ForRandomScenarios(uint64_t count, Make make, Check check) {
  test_support::ScratchDir dir;
  for (uint64_t seed = 1; seed <= count; ++seed) {
    const core::sim::Scenario scenario = make(seed);
    SCOPED_TRACE(scenario.name);
    check(scenario, Simulate(scenario, dir, "random.db"));
    if (::testing::Test::HasFailure()) return;
  }
}

// The id of the topology row (store.queues, store.fences, ...) named `name`; a test failure
// naming `what` and 0 when there is none.
template <typename Rows>
auto IdNamed(const Rows& rows, const std::string& name, const char* what) {
  for (const auto& row : rows) {
    if (row.name == name) return row.id;
  }
  ADD_FAILURE() << "no " << what << " " << name;
  return decltype(rows[0].id){0};
}

inline core::model::QueueId QueueNamed(const core::store::TraceStore& store,
                                       const std::string& name) {
  return IdNamed(store.queues, name, "queue");
}

inline core::model::FenceId FenceNamed(const core::store::TraceStore& store,
                                       const std::string& name) {
  return IdNamed(store.fences, name, "fence");
}

}  // namespace sim_test
