// The Draw half of the arrows and of the vsync lines: paints the arrows and bundles the draw
// cache prepared for the zoom level (arrow_lod.h), then, in full, the arrows of the selected
// item's chain of causes (chain_overlay.h), of the selected item (highlighted) and of the item
// under the mouse; the chain's steps as light bands over their rows; and each adapter's vsync
// lines across its rows. Reads only the draw cache, the chain's folded draw items and the few
// links of the selected or hovered item.
#pragma once

#include <imgui.h>

#include <vector>

#include "app/gui/state/document.h"
#include "app/gui/timeline/chain_overlay.h"
#include "app/gui/timeline/draw_cache.h"
#include "app/gui/timeline/track_layout.h"
#include "app/gui/timeline/track_painter.h"

namespace app::gui::timeline {

// More arrows and bundles than this in view draw fainter.
constexpr size_t kCrowdedArrows = 120;

// What PaintLinks drew in one frame.
struct LinkPaintCounts {
  size_t in_range = 0;     // links the cache's arrows and bundles stand for
  size_t arrows = 0;       // single arrows drawn from the cache
  size_t bundles = 0;      // bundles drawn from the cache
  size_t bundled = 0;      // links those bundles stand for
  size_t highlighted = 0;  // arrows of the selected item, drawn in full
  size_t hovered = 0;      // arrows of the item under the mouse, drawn in full
  size_t chain = 0;        // arrows of the selected item's chain (its jumps), drawn in full
  bool held_back = false;  // more cache items than `max_items`: only the selected and hovered
};

// `track_top[t]` is the screen y of track t (NaN when not shown). `hovered`: the item under the
// mouse (its arrows are drawn in full), or an empty selection. Draws at most `max_items` of the
// cache's arrows and bundles (a renderer with a 16-bit vertex range has room for few); when it
// holds them back it still draws the chain's arrows (at most `max_items` of them too) and the
// selected and hovered item's arrows. A bundle under the mouse fills `hit` (when nothing else
// did) with the links it stands for.
LinkPaintCounts PaintLinks(const PaintContext& ctx, const DrawCache& cache,
                           const std::vector<float>& track_top, const state::Selection& hovered,
                           const ChainDraw& chain, size_t max_items, TrackHit& hit);

// The chain's steps: a light band over each stretch of a row the chain passes through, with a
// line along the row's top. `row_top[t]`: the screen y of track t's row, NaN when it is not in
// sight. Returns the bands drawn.
size_t PaintChainSteps(const PaintContext& ctx, const ChainDraw& chain,
                       const std::vector<float>& row_top);

// A vertical stretch of rows of one adapter: [y0, y1] in screen y.
struct AdapterRows {
  int adapter = -1;  // index into VsyncLines::adapters
  float y0 = 0;
  float y1 = 0;
};

// The stretches of consecutive rows (in display order, `rows`) that belong to an adapter with
// vsync markers; `origin_y` is the screen y of the rows' y = 0 (scrolling included). Group header
// rows end a stretch.
std::vector<AdapterRows> AdapterStretches(const TimelineModel& model, const std::vector<Row>& rows,
                                          float origin_y);

// Draws each adapter's vsync lines over its stretches of rows; returns the number of vsync
// lines drawn (each counted once however many stretches it crosses).
size_t PaintVsyncLines(const PaintContext& ctx, const DrawCache& cache,
                       const std::vector<AdapterRows>& stretches);

}  // namespace app::gui::timeline
