// PGO convergence panel (seed 000), drawn from core/analysis/pgo_series.h: each
// SetBackgroundProcessingMode call starts a pass; per pass mode, action,
// FurtherMeasurementsDesired, background tasks, packets (instrumented / running a variant) and
// the mean packet time, so convergence shows as the packet time falling while
// FurtherMeasurementsDesired turns FALSE.
#pragma once

#include <vector>

#include "app/gui/state/document.h"
#include "core/analysis/pgo_series.h"

namespace app::gui::views {

class PgoView {
 public:
  void Draw(state::Document& doc);

 private:
  const state::Document* m_doc = nullptr;
  core::analysis::PgoSeries m_series;
};

}  // namespace app::gui::views
