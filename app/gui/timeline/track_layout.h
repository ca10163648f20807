// Vertical layout of the timeline: which rows (group headers and tracks) are shown, in which
// order, at which height. Heights scale with the DPI factor.
#pragma once

#include <vector>

#include "app/gui/state/view_state.h"
#include "app/gui/timeline/timeline_model.h"

namespace app::gui::timeline {

struct Row {
  bool group = false;  // a group header (index into groups) or a track (index into tracks)
  int index = 0;
  bool expanded = false;  // track rows: every lane shown
  int depth = 0;
  float y = 0;  // from the top of the track area, unscrolled
  float height = 0;
};

// A track shows at most this many lanes of fence boxes (or tasks, CPU waits) per kind unless
// the user expands it (click its name): thousands of boxes in flight at once (a queue that
// queued far ahead) would otherwise make one track taller than the window.
constexpr uint32_t kCollapsedLanesPerKind = 3;
constexpr uint32_t kCollapsedSliceDepth = 8;

float LaneHeight(LaneKind kind, float scale);
bool LaneShown(const Lane& lane, bool expanded);
// Lanes not shown because the track is collapsed.
size_t HiddenLanes(const Track& track, bool expanded);
float MarkRowHeight(const Track& track, float scale);
// The counter row under the mark row (0 when the track has no counter).
float CounterRowHeight(const Track& track, float scale);
float GroupHeaderHeight(float scale);
float TrackHeight(const Track& track, float scale, bool expanded);
// y offset of lane `lane` (and of the mark row after the lanes when lane == lanes.size()).
float LaneOffset(const Track& track, size_t lane, float scale, bool expanded);

// Rows in display order: each group header precedes its visible tracks; collapsed groups hide
// their tracks and sub-groups; hidden tracks are skipped; groups without visible tracks vanish.
std::vector<Row> LayoutRows(const TimelineModel& model, const state::ViewState& view, float scale);

}  // namespace app::gui::timeline
