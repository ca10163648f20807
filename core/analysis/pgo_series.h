// PGO convergence series: one point per pass, a pass being the time from one
// SetBackgroundProcessingMode call (mode_changed) to the next (the last runs to the trace end).
// A trace with background work but no mode_changed records (the application left the mode at its
// default) is split at each variant_applied instead: pass 0 runs until the first specialised
// variant is applied, pass k from the k-th to the next; FurtherMeasurementsDesired is then unknown
// (further_measurements_known false; further_measurements_desired stays false for the JSON key).
// A refused call (mode_changed.result != 0, e.g. a developer-mode-only mode on a retail system)
// changes nothing: the mode in force during its pass is the one before it (the default,
// allowed, before any accepted call); the mode it asked for is `requested_mode`.
// Seed 000: the application keeps measuring while FurtherMeasurementsDesired is returned true;
// the series shows the background tasks of each pass, that flag, and the GPU packet time, which
// falls as specialised variants are applied.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct PgoPass {
  TimeNs start = 0;
  TimeNs end = 0;
  int64_t call_id = 0;
  BackgroundMode mode = BackgroundMode::kAllowed;            // in force during the pass
  BackgroundMode requested_mode = BackgroundMode::kAllowed;  // what the call asked for
  MeasurementsAction action = MeasurementsAction::kKeepAll;
  bool further_measurements_desired = false;
  bool further_measurements_known = false;  // false when no call returned it (variant_applied)
  bool refused = false;            // mode_changed.result != 0
  uint64_t tasks_queued = 0;       // task_queued in the pass
  uint64_t tasks_finished = 0;     // tasks that finished in the pass
  uint64_t tasks_cancelled = 0;    // cancelled or abandoned in the pass
  uint64_t packets = 0;            // packets completed in the pass
  uint64_t instrumented_packets = 0;  // of those, flagged instrumented
  uint64_t variant_packets = 0;       // of those, running a specialised variant
  double mean_packet_ns = 0;          // mean start -> end of those packets
  uint64_t pgo_packets = 0;           // packets instrumented or running a variant
  double mean_pgo_packet_ns = 0;      // mean start -> end of those (the PSOs PGO works on)
  uint64_t variants_applied = 0;      // variant_applied records in the pass
};

enum class PgoBoundary : uint8_t { kNone = 0, kModeChanged = 1, kVariantApplied = 2 };

struct PgoSeries {
  PgoBoundary boundary = PgoBoundary::kNone;  // what separates the passes
  std::vector<PgoPass> passes;  // in time order; empty without mode_changed or background work
};

PgoSeries ComputePgoSeries(const core::store::TraceStore& store, const Reconstruction& r);

// FurtherMeasurementsDesired of a pass as every report and the window show it: "yes", "no", or
// "unknown" when no SetBackgroundProcessingMode call returned it.
std::string_view FurtherMeasurementsDesiredName(const PgoPass& pass);
// The mode in force during a pass, with the refused request when the call was refused:
// "allowed", or "allowed (refused disable_background_work)".
std::string ModeInForceText(const PgoPass& pass);

}  // namespace core::analysis
