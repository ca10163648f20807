// PGO convergence panel (seed 000): each SetBackgroundProcessingMode call starts a pass. Per
// pass: mode, action, FurtherMeasurementsDesired, the commit and its tasks, background tasks
// started / finished / cancelled / abandoned in the pass, and packet time in the pass (all,
// instrumented, running a specialised variant) so convergence shows as the packet time falling
// while FurtherMeasurementsDesired turns FALSE.
#pragma once

#include <vector>

#include "app/gui/state/document.h"

namespace app::gui::views {

struct PgoPass {
  uint32_t mode_change = 0;  // index into Reconstruction::mode_changes
  state::TimeRange range;    // this call .. the next call (or the trace end)
  uint64_t tasks_started = 0;
  uint64_t tasks_finished = 0;
  uint64_t tasks_cancelled = 0;
  uint64_t tasks_abandoned = 0;
  uint64_t packets = 0;
  core::model::DurationNs packet_time = 0;
  core::model::DurationNs instrumented_time = 0;
  core::model::DurationNs variant_time = 0;
};

std::vector<PgoPass> ComputePgoPasses(const state::Document& doc);

class PgoView {
 public:
  void Draw(state::Document& doc);

 private:
  const state::Document* m_doc = nullptr;
  std::vector<PgoPass> m_passes;
};

}  // namespace app::gui::views
