// Statistics of a time range (the selected range, else the whole trace): per queue the time
// busy, waiting on a fence and idle, the packets submitted / started / completed / running at
// the end, signals executed and waits unblocked; interrupts and CPU waits in the range; and the
// wait latency (signal executed -> unblocked, split where the waiter reached the wait). Every
// figure comes from core::analysis::ComputeRangeStats, the functions `stats` and `report` call
// over the whole trace; this view only draws them. Computed once per range, not per frame.
#pragma once

#include <utility>

#include "app/gui/state/background_result.h"
#include "app/gui/state/document.h"
#include "core/analysis/range_stats.h"

namespace app::gui::views {

class RangeStatsView {
 public:
  void Draw(state::Document& doc);
  // The range the panel shows: the selected range, else the whole trace (the trace span
  // `stats` and `report` use).
  static core::analysis::TimeRange RangeShown(const state::Document& doc);
  // What the panel shows for `range` (cached until the document or the range changes).
  const core::analysis::RangeStats& StatsFor(const state::Document& doc,
                                             core::analysis::TimeRange range);
  // Waits for a range being computed, its figures shown from the next frame on.
  void Wait() { m_background.Wait(); }
  // Waits for a range being computed and forgets it (before the document it reads goes away).
  void Reset() { m_background.Reset(); }

 private:
  // Draw's figures: the whole trace's from the document, a selected range's computed off the
  // UI thread (nullptr while computing).
  const core::analysis::RangeStats* StatsShown(const state::Document& doc,
                                               core::analysis::TimeRange range);
  state::BackgroundResult<std::pair<core::model::TimeNs, core::model::TimeNs>,
                          core::analysis::RangeStats>
      m_background;
  const state::Document* m_background_doc = nullptr;
  const state::Document* m_doc = nullptr;
  core::analysis::RangeStats m_stats;
  bool m_valid = false;
};

}  // namespace app::gui::views
