// Shared by the simulator tests: run a scenario into a scratch trace and load it back.
#pragma once

#include <gtest/gtest.h>

#include <string>

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

// Every column of every event, in record order: two runs that must be identical compare equal.
inline std::vector<std::vector<std::string>> EventTable(const core::store::TraceStore& store) {
  return core::store::RunQuery(store.path, "SELECT * FROM events ORDER BY rowid").rows;
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

inline core::model::QueueId QueueNamed(const core::store::TraceStore& store,
                                       const std::string& name) {
  for (const auto& q : store.queues) {
    if (q.name == name) return q.id;
  }
  ADD_FAILURE() << "no queue " << name;
  return 0;
}

inline core::model::FenceId FenceNamed(const core::store::TraceStore& store,
                                       const std::string& name) {
  for (const auto& f : store.fences) {
    if (f.name == name) return f.id;
  }
  ADD_FAILURE() << "no fence " << name;
  return 0;
}

}  // namespace sim_test
