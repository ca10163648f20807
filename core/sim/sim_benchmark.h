// `fencescope bench simulate`: simulator + TraceWriter throughput against the raw SQLite insert
// ceiling (core/store/store_benchmark.h) measured in the same run. The simulator must cost less
// than the SQLite writes, so the target is simulate/raw >= 0.5.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace core::sim {

struct SimBenchmarkResult {
  std::string scenario;
  uint64_t events = 0;           // events the simulation wrote
  double simulated_ms = 0;       // simulated time it covered
  double simulate_seconds = 0;   // simulation + TraceWriter, including Commit
  double raw_insert_seconds = 0; // the same number of rows through a bare prepared INSERT
  double SimulateEventsPerSecond() const { return events / simulate_seconds; }
  double RawInsertRowsPerSecond() const { return events / raw_insert_seconds; }
  double Ratio() const { return raw_insert_seconds / simulate_seconds; }
};

// Simulates the scenario (a path or an embedded name) long enough to write at least
// `min_events` events. Scratch files go to `work_dir` and are removed.
SimBenchmarkResult RunSimBenchmark(const std::string& scenario, uint64_t min_events,
                                   const std::filesystem::path& work_dir);

}  // namespace core::sim
