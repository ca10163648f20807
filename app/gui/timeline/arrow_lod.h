// Level of detail for the dependency arrows: like spans narrower than 3 px, arrows fold when
// they are too dense to follow. Between one pair of rows, arrows whose start points (the
// releasing signals) lie within `near_px` of each other draw as one bundle with a count; a
// bundle stops growing at `max_bundle_px`, so a dense stretch shows as a row of bundles, each
// with its own count. An arrow with no neighbour within `near_px` is drawn on its own.
//
//   row A   signals  |  . ..  ...     .        .... ..... ...... |
//   row B   waits    |   \/     \      \          \/   \/   \/  |
//   draw             | [x3][x3]   arrow  arrow   [x5   ][x5  ][x6 ]
//
// Why it is cheap: the links of each pair of rows are sorted by their start
// (LinkIndex::pairs), so the ones in view are found with two binary searches and a bundle
// swallows, with one more search, every start within near_px of its last one. A pair costs
// O(width / near_px * log n) however many links it holds, and the folding runs once per zoom
// level (DrawCache), not per frame.
//
// Every link whose start lies in [view.start - longest link of its pair, view.end] is in exactly
// one item: the counts of the items add up to those links (tests/ui/arrow_lod_test.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "app/gui/timeline/link_index.h"
#include "app/gui/timeline/lod.h"

namespace app::gui::timeline {

// One arrow (count == 1) or one bundle of `count` arrows between two rows.
struct ArrowDraw {
  // Pixels from the left of the time area (may lie outside [0, width]: clip).
  float from_x0 = 0;  // the first start point
  float from_x1 = 0;  // the last start point (== from_x0 for one arrow)
  float to_x0 = 0;    // the ends of the first and last arrow, the smaller first
  float to_x1 = 0;
  int from_track = -1;
  int to_track = -1;
  uint32_t from_lane = 0;  // of the first arrow (see Link)
  uint32_t to_lane = 0;
  uint32_t pair = 0;   // index into LinkIndex::pairs
  uint32_t first = 0;  // the pair's links [first, first + count)
  uint32_t count = 0;
  TimeNs start = 0;  // first start .. the later of the first and last end: what a click zooms to
  TimeNs end = 0;
  TimeNs last_start = 0;  // the last start (== start for one arrow)
};

struct ArrowLod {
  float near_px = 16.0f;        // starts closer than this share a bundle
  float max_bundle_px = 80.0f;  // a bundle's starts span at most about this much
};

// Appends the arrows and bundles of every pair of rows whose rows are both shown
// (`track_hidden[t]` != 0 hides track t; may be shorter than the tracks) to `out`, pair by pair,
// each pair's in time order.
void FoldLinks(const LinkTable& links, const LinkIndex& index, const LodView& view,
               const std::vector<uint8_t>& track_hidden, const ArrowLod& lod,
               std::vector<ArrowDraw>& out);

}  // namespace app::gui::timeline
