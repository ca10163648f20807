// PGO convergence series: one point per pass, a pass being the time from one
// SetBackgroundProcessingMode call (mode_changed) to the next (the last runs to the trace end).
// Seed 000: the application keeps measuring while FurtherMeasurementsDesired is returned true;
// the series shows the background tasks of each pass, that flag, and the GPU packet time, which
// falls as specialised variants are applied.
#pragma once

#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct PgoPass {
  TimeNs start = 0;
  TimeNs end = 0;
  int64_t call_id = 0;
  BackgroundMode mode = BackgroundMode::kAllowed;
  MeasurementsAction action = MeasurementsAction::kKeepAll;
  bool further_measurements_desired = false;
  bool refused = false;            // mode_changed.result != 0
  uint64_t tasks_queued = 0;       // task_queued in the pass
  uint64_t tasks_finished = 0;     // tasks that finished in the pass
  uint64_t tasks_cancelled = 0;    // cancelled or abandoned in the pass
  uint64_t packets = 0;            // packets completed in the pass
  uint64_t instrumented_packets = 0;  // of those, flagged instrumented
  uint64_t variant_packets = 0;       // of those, running a specialised variant
  double mean_packet_ns = 0;          // mean start -> end of those packets
  uint64_t variants_applied = 0;      // variant_applied records in the pass
};

struct PgoSeries {
  std::vector<PgoPass> passes;  // in time order; empty when the trace has no mode_changed
};

PgoSeries ComputePgoSeries(const core::store::TraceStore& store, const Reconstruction& r);

}  // namespace core::analysis
