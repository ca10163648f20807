#include "core/sim/sim_benchmark.h"

#include <chrono>
#include <cmath>

#include "core/model/error.h"
#include "core/model/seconds_since.h"
#include "core/sim/scenario_loader.h"
#include "core/sim/simulator.h"
#include "core/store/store_benchmark.h"
#include "core/store/trace_writer.h"

namespace core::sim {
namespace {
using Clock = core::SteadyClock;
}  // namespace

SimBenchmarkResult RunSimBenchmark(const std::string& scenario_name, uint64_t min_events,
                                   const std::filesystem::path& work_dir) {
  std::filesystem::create_directories(work_dir);
  const auto trace_path = work_dir / "bench_simulate_trace.db";
  const auto raw_path = work_dir / "bench_simulate_raw.db";
  Scenario scenario = LoadScenario(scenario_name);
  // The bench needs a workload that runs until its time limit.
  for (ThreadSpec& t : scenario.threads) t.frames = 0;

  // Calibrate: events per simulated nanosecond on a short run (not timed).
  SimOptions options;
  DurationNs probe = 10'000'000;
  uint64_t probe_events = 0;
  for (int attempt = 0; attempt < 8; ++attempt) {
    options.duration_ns = probe;
    core::store::TraceWriter writer(trace_path, "simulator");
    probe_events = RunSimulation(scenario, writer, options).events;
    if (probe_events >= 20'000) break;  // not committed: the writer removes its temporary file
    probe *= 4;
  }
  if (probe_events == 0) throw core::Error(scenario_name + ": the scenario records no events");
  const double per_ns = static_cast<double>(probe_events) / static_cast<double>(probe);
  options.duration_ns =
      static_cast<DurationNs>(std::ceil(static_cast<double>(min_events) * 1.02 / per_ns));

  SimBenchmarkResult result;
  result.scenario = scenario.name;
  result.simulated_ms = static_cast<double>(*options.duration_ns) / 1e6;
  {
    const auto start = Clock::now();
    core::store::TraceWriter writer(trace_path, "simulator");
    result.events = RunSimulation(scenario, writer, options).events;
    writer.Commit();
    result.simulate_seconds = core::SecondsSince(start);
  }
  result.raw_insert_seconds = core::store::MeasureRawInsertSeconds(result.events, raw_path);
  std::error_code ignored;
  std::filesystem::remove(trace_path, ignored);
  return result;
}

}  // namespace core::sim
