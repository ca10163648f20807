#include "app/gui/timeline/draw_cache.h"

#include <fmt/format.h>

#include "app/gui/timeline/track_layout.h"
#include "core/analysis/interrupt_analysis.h"

namespace app::gui::timeline {

std::string PeakRateLabel(uint64_t peak_per_ms) {
  return fmt::format("peak {} per ms", peak_per_ms);
}

// counter[k] = the highest value in bucket k of the view ([start + k * bucket, + bucket)).
void CounterPerBucket(const CounterRow& row, const LodView& view, float width_px, float bucket_px,
                      std::vector<uint32_t>& counter) {
  counter.clear();
  if (row.empty() || width_px <= 0 || bucket_px <= 0 || view.end <= view.start) return;
  const size_t buckets = static_cast<size_t>(width_px / bucket_px) + 1;
  const double ns_per_bucket = bucket_px / view.px_per_ns;
  counter.resize(buckets);
  TimeNs from = view.start;
  for (size_t k = 0; k < buckets; ++k) {
    const TimeNs to = view.start + static_cast<TimeNs>((k + 1) * ns_per_bucket);
    counter[k] = row.MaxIn(from, std::max(to, from + 1));
    from = to;
  }
}

bool DrawCache::Update(const state::Document& doc, float width_px, float min_width_px,
                       float rate_bucket_px, const ArrowLod& arrow_lod) {
  Key key{&doc,
          doc.view.visible,
          width_px,
          min_width_px,
          doc.view.layout_generation,
          arrow_lod.near_px,
          arrow_lod.max_bundle_px};
  if (m_valid && key == m_key) return false;
  m_key = key;
  m_valid = true;
  m_view = MakeLodView(doc.view.visible.start, doc.view.visible.end, width_px, min_width_px);
  const auto& model = doc.model;
  m_tracks.resize(model.tracks.size());
  m_items = 0;
  for (size_t t = 0; t < model.tracks.size(); ++t) {
    const auto& track = model.tracks[t];
    TrackDraw& draw = m_tracks[t];
    draw.lanes.resize(track.lanes.size());
    draw.marks.resize(track.marks.size());
    draw.rate.clear();
    bool hidden = t < doc.view.track_hidden.size() && doc.view.track_hidden[t];
    bool expanded = t < doc.view.track_expanded.size() && doc.view.track_expanded[t];
    for (size_t l = 0; l < track.lanes.size(); ++l) {
      draw.lanes[l].clear();
      if (hidden) continue;
      bool box =
          track.lanes[l].kind == LaneKind::kSignals || track.lanes[l].kind == LaneKind::kWaits;
      if (box && !doc.view.show_fence_boxes) continue;
      if (!LaneShown(track.lanes[l], expanded)) continue;
      FoldSpans(track.lanes[l], m_view, draw.lanes[l]);
      m_items += draw.lanes[l].size();
    }
    for (size_t m = 0; m < track.marks.size(); ++m) {
      draw.marks[m].clear();
      if (hidden) continue;
      FoldMarksOf(track.marks[m], m_view, draw.marks[m]);
      m_items += draw.marks[m].size();
    }
    draw.peak_per_ms = 0;
    if (!hidden && track.rate_curve && !track.marks.empty() && doc.view.show_rate_curve) {
      draw.rate_bucket_px = rate_bucket_px;
      CountPerBucket(track.marks[0], m_view, width_px, rate_bucket_px, draw.rate);
      if (track.kind == TrackKind::kInterrupts) {
        // The trace's peak, computed once at load by the same function as the Interrupts panel
        // and the reports (scanning every interrupt on each view change cost ~0.7 ms a frame).
        for (const auto& a : doc.analysis.interrupts.per_adapter) {
          if (a.adapter == static_cast<core::model::AdapterId>(track.id)) {
            draw.peak_per_ms = a.peak_per_ms;
          }
        }
      }
    }
    draw.counter_bucket_px = rate_bucket_px;
    if (hidden) {
      draw.counter.clear();
    } else {
      CounterPerBucket(track.counter, m_view, width_px, rate_bucket_px, draw.counter);
    }
  }
  m_arrows.clear();
  m_arrow_links = 0;
  if (doc.view.show_arrows) {
    FoldLinks(model.links, model.link_index, m_view, doc.view.track_hidden, arrow_lod, m_arrows);
    for (const ArrowDraw& a : m_arrows) m_arrow_links += a.count;
  }
  const auto& vsync = model.vsync_lines;
  m_vsyncs.resize(vsync.adapters.size());
  LodView vsync_view = m_view;
  vsync_view.min_width_px = kVsyncMinGapPx * min_width_px / 3.0f;
  for (size_t a = 0; a < vsync.adapters.size(); ++a) {
    m_vsyncs[a].clear();
    if (doc.view.show_vsync) FoldMarksOf(vsync.adapters[a], vsync_view, m_vsyncs[a]);
  }
  return true;
}

}  // namespace app::gui::timeline
