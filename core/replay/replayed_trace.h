// A replay written to a file and loaded back, for measuring it: its store and reconstruction,
// and the step lengths (core/fleet/step_marks.h) every comparison of a replay uses.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>

#include "core/analysis/reconstruction.h"
#include "core/fleet/step_marks.h"
#include "core/replay/derived_program.h"
#include "core/store/trace_store.h"

namespace core::replay {

struct ReplayedTrace {
  core::store::TraceStore store;
  analysis::Reconstruction recon;
};

// Writes the replay of `program` (derived from `trace`) to `path`, commits it and loads it back,
// its events taken from what the writer kept rather than read again.
// `progress` (may be empty) as ReplayRun::progress.
ReplayedTrace ReplayToFile(const core::store::TraceStore& trace, const DerivedProgram& program,
                           const std::filesystem::path& path, const std::string& edits,
                           const std::function<void(double)>& progress = {});

// The same without a file: the replay built in memory (MemoryTrace), to be measured.
ReplayedTrace ReplayInMemory(const core::store::TraceStore& trace, const DerivedProgram& program,
                             const std::string& edits,
                             const std::function<void(double)>& progress = {});

// Step id -> length (ProfilerStep#N, else frames).
std::map<int64_t, DurationNs> StepLengths(const core::store::TraceStore& store,
                                          const analysis::Reconstruction& recon);
// The same of marks found (core/fleet/step_marks.h); a step id seen twice keeps its first.
std::map<int64_t, DurationNs> StepLengths(const std::vector<core::fleet::StepMark>& marks);

// (before - after) / before * 100; 0 when before is 0.
double GainPct(double before, double after);

// The mean over the steps both have of `after` against `before`, as GainPct of their sums.
double StepGainPct(const std::map<int64_t, DurationNs>& before,
                   const std::map<int64_t, DurationNs>& after);

}  // namespace core::replay
