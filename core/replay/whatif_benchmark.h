// `fencescope bench whatif TRACE`: how fast a trace is replayed, next to what it is measured
// against in the same run: the reconstruction of the same trace (the replay must not cost much
// more than reading the trace), its full report (the replay well under it) and the report's
// opportunities (within 2x the report).
#pragma once

#include <cstdint>
#include <filesystem>

namespace core::replay {

struct WhatIfBenchmarkResult {
  uint64_t packets = 0;          // packets of the trace
  double load_seconds = 0;       // LoadTrace
  double reconstruct_seconds = 0;
  double derive_seconds = 0;     // the program behind the trace
  double replay_seconds = 0;     // the unedited replay: simulate and write it
  double replay_in_memory_seconds = 0;  // the same built straight into a TraceStore (no SQLite)
  // The same measured as what-if's baseline and each opportunity are: the simulator into the
  // measuring sink (replay_outcome.h: packets' times, steps, fidelity figures; no trace built).
  double replay_measured_seconds = 0;
  double report_seconds = 0;     // the full analyses and the three renderings, no opportunities
  double opportunities_seconds = 0;
  double PacketsPerSecond() const {
    return (derive_seconds + replay_seconds) > 0 ? packets / (derive_seconds + replay_seconds) : 0;
  }
  double InMemoryPacketsPerSecond() const {
    const double s = derive_seconds + replay_in_memory_seconds;
    return s > 0 ? packets / s : 0;
  }
  // The replay as what-if's baseline and the opportunities run it, with the derivation.
  double MeasuredPacketsPerSecond() const {
    const double s = derive_seconds + replay_measured_seconds;
    return s > 0 ? packets / s : 0;
  }
  // The same once the program is derived: what each further replay of it costs (the
  // opportunities derive once and replay it for every candidate).
  double DerivedProgramPacketsPerSecond() const {
    return replay_measured_seconds > 0 ? packets / replay_measured_seconds : 0;
  }
  double ReplayToReconstruction() const {
    return reconstruct_seconds > 0 ? (derive_seconds + replay_seconds) / reconstruct_seconds : 0;
  }
  double ReplayToReport() const {
    return report_seconds > 0 ? (derive_seconds + replay_seconds) / report_seconds : 0;
  }
  double OpportunitiesToReport() const {
    return report_seconds > 0 ? opportunities_seconds / report_seconds : 0;
  }
};

// `scratch` is where the replay is written (removed after).
WhatIfBenchmarkResult RunWhatIfBenchmark(const std::filesystem::path& trace,
                                         const std::filesystem::path& scratch);

}  // namespace core::replay
