#include "app/gui/timeline/lod.h"

namespace app::gui::timeline {
namespace {
struct TimeVector {
  const std::vector<TimeNs>& ts;
  size_t size() const { return ts.size(); }
  TimeNs Time(size_t i) const { return ts[i]; }
};
}  // namespace

LodView MakeLodView(TimeNs start, TimeNs end, float width_px, float min_width_px) {
  LodView view;
  view.start = start;
  view.end = end > start ? end : start + 1;
  view.px_per_ns = width_px > 0 ? width_px / static_cast<double>(view.end - view.start) : 0.0;
  view.min_width_px = min_width_px;
  return view;
}

void FoldMarks(const std::vector<TimeNs>& ts, const LodView& view, std::vector<DrawMark>& out) {
  FoldMarksOf(TimeVector{ts}, view, out);
}

}  // namespace app::gui::timeline
