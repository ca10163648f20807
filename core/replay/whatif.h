// `fencescope whatif`: what a change would save. The trace's program is derived, replayed as it
// is (to measure how closely the replay reproduces the trace: replay_fidelity.h) and replayed
// with the edits (whatif_edits.h) into the predicted trace. The gain is the edited replay
// against the unedited one, so that what the replay gets wrong about the trace cancels out; the
// fidelity figures travel with every prediction.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/replay/opportunities.h"
#include "core/replay/replay_fidelity.h"
#include "core/replay/whatif_edits.h"
#include "core/report/json.h"
#include "core/store/trace_store.h"

namespace core::replay {

struct StepChange {
  int64_t id = 0;
  DurationNs before_ns = 0;   // in the trace
  DurationNs replay_ns = -1;  // in the unedited replay (-1: not there)
  DurationNs after_ns = -1;   // in the prediction (-1: not there)
};

// One track's time on a critical path (core/analysis/critical_path.h).
struct PathContributor {
  std::string track;  // queue or thread name
  DurationNs ns = 0;
  double share = 0;
  DurationNs running_ns = 0;  // of ns, running (analysis::PathShare::running_ns)
};
inline constexpr size_t kPathContributors = 3;

struct WhatIfResult {
  std::string edits;  // Edits::Describe()
  EditCounts counts;
  ReplayFidelity fidelity;  // the unedited replay against the trace
  // The span of the trace's completed work (replay_fidelity.h): in the trace, in the unedited
  // replay, in the prediction.
  DurationNs span_before_ns = 0;
  DurationNs span_replay_ns = 0;
  DurationNs span_after_ns = 0;
  double gain_pct = 0;       // (replay - prediction) / replay * 100: what the edit saves
  double step_gain_pct = 0;  // the same for the mean step length
  std::vector<StepChange> steps;  // by id
  // The critical path's largest contributors (kPathContributors), in the trace and predicted.
  std::vector<PathContributor> path_before;
  std::vector<PathContributor> path_after;
};

// Writes the prediction to `predicted` (committed; any file there is replaced). `progress`
// (may be empty) goes from 0 to 1, called often during each replay; it may throw to cancel
// (the exception leaves RunWhatIf; no prediction file is left). Throws core::Error for an edit
// the trace cannot take.
WhatIfResult RunWhatIf(const core::store::TraceStore& trace, const analysis::Reconstruction& recon,
                       const Edits& edits, const std::filesystem::path& predicted,
                       const std::function<void(double)>& progress = {});

// Stable keys: edits, edit_counts, span_ns {before, replay, after}, gain_pct, step_gain_pct,
// steps [{id, before_ns, replay_ns, after_ns}], critical_path {before, after: [{track, ns,
// share, running_ns}]}, replay {span_error_pct, step_error_pct_mean,
// step_error_pct_max, start_error_ns_p50, start_error_ns_p99, start_error_ns_max,
// packets_compared, packets_missing, fixed_delays {count, total_ns}, launches_not_in_trace,
// steps_compared}.
core::report::Json WhatIfJson(const WhatIfResult& result);
core::report::Json FidelityJson(const ReplayFidelity& fidelity);
// report's `opportunities` (opportunities.h): [{kind, name, edit, why_ns, busy_ns,
// predicted_span_ns, gain_pct, step_gain_pct}], largest gain first.
core::report::Json OpportunitiesJson(const Opportunities& opportunities);

// The printout: span and steps before -> after, and the replay's fidelity beside them.
std::string WhatIfText(const WhatIfResult& result);

// One sentence of how closely the unedited replay reproduces the trace, printed beside every
// prediction: "the unedited replay reproduces the trace's span to +0.03 %, its 6 steps to
// 0.00 % on average (0.00 % at most); packet starts within 126 us (median) ...".
std::string FidelitySentence(const ReplayFidelity& fidelity);

}  // namespace core::replay
