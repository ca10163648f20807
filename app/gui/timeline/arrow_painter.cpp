#include "app/gui/timeline/arrow_painter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "app/gui/widgets/palette.h"

namespace app::gui::timeline {
namespace {

// Height, below the track's top, of the middle of lane `lane` (the mark row when lane ==
// lanes.size()). A lane folded away in a collapsed track points at the last lane of its kind
// still shown.
float BoxMiddle(const state::Document& doc, int track_index, uint32_t lane, float s) {
  const Track& track = doc.model.tracks[track_index];
  const auto& expanded = doc.view.track_expanded;
  bool open = static_cast<size_t>(track_index) < expanded.size() && expanded[track_index];
  if (lane >= track.lanes.size()) {
    return LaneOffset(track, track.lanes.size(), s, open) + MarkRowHeight(track, s) / 2;
  }
  while (lane > 0 && !LaneShown(track.lanes[lane], open) &&
         track.lanes[lane - 1].kind == track.lanes[lane].kind) {
    --lane;
  }
  return LaneOffset(track, lane, s, open) + LaneHeight(track.lanes[lane].kind, s) / 2;
}

// Screen y of the middle of a track's lane, NaN when the track is not shown.
float AnchorY(const PaintContext& ctx, const std::vector<float>& track_top, int track,
              uint32_t lane) {
  float top = track_top[track];
  if (std::isnan(top)) return top;
  return top + BoxMiddle(*ctx.doc, track, lane, ctx.scale);
}

// An S-shaped arrow from `a` (a dot) to `b` (a head), leaving and arriving horizontally.
void DrawArrow(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float thickness, float s) {
  float bend = std::max(std::abs(b.x - a.x) * 0.4f, 12.0f * s);
  dl->AddBezierCubic(a, ImVec2(a.x + bend, a.y), ImVec2(b.x - bend, b.y), b, color, thickness);
  float dir = b.y >= a.y ? -1.0f : 1.0f;
  dl->AddTriangleFilled(b, ImVec2(b.x - 6 * s, b.y + dir * 3 * s),
                        ImVec2(b.x - 6 * s, b.y - dir * 3 * s), color);
  dl->AddCircleFilled(a, 2.0f * s, color);
}

// Draws one link in full; returns false when one of its rows is not shown or it lies wholly
// outside the view.
bool DrawLink(const PaintContext& ctx, const std::vector<float>& track_top, const Link& l,
              ImU32 color, float thickness) {
  const LodView& view = *ctx.view;
  if (l.from_ts > view.end || l.to_ts < view.start) return false;
  float ya = AnchorY(ctx, track_top, l.from_track, l.from_lane);
  float yb = AnchorY(ctx, track_top, l.to_track, l.to_lane);
  if (std::isnan(ya) || std::isnan(yb)) return false;
  float xa = ctx.left + static_cast<float>(view.ToPx(l.from_ts));
  float xb = ctx.left + static_cast<float>(view.ToPx(l.to_ts));
  DrawArrow(ctx.draw, ImVec2(xa, ya), ImVec2(xb, yb), color, thickness, ctx.scale);
  return true;
}

// Calls fn(link) for each link of the selected item: the link that released a wait, or the
// links of the waits a signal released.
template <typename Fn>
void ForEachLinkOf(const state::Document& doc, const state::Selection& sel, Fn&& fn) {
  const auto& links = doc.model.links;
  const auto& r = doc.analysis.recon;
  auto of_wait = [&](uint32_t wait, bool cpu) {
    if (wait >= (cpu ? r.cpu_waits.size() : r.waits.size())) return;
    const TimeNs to = cpu ? r.cpu_waits[wait].released : r.waits[wait].unblocked;
    const auto& to_ts = links.Column<&Link::to_ts>();
    for (size_t i = to_ts.LowerBound(to); i < to_ts.size() && to_ts[i] == to; ++i) {
      const Link link = links[i];
      if (link.wait == wait && link.cpu == cpu) fn(link);
    }
  };
  switch (sel.kind) {
    case state::SelectionKind::kWait:
      of_wait(sel.index, false);
      break;
    case state::SelectionKind::kCpuWait:
      of_wait(sel.index, true);
      break;
    case state::SelectionKind::kSignal:
      ForEachLinkOfSignal(doc.model.link_index, sel.index,
                          [&](uint32_t i) { fn(static_cast<Link>(links[i])); });
      break;
    default:
      break;
  }
}

bool HasArrows(const state::Selection& sel) {
  return sel.kind == state::SelectionKind::kWait || sel.kind == state::SelectionKind::kCpuWait ||
         sel.kind == state::SelectionKind::kSignal;
}

}  // namespace

LinkPaintCounts PaintLinks(const PaintContext& ctx, const DrawCache& cache,
                           const std::vector<float>& track_top, const state::Selection& hovered,
                           const ChainDraw& chain, size_t max_items, TrackHit& hit) {
  LinkPaintCounts counts;
  const auto& doc = *ctx.doc;
  const float s = ctx.scale;
  const float left = ctx.left;
  const float right = ctx.left + ctx.width;
  ImDrawList* dl = ctx.draw;
  const auto& items = cache.arrows();
  counts.in_range = cache.arrow_links();
  counts.held_back = items.size() > max_items;
  if (!counts.held_back) {
    // Many arrows in view: fainter, so the boxes under them still read.
    const bool crowded = items.size() > kCrowdedArrows;
    const ImU32 single = widgets::ArrowColor(false, crowded);
    const ImU32 bundle = widgets::ArrowBundle(crowded);
    // Count labels already placed, per row, in slots of kLabelSlotPx: a label is left out
    // where it would cover another on the same row.
    constexpr float kLabelSlotPx = 4.0f;
    const size_t slots = static_cast<size_t>(ctx.width / kLabelSlotPx) + 2;
    std::vector<std::vector<uint8_t>> taken(doc.model.tracks.size());
    auto place_label = [&](int track, float x0, float x1) {
      auto& row = taken[track];
      if (row.empty()) row.assign(slots, 0);
      const auto first = static_cast<size_t>(std::max(0.0f, (x0 - left) / kLabelSlotPx));
      const auto last =
          std::min(slots - 1, static_cast<size_t>(std::max(0.0f, (x1 - left) / kLabelSlotPx)));
      for (size_t k = first; k <= last; ++k) {
        if (row[k]) return false;
      }
      std::fill(row.begin() + first, row.begin() + last + 1, 1);
      return true;
    };
    for (const ArrowDraw& d : items) {
      if (std::max(d.from_x1, d.to_x1) < -8.0f * s ||
          std::min(d.from_x0, d.to_x0) > ctx.width + 8.0f * s) {
        continue;
      }
      const float ya = AnchorY(ctx, track_top, d.from_track, d.from_lane);
      const float yb = AnchorY(ctx, track_top, d.to_track, d.to_lane);
      if (std::isnan(ya) || std::isnan(yb)) continue;
      if (d.count == 1) {
        DrawArrow(dl, ImVec2(left + d.from_x0, ya), ImVec2(left + d.to_x0, yb), single, 1.0f * s,
                  s);
        ++counts.arrows;
        continue;
      }
      ++counts.bundles;
      counts.bundled += d.count;
      // One thicker arrow from the middle of the starts to the middle of the ends.
      const ImVec2 a(left + (d.from_x0 + d.from_x1) * 0.5f, ya);
      const ImVec2 b(left + (d.to_x0 + d.to_x1) * 0.5f, yb);
      const float thickness =
          std::min(1.25f + 0.4f * std::log2(static_cast<float>(d.count)), 3.5f) * s;
      DrawArrow(dl, a, b, bundle, thickness, s);
      // The count, above the start, unless it would cover another count on that row.
      const std::string label = fmt::format("\u00d7{}", d.count);
      const ImVec2 size = ImGui::CalcTextSize(label.c_str());
      const ImVec2 l0(a.x - size.x * 0.5f - 2 * s, a.y - size.y - 3 * s);
      const ImVec2 l1(a.x + size.x * 0.5f + 2 * s, a.y - 3 * s);
      if (l1.x > left && l0.x < right && place_label(d.from_track, l0.x, l1.x + 2 * s)) {
        dl->AddRectFilled(l0, l1, widgets::ArrowBundleLabel(), 3.0f * s);
        dl->AddText(ImVec2(l0.x + 2 * s, l0.y), widgets::ArrowBundleText(), label.c_str());
        const ImVec2 m = ctx.mouse;
        if (ctx.hover_enabled && m.x >= l0.x && m.x < l1.x && m.y >= l0.y && m.y < l1.y) {
          hit.valid = true;
          hit.track = d.to_track;
          hit.selection = {};
          hit.folded = d.count;
          hit.bundle = true;
          hit.range = {d.start, d.end};
          dl->AddRect(l0, l1, widgets::HoverOutline(), 3.0f * s);
        }
      }
    }
  }
  // The selected item's chain, then the item under the mouse and the selected item: their
  // arrows in full, whatever the zoom.
  for (const ChainArrowDraw& a : chain.arrows) {
    if (counts.chain >= max_items) break;
    const float ya = AnchorY(ctx, track_top, a.arrow.from_track, a.arrow.from_lane);
    const float yb = AnchorY(ctx, track_top, a.arrow.to_track, a.arrow.to_lane);
    if (std::isnan(ya) || std::isnan(yb)) continue;
    DrawArrow(dl, ImVec2(left + a.from_x, ya), ImVec2(left + a.to_x, yb), widgets::ChainArrow(),
              2.5f * s, s);
    ++counts.chain;
  }
  const auto& sel = doc.view.selection;
  if (HasArrows(hovered) && hovered != sel) {
    ForEachLinkOf(doc, hovered, [&](const Link& l) {
      counts.hovered += DrawLink(ctx, track_top, l, widgets::ArrowHover(), 1.5f * s);
    });
  }
  if (HasArrows(sel)) {
    ForEachLinkOf(doc, sel, [&](const Link& l) {
      counts.highlighted += DrawLink(ctx, track_top, l, widgets::ArrowColor(true), 2.0f * s);
    });
  }
  return counts;
}

size_t PaintChainSteps(const PaintContext& ctx, const ChainDraw& chain,
                       const std::vector<float>& row_top) {
  const auto& doc = *ctx.doc;
  const auto& expanded = doc.view.track_expanded;
  const float s = ctx.scale;
  size_t drawn = 0;
  for (const ChainBandDraw& b : chain.bands) {
    const float top = row_top[b.track];
    if (std::isnan(top)) continue;
    const bool open = static_cast<size_t>(b.track) < expanded.size() && expanded[b.track];
    const float height = TrackHeight(doc.model.tracks[b.track], s, open);
    // at least 2 px, so an instant step (a submission that started at once) still shows
    const float x0 = ctx.left + std::min(b.x0, b.x1 - 2.0f * s);
    const float x1 = ctx.left + b.x1;
    ctx.draw->AddRectFilled(ImVec2(x0, top), ImVec2(x1, top + height), widgets::ChainStepFill());
    ctx.draw->AddRectFilled(ImVec2(x0, top), ImVec2(x1, top + 2.0f * s), widgets::ChainArrow());
    ++drawn;
  }
  return drawn;
}

std::vector<AdapterRows> AdapterStretches(const TimelineModel& model, const std::vector<Row>& rows,
                                          float origin_y) {
  std::vector<AdapterRows> out;
  const auto& adapter_of = model.vsync_lines.adapter_of_track;
  if (model.vsync_lines.empty()) return out;
  AdapterRows current;
  bool open = false;
  for (const Row& row : rows) {
    const int adapter = !row.group && static_cast<size_t>(row.index) < adapter_of.size()
                            ? adapter_of[row.index]
                            : -1;
    const float y0 = origin_y + row.y;
    const float y1 = y0 + row.height;
    if (open && !row.group && adapter == current.adapter) {
      current.y1 = y1;
      continue;
    }
    if (open) out.push_back(current);
    open = adapter >= 0;
    if (open) current = {adapter, y0, y1};
  }
  if (open) out.push_back(current);
  return out;
}

size_t PaintVsyncLines(const PaintContext& ctx, const DrawCache& cache,
                       const std::vector<AdapterRows>& stretches) {
  const auto& vsyncs = cache.vsyncs();
  std::vector<uint8_t> drawn(vsyncs.size(), 0);
  const float left = ctx.left;
  const float right = ctx.left + ctx.width;
  for (const AdapterRows& rows : stretches) {
    if (rows.adapter < 0 || static_cast<size_t>(rows.adapter) >= vsyncs.size()) continue;
    drawn[rows.adapter] = 1;
    for (const DrawMark& m : vsyncs[rows.adapter]) {
      const float x = left + m.x;
      if (m.count != 1 || x < left || x > right) continue;
      ctx.draw->AddLine(ImVec2(x, rows.y0), ImVec2(x, rows.y1), widgets::VsyncLine(), 1.0f);
    }
  }
  size_t lines = 0;
  for (size_t a = 0; a < vsyncs.size(); ++a) {
    if (!drawn[a]) continue;
    for (const DrawMark& m : vsyncs[a]) {
      lines += m.count == 1 && m.x >= 0 && m.x <= ctx.width;
    }
  }
  return lines;
}

}  // namespace app::gui::timeline
