#include "app/gui/timeline/arrow_lod.h"

#include <algorithm>

namespace app::gui::timeline {

void FoldLinks(const LinkTable& links, const LinkIndex& index, const LodView& view,
               const std::vector<uint8_t>& track_hidden, const ArrowLod& lod,
               std::vector<ArrowDraw>& out) {
  if (view.end <= view.start || view.px_per_ns <= 0) return;
  auto shown = [&](int track) {
    return track >= 0 &&
           (static_cast<size_t>(track) >= track_hidden.size() || track_hidden[track] == 0);
  };
  const TimeNs near_ns = std::max<TimeNs>(1, static_cast<TimeNs>(lod.near_px / view.px_per_ns));
  const auto& to_ts = links.Column<&Link::to_ts>();
  const auto& from_lane = links.Column<&Link::from_lane>();
  const auto& to_lane = links.Column<&Link::to_lane>();
  for (uint32_t p = 0; p < index.pairs.size(); ++p) {
    const LinkPair& pair = index.pairs[p];
    if (!shown(pair.from_track) || !shown(pair.to_track)) continue;
    const auto& from = pair.from_ts;
    size_t i = from.LowerBound(view.start - pair.longest_ns);
    const size_t last = from.UpperBound(view.end, i);
    while (i < last) {
      const size_t first = i;
      const TimeNs t0 = from[i];
      TimeNs t1 = t0;
      ++i;
      // Every start within near_ns of the bundle's last one joins it, until it spans
      // max_bundle_px.
      while (i < last && view.ToPx(t1) - view.ToPx(t0) < lod.max_bundle_px) {
        const size_t j = std::min(from.UpperBound(t1 + near_ns, i), last);
        if (j == i) break;
        t1 = from[j - 1];
        i = j;
      }
      const uint32_t l0 = pair.links[first];
      const uint32_t l1 = pair.links[i - 1];
      const TimeNs e0 = to_ts[l0];
      const TimeNs e1 = to_ts[l1];
      ArrowDraw d;
      d.from_x0 = static_cast<float>(view.ToPx(t0));
      d.from_x1 = static_cast<float>(view.ToPx(t1));
      d.to_x0 = static_cast<float>(view.ToPx(std::min(e0, e1)));
      d.to_x1 = static_cast<float>(view.ToPx(std::max(e0, e1)));
      d.from_track = pair.from_track;
      d.to_track = pair.to_track;
      d.from_lane = from_lane[l0];
      d.to_lane = to_lane[l0];
      d.pair = p;
      d.first = static_cast<uint32_t>(first);
      d.count = static_cast<uint32_t>(i - first);
      d.start = t0;
      d.end = std::max({e0, e1, t1});
      d.last_start = t1;
      out.push_back(d);
    }
  }
}

}  // namespace app::gui::timeline
