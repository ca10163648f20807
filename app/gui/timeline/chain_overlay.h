// The selected item's chain of causes on the timeline (state/selection_chain.h), in two halves
// like the rest of the timeline:
//   * BuildChainOverlay, once per chain: each step's row and each jump's arrow, anchored on the
//     rows and lanes that draw its ends: a signal -> wait jump is the wait's own link (the arrow
//     the timeline draws for it), a submit jump goes from the submitting thread's mark row at the
//     submission to the packet's run lane at its start;
//   * FoldChain, once per zoom level: the steps and arrows in view in pixels, steps on one row
//     that touch merged into one stretch.
// The painter (arrow_painter.h) draws the result over the boxes and the arrows' bundles.
#pragma once

#include <cstdint>
#include <vector>

#include "app/gui/state/selection_chain.h"
#include "app/gui/timeline/lod.h"

namespace app::gui::timeline {

struct ChainArrow {
  TimeNs from_ts = 0;
  TimeNs to_ts = 0;
  int from_track = -1;
  int to_track = -1;
  uint32_t from_lane = 0;  // as Link: lanes.size() is the track's mark row
  uint32_t to_lane = 0;
};

struct ChainBand {
  TimeNs start = 0;
  TimeNs end = 0;
  int track = -1;
};

struct ChainOverlay {
  uint64_t generation = 0;         // SelectionChain::generation it was built from
  std::vector<ChainArrow> arrows;  // one per jump whose rows the timeline has
  std::vector<ChainBand> bands;    // one per step whose row the timeline has, chronological
  int item_track = -1;             // the row of the chain's last step: the selected item's
};

ChainOverlay BuildChainOverlay(const state::Document& doc, const state::SelectionChain& chain);

// In pixels from the left of the time area.
struct ChainBandDraw {
  int track = -1;
  float x0 = 0;
  float x1 = 0;
};
struct ChainArrowDraw {
  ChainArrow arrow;
  float from_x = 0;
  float to_x = 0;
};
struct ChainDraw {
  std::vector<ChainBandDraw> bands;
  std::vector<ChainArrowDraw> arrows;
};

// The bands and arrows of `overlay` that reach into `view` (hidden tracks left out); bands of
// one row less than a pixel apart are merged.
void FoldChain(const ChainOverlay& overlay, const LodView& view,
               const std::vector<uint8_t>& track_hidden, ChainDraw& out);

}  // namespace app::gui::timeline
