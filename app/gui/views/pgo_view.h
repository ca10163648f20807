// PGO convergence panel (seed 000), drawn from core/analysis/pgo_series.h: each
// SetBackgroundProcessingMode call starts a pass; per pass mode, action,
// FurtherMeasurementsDesired, background tasks, packets (instrumented / running a variant) and
// the mean packet time, so convergence shows as the packet time falling while
// FurtherMeasurementsDesired turns FALSE.
#pragma once

#include "app/gui/state/document.h"
#include "core/analysis/pgo_series.h"

namespace app::gui::views {

// Draws the series the Document computed at load (Document::analysis.pgo), with the mode in
// force and FurtherMeasurementsDesired worded as the reports word them.
class PgoView {
 public:
  void Draw(state::Document& doc);
};

}  // namespace app::gui::views
