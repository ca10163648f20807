// The Draw half of the timeline: paints one track's prepared draw items (draw_cache.h) and
// reports what lies under the mouse (the arrows: arrow_painter.h). Reads only the draw lists and
// the items they name; never walks a track's events.
#pragma once

#include <imgui.h>

#include <vector>

#include "app/gui/state/document.h"
#include "app/gui/timeline/draw_cache.h"

namespace app::gui::timeline {

struct PaintContext {
  ImDrawList* draw = nullptr;
  const state::Document* doc = nullptr;
  const LodView* view = nullptr;
  float left = 0;   // screen x of the time area's left edge (time view.start)
  float width = 0;  // of the time area
  float scale = 1;  // DPI factor
  ImVec2 mouse;
  bool hover_enabled = false;  // the mouse is over the time area and nothing else wants it
};

// What the mouse points at: one item, or a folded block of `folded` items.
struct TrackHit {
  bool valid = false;
  int track = -1;
  state::Selection selection;  // the item (or the first item of a folded block)
  uint32_t folded = 0;         // > 1: a folded block of that many items
  bool bundle = false;         // the block is a bundle of `folded` arrows (arrow_lod.h)
  state::TimeRange range;      // span of the item or block
};

// The selection an item of a lane / mark row stands for.
state::Selection SelectionOfSpan(const state::Document& doc, const Track& track, size_t lane,
                                 uint32_t item);
state::Selection SelectionOfMark(const Track& track, size_t row, uint32_t item,
                                 const state::Document& doc);

void PaintTrack(const PaintContext& ctx, int track_index, const TrackDraw& draw, float top,
                float height, bool expanded, TrackHit& hit);

}  // namespace app::gui::timeline
