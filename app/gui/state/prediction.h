// A prediction opened beside the trace it was asked of: what `fencescope whatif` printed for
// the question (core/replay/whatif.h), the per-queue busy / waiting / idle before and after
// (the figures `compare` gives: core/analysis/queue_time.h over each trace's span), and the
// original's run segments, drawn as faint outlines under the predicted packets. A Document whose
// `prediction` is set is a prediction tab.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/gui/timeline/timeline_model.h"
#include "core/analysis/queue_time.h"
#include "core/fleet/step_marks.h"
#include "core/replay/whatif.h"

namespace app::gui::state {

struct QueueBeforeAfter {
  uint32_t queue = 0;  // the replay keeps the trace's queue ids
  std::string name;
  core::analysis::QueueTime before;
  core::analysis::QueueTime after;
};

struct Prediction {
  std::filesystem::path original;  // the trace asked about
  core::replay::WhatIfResult result;
  std::string text;      // core::replay::WhatIfText, the command's printout
  std::string fidelity;  // core::replay::FidelitySentence, shown beside every result
  core::model::DurationNs span_before_ns = 0;  // the two spans the queue figures are over
  core::model::DurationNs span_after_ns = 0;
  std::vector<QueueBeforeAfter> queues;  // the original's queues, in id order
  // [queue id]: the original's run segments of that queue, one lane (they never overlap).
  std::vector<timeline::Lane> baseline;
  // Where each step (core::fleet::FindStepMarks, the steps the result compares) lies in the
  // original and in the prediction: a click on the step chart zooms both to it.
  std::vector<core::fleet::StepMark> steps_before;
  std::vector<core::fleet::StepMark> steps_after;
};

// The step with this id, nullptr when `steps` has none.
const core::fleet::StepMark* FindStep(const std::vector<core::fleet::StepMark>& steps, int64_t id);

// The original's run segments per queue, as the timeline lays them out.
std::vector<timeline::Lane> BaselineRuns(const core::analysis::Reconstruction& original);

// Queue by queue (matched by id): `before` over the original's span, `after` over the
// prediction's. Names from `names` (the original's store).
std::vector<QueueBeforeAfter> PairQueues(const core::store::TraceStore& names,
                                         const core::analysis::QueueTimeSplit& before,
                                         const core::analysis::QueueTimeSplit& after);

}  // namespace app::gui::state
