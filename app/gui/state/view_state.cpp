#include "app/gui/state/view_state.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace app::gui::state {
namespace {
constexpr TimeNs kMinVisibleNs = 100;

void Clamp(ViewState& view) {
  TimeNs trace_length = std::max<TimeNs>(view.trace.Length(), kMinVisibleNs);
  TimeNs length = std::clamp(view.visible.Length(), kMinVisibleNs, trace_length * 4);
  TimeNs margin = trace_length * 3 / 2;
  TimeNs start =
      std::clamp(view.visible.start, view.trace.start - margin, view.trace.end + margin - length);
  view.visible = {start, start + length};
}
}  // namespace

void ResetView(ViewState& view, TimeRange trace, size_t tracks, size_t groups) {
  view.trace = trace.Valid() ? trace : TimeRange{trace.start, trace.start + 1000};
  view.track_order.resize(tracks);
  std::iota(view.track_order.begin(), view.track_order.end(), 0);
  view.track_hidden.assign(tracks, 0);
  view.group_collapsed.assign(groups, 0);
  view.track_expanded.assign(tracks, 0);
  view.selection = {};
  view.selected_range = {};
  FitAll(view);
  ++view.layout_generation;
}

void ZoomAround(ViewState& view, TimeNs pivot, double factor) {
  double left = static_cast<double>(pivot - view.visible.start);
  double right = static_cast<double>(view.visible.end - pivot);
  double length = left + right;
  if (length * factor < kMinVisibleNs) factor = kMinVisibleNs / std::max(length, 1.0);
  view.visible.start = pivot - static_cast<TimeNs>(std::llround(left * factor));
  view.visible.end = pivot + static_cast<TimeNs>(std::llround(right * factor));
  Clamp(view);
}

void Pan(ViewState& view, TimeNs delta) {
  view.visible.start += delta;
  view.visible.end += delta;
  Clamp(view);
}

void ZoomTo(ViewState& view, TimeRange range) {
  if (range.end <= range.start) range.end = range.start + kMinVisibleNs;
  TimeNs margin = std::max<TimeNs>(range.Length() / 20, 10);
  view.visible = {range.start - margin, range.end + margin};
  Clamp(view);
}

void FitAll(ViewState& view) {
  ZoomTo(view, view.trace);
}

}  // namespace app::gui::state
