// The Preprocess half of the timeline: for every shown track, the folded draw items of each lane
// and mark row (timeline/lod.h), the interrupt-rate buckets and the counter's highest value per
// bucket (CounterRow::MaxIn); the arrows and bundles of arrows (timeline/arrow_lod.h); the
// vsync lines of each adapter. Rebuilt only when the visible
// range, the width, the document or the layout generation changes, so a frame that does not
// move the view costs only the drawing of these lists.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/state/document.h"
#include "app/gui/timeline/arrow_lod.h"
#include "app/gui/timeline/lod.h"

namespace app::gui::timeline {

struct TrackDraw {
  std::vector<std::vector<DrawSpan>> lanes;  // [lane]
  std::vector<std::vector<DrawMark>> marks;  // [mark row]
  std::vector<uint32_t> rate;                // marks[0] instants per rate bucket
  float rate_bucket_px = 0;
  // Interrupt rows: the adapter's peak rate over the trace, as the Interrupts panel and the
  // reports define it (core::analysis::PeakInterruptsPerMs, computed at load); the curve is
  // drawn relative to it.
  uint64_t peak_per_ms = 0;
  std::vector<uint32_t> counter;             // the counter's highest value per bucket
  float counter_bucket_px = 0;
};

// The rate curve's label: "peak N per ms".
std::string PeakRateLabel(uint64_t peak_per_ms);

// counter[k] = the highest value of `row` in bucket k of the view, [start + k * bucket,
// start + (k + 1) * bucket) with a bucket of `bucket_px` pixels; empty when the row is.
void CounterPerBucket(const CounterRow& row, const LodView& view, float width_px, float bucket_px,
                      std::vector<uint32_t>& counter);

// VSync lines closer than this (times the DPI scale) are not drawn: they would hatch the rows.
constexpr float kVsyncMinGapPx = 5.0f;

class DrawCache {
 public:
  // Rebuilds when needed; returns true when it did. `bucket_px`: the width of a bucket of the
  // interrupt-rate curve and of the counter rows. `arrow_lod`: how arrows fold (in pixels).
  bool Update(const state::Document& doc, float width_px, float min_width_px, float bucket_px,
              const ArrowLod& arrow_lod = {});
  const TrackDraw& Track(size_t index) const { return m_tracks[index]; }
  const LodView& view() const { return m_view; }
  // Draw items (spans + marks) of the last rebuild, for the bench and the status line.
  size_t items() const { return m_items; }
  // Arrows and bundles of arrows in view, pair of rows by pair (empty when arrows are hidden),
  // and the links they stand for.
  const std::vector<ArrowDraw>& arrows() const { return m_arrows; }
  size_t arrow_links() const { return m_arrow_links; }
  // [VsyncLines::adapters index]: the adapter's vsync lines in view (count > 1: lines closer
  // than kVsyncMinGapPx folded together); empty when vsync lines are hidden.
  const std::vector<std::vector<DrawMark>>& vsyncs() const { return m_vsyncs; }
  void Invalidate() { m_valid = false; }

 private:
  struct Key {
    const state::Document* doc = nullptr;
    state::TimeRange visible;
    float width = 0;
    float min_width = 0;
    uint64_t generation = 0;
    float arrow_near = 0;
    float arrow_max = 0;
    bool operator==(const Key& o) const {
      return doc == o.doc && visible.start == o.visible.start && visible.end == o.visible.end &&
             width == o.width && min_width == o.min_width && generation == o.generation &&
             arrow_near == o.arrow_near && arrow_max == o.arrow_max;
    }
  };
  Key m_key;
  bool m_valid = false;
  LodView m_view;
  std::vector<TrackDraw> m_tracks;
  size_t m_items = 0;
  std::vector<ArrowDraw> m_arrows;
  size_t m_arrow_links = 0;
  std::vector<std::vector<DrawMark>> m_vsyncs;
};

}  // namespace app::gui::timeline
