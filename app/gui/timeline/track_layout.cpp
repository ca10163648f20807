#include "app/gui/timeline/track_layout.h"

#include <algorithm>

namespace app::gui::timeline {

float LaneHeight(LaneKind kind, float scale) {
  switch (kind) {
    case LaneKind::kRunSegments:
      return 22.0f * scale;
    case LaneKind::kSignals:
    case LaneKind::kWaits:
      return 7.0f * scale;
    case LaneKind::kCpuWaits:
    case LaneKind::kTasks:
    case LaneKind::kCpuSlices:
      return 18.0f * scale;
    case LaneKind::kMissing:
      return 0.0f;  // drawn as shading over the whole track
  }
  return 16.0f * scale;
}

bool LaneShown(const Lane& lane, bool expanded) {
  if (expanded || lane.kind == LaneKind::kRunSegments || lane.kind == LaneKind::kMissing) {
    return true;
  }
  // Nested CPU slices read as a call stack: keep more levels than for boxes.
  return lane.rank <
         (lane.kind == LaneKind::kCpuSlices ? kCollapsedSliceDepth : kCollapsedLanesPerKind);
}

size_t HiddenLanes(const Track& track, bool expanded) {
  size_t hidden = 0;
  for (const auto& lane : track.lanes) hidden += !LaneShown(lane, expanded);
  return hidden;
}

float MarkRowHeight(const Track& track, float scale) {
  if (track.marks.empty()) return 0.0f;
  return (track.rate_curve ? 34.0f : 12.0f) * scale;
}

float CounterRowHeight(const Track& track, float scale) {
  return track.counter.empty() ? 0.0f : 26.0f * scale;
}

float GroupHeaderHeight(float scale) {
  return 20.0f * scale;
}

float LaneOffset(const Track& track, size_t lane, float scale, bool expanded) {
  float y = 3.0f * scale;
  for (size_t i = 0; i < lane && i < track.lanes.size(); ++i) {
    if (!LaneShown(track.lanes[i], expanded)) continue;
    float h = LaneHeight(track.lanes[i].kind, scale);
    if (h > 0) y += h + 1.0f;
  }
  return y;
}

float TrackHeight(const Track& track, float scale, bool expanded) {
  float h = LaneOffset(track, track.lanes.size(), scale, expanded) + MarkRowHeight(track, scale) +
            CounterRowHeight(track, scale) + 3.0f * scale;
  return std::max(h, 20.0f * scale);
}

std::vector<Row> LayoutRows(const TimelineModel& model, const state::ViewState& view, float scale) {
  std::vector<Row> rows;
  std::vector<char> emitted(model.groups.size(), 0);
  float y = 0;
  auto collapsed_above = [&](int group) {
    for (int g = group; g >= 0; g = model.groups[g].parent) {
      if (g < static_cast<int>(view.group_collapsed.size()) && view.group_collapsed[g]) return g;
    }
    return -1;
  };
  for (int t : view.track_order) {
    if (t < 0 || t >= static_cast<int>(model.tracks.size())) continue;
    if (t < static_cast<int>(view.track_hidden.size()) && view.track_hidden[t]) continue;
    const Track& track = model.tracks[t];
    // Emit the headers of the group chain, outermost first, that are not shown yet.
    std::vector<int> chain;
    for (int g = track.group; g >= 0; g = model.groups[g].parent) chain.push_back(g);
    bool hidden = false;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      int g = *it;
      if (!emitted[g]) {
        emitted[g] = 1;
        int outer_collapsed =
            model.groups[g].parent >= 0 ? collapsed_above(model.groups[g].parent) : -1;
        if (outer_collapsed < 0) {
          float h = GroupHeaderHeight(scale);
          rows.push_back({true, g, false, model.groups[g].depth, y, h});
          y += h;
        }
      }
      if (collapsed_above(g) >= 0) hidden = true;
    }
    if (hidden) continue;
    bool expanded = t < static_cast<int>(view.track_expanded.size()) && view.track_expanded[t];
    float h = TrackHeight(track, scale, expanded);
    int depth = track.group >= 0 ? model.groups[track.group].depth + 1 : 0;
    rows.push_back({false, t, expanded, depth, y, h});
    y += h;
  }
  return rows;
}

}  // namespace app::gui::timeline
