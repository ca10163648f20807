#include "app/gui/timeline/track_painter.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "app/gui/state/selection_info.h"
#include "app/gui/timeline/track_layout.h"
#include "app/gui/widgets/palette.h"

namespace app::gui::timeline {
namespace {

using core::analysis::TaskOutcome;
using state::Selection;
using state::SelectionKind;
using widgets::MarkStyle;
using widgets::SpanStyle;

struct SpanLook {
  SpanStyle style = SpanStyle::kPacket;
  uint32_t key = 0;
};

SpanLook LookOf(const state::Document& doc, const Lane& lane, uint32_t item) {
  const auto& r = doc.analysis.recon;
  switch (lane.kind) {
    case LaneKind::kRunSegments: {
      const auto& seg = r.queues[lane.queue].segments[lane.items[item]];
      if (seg.packet == core::analysis::kNoIndex) return {SpanStyle::kPacket, lane.queue};
      const auto& p = r.packets[seg.packet];
      if (p.flags & core::model::kPacketPaging) return {SpanStyle::kPacketPaging, 0};
      return {SpanStyle::kPacket, p.context != 0 ? p.context : p.queue};
    }
    case LaneKind::kSignals:
      return {SpanStyle::kSignalBox, 0};
    case LaneKind::kWaits:
      return {SpanStyle::kWaitBox, 0};
    case LaneKind::kCpuWaits:
      return {SpanStyle::kCpuWait, 0};
    case LaneKind::kTasks: {
      const auto& t = r.tasks[lane.items[item]];
      bool ended_badly =
          t.outcome == TaskOutcome::kCancelled || t.outcome == TaskOutcome::kAbandoned;
      return {ended_badly ? SpanStyle::kTaskCancelled : SpanStyle::kTask,
              static_cast<uint32_t>(t.pso)};
    }
    case LaneKind::kMissing:
      return {SpanStyle::kOverrun, 0};
    case LaneKind::kCpuSlices:
      return {SpanStyle::kCpuSlice, lane.names[item]};
  }
  return {};
}

std::string FenceLabel(const state::Document& doc, core::model::FenceId fence) {
  const auto* f = doc.store.FindFence(fence);
  return f && !f->name.empty() ? f->name : fmt::format("F{}", fence);
}

std::string LabelOf(const state::Document& doc, const Lane& lane, uint32_t item) {
  const auto& r = doc.analysis.recon;
  switch (lane.kind) {
    case LaneKind::kRunSegments: {
      const auto& seg = r.queues[lane.queue].segments[lane.items[item]];
      if (seg.packet == core::analysis::kNoIndex) return {};
      const auto& p = r.packets[seg.packet];
      const std::string& name = doc.store.String(p.name);
      return name.empty() ? fmt::format("#{}", p.packet_id) : name;
    }
    case LaneKind::kSignals: {
      const auto& s = r.signals[lane.items[item]];
      return fmt::format("S {}={}", FenceLabel(doc, s.fence), s.value);
    }
    case LaneKind::kWaits: {
      const auto& w = r.waits[lane.items[item]];
      return fmt::format("W {}>={}", FenceLabel(doc, w.fence), w.value);
    }
    case LaneKind::kCpuWaits: {
      const auto& w = r.cpu_waits[lane.items[item]];
      return fmt::format("wait {}>={}", FenceLabel(doc, w.fence), w.value);
    }
    case LaneKind::kTasks: {
      const auto& t = r.tasks[lane.items[item]];
      const auto* pso = doc.store.FindPso(t.pso);
      return fmt::format("task {} {}", t.task_id, pso ? pso->name : std::string());
    }
    case LaneKind::kMissing:
      return "data missing (log overrun)";
    case LaneKind::kCpuSlices:
      return doc.store.String(static_cast<core::model::StringId>(lane.names[item]));
  }
  return {};
}

// What each kind of mark looks like and what clicking one selects, in MarkKind's order, where
// the kind alone decides it: an interrupt's and a marker's style also depend on the item
// (MarkStyleOf), and a preemption's or a TDR's selection is looked up (SelectionOfMark).
struct MarkKindInfo {
  MarkStyle style;
  SelectionKind selects;
};
constexpr std::array<MarkKindInfo, static_cast<size_t>(MarkKind::kMarkers) + 1> kMarkKinds = {{
    {MarkStyle::kInterrupt, SelectionKind::kInterrupt},    // kInterrupts
    {MarkStyle::kModeChange, SelectionKind::kModeChange},  // kModeChanges
    {MarkStyle::kCommit, SelectionKind::kModeChange},      // kCommits
    {MarkStyle::kSignalQueued, SelectionKind::kSignal},    // kCpuSignals
    {MarkStyle::kMarker, SelectionKind::kPacket},          // kSubmissions
    {MarkStyle::kPreemption, SelectionKind::kPacket},      // kPreemptions
    {MarkStyle::kCommit, SelectionKind::kEvent},           // kVariants
    {MarkStyle::kError, SelectionKind::kEvent},            // kTdrs
    {MarkStyle::kMarker, SelectionKind::kEvent},           // kMarkers
}};

// What clicking a span of each kind of lane selects, in LaneKind's order (run segments are
// looked up: the packet that ran).
constexpr std::array<SelectionKind, static_cast<size_t>(LaneKind::kCpuSlices) + 1> kSpanSelects = {
    SelectionKind::kPacket, SelectionKind::kSignal,  SelectionKind::kWait, SelectionKind::kCpuWait,
    SelectionKind::kTask,   SelectionKind::kMissing, SelectionKind::kEvent};

// The packet a queue's run segment belongs to; nothing where the segment's packet is unknown.
Selection SegmentPacket(const state::Document& doc, uint32_t queue, uint32_t segment) {
  uint32_t packet = doc.analysis.recon.queues[queue].segments[segment].packet;
  if (packet == core::analysis::kNoIndex) return {};
  return {SelectionKind::kPacket, packet, 0};
}

MarkStyle MarkStyleOf(const state::Document& doc, const MarkLane& marks, uint32_t item) {
  if (marks.kind == MarkKind::kInterrupts &&
      doc.analysis.recon.interrupts[marks.items[item]].spurious) {
    return MarkStyle::kInterruptSpurious;
  }
  if (marks.kind == MarkKind::kMarkers) {
    if (marks.marker_type[item] == kMarkerVsync) return MarkStyle::kVsync;
    if (marks.marker_type[item] == kMarkerPresent) return MarkStyle::kPresent;
  }
  return kMarkKinds[static_cast<size_t>(marks.kind)].style;
}

void DrawTextClipped(ImDrawList* draw, float x0, float x1, float y, ImU32 color,
                     const std::string& text) {
  if (text.empty()) return;
  ImVec2 size = ImGui::CalcTextSize(text.c_str());
  if (size.x + 6.0f > x1 - x0) return;
  draw->AddText(ImVec2(x0 + 3.0f, y), color, text.c_str());
}

bool Contains(ImVec2 p, float x0, float y0, float x1, float y1) {
  return p.x >= x0 && p.x < x1 && p.y >= y0 && p.y < y1;
}

// The counter row whose top is at `y0`: a bar per bucket, scaled to the series' maximum, its
// name and maximum at the left, and the value under the mouse.
void PaintCounter(const PaintContext& ctx, const Track& track, const TrackDraw& draw, float y0) {
  const CounterRow& row = track.counter;
  if (row.empty() || row.max == 0) return;
  const float s = ctx.scale;
  const float h = CounterRowHeight(track, s) - 2.0f * s;
  const float y1 = y0 + h;
  const float left = ctx.left, right = ctx.left + ctx.width;
  ImDrawList* dl = ctx.draw;
  dl->AddLine(ImVec2(left, y1), ImVec2(right, y1), widgets::CounterBaseline());
  const float bucket = draw.counter_bucket_px;
  for (size_t k = 0; k < draw.counter.size(); ++k) {
    const float x0 = left + static_cast<float>(k) * bucket;
    if (x0 > right) break;
    if (draw.counter[k] == 0) continue;
    const float bar = h * static_cast<float>(draw.counter[k]) / static_cast<float>(row.max);
    dl->AddRectFilled(ImVec2(x0, y1 - bar), ImVec2(std::min(x0 + bucket, right), y1),
                      widgets::CounterFill());
  }
  const std::string label = fmt::format("{} (max {})", row.label, row.max);
  dl->AddText(ImVec2(left + 4 * s, y0), widgets::CounterText(), label.c_str());
  if (ctx.hover_enabled && Contains(ctx.mouse, left, y0, right, y1) && bucket > 0) {
    const size_t k = static_cast<size_t>((ctx.mouse.x - left) / bucket);
    if (k < draw.counter.size()) {
      const std::string value = fmt::format("{}", draw.counter[k]);
      dl->AddText(ImVec2(ctx.mouse.x + 6 * s, y0), widgets::CounterText(), value.c_str());
    }
  }
}

}  // namespace

Selection SelectionOfSpan(const state::Document& doc, const Track& track, size_t lane,
                          uint32_t item) {
  const Lane& l = track.lanes[lane];
  if (l.kind == LaneKind::kRunSegments) return SegmentPacket(doc, l.queue, l.items[item]);
  // Missing entries are numbered per queue, so their selection names the queue too.
  const uint32_t queue = l.kind == LaneKind::kMissing ? l.queue : 0;
  return {kSpanSelects[static_cast<size_t>(l.kind)], l.items[item], queue};
}

Selection SelectionOfMark(const Track& track, size_t row, uint32_t item,
                          const state::Document& doc) {
  const MarkLane& m = track.marks[row];
  if (m.kind == MarkKind::kPreemptions) return SegmentPacket(doc, m.queue, m.items[item]);
  if (m.kind == MarkKind::kTdrs) {
    uint32_t event = doc.analysis.recon.tdrs[m.items[item]].event;
    if (event == core::analysis::kNoIndex) return {};
    return {SelectionKind::kEvent, event, 0};
  }
  return {kMarkKinds[static_cast<size_t>(m.kind)].selects, m.items[item], 0};
}

void PaintTrack(const PaintContext& ctx, int track_index, const TrackDraw& draw, float top,
                float height, bool expanded, TrackHit& hit) {
  const auto& doc = *ctx.doc;
  const Track& track = doc.model.tracks[track_index];
  const float s = ctx.scale;
  const float left = ctx.left;
  const float right = ctx.left + ctx.width;
  ImDrawList* dl = ctx.draw;
  for (size_t l = 0; l < track.lanes.size() && l < draw.lanes.size(); ++l) {
    const Lane& lane = track.lanes[l];
    const bool overlay = lane.kind == LaneKind::kMissing;
    if (!LaneShown(lane, expanded)) continue;
    float y0 = overlay ? top : top + LaneOffset(track, l, s, expanded);
    float y1 = overlay ? top + height : y0 + LaneHeight(lane.kind, s);
    for (const DrawSpan& d : draw.lanes[l]) {
      float x0 = std::max(left + d.x0, left - 2.0f);
      float x1 = std::min(left + d.x1, right + 2.0f);
      if (x1 < left || x0 > right) continue;
      if (x1 - x0 < 1.0f) x1 = x0 + 1.0f;
      SpanLook look = LookOf(doc, lane, d.first);
      ImU32 fill = d.count == 1 ? widgets::SpanColor(look.style, look.key)
                                : widgets::FoldedColor(look.style, look.key);
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), fill);
      if (overlay) {
        // Diagonal hatching marks the window where records may be missing.
        for (float hx = x0 - (y1 - y0); hx < x1; hx += 8.0f * s) {
          float ax = std::max(hx, x0), bx = std::min(hx + (y1 - y0), x1);
          if (bx > ax) {
            dl->AddLine(ImVec2(ax, y1 - (ax - hx)), ImVec2(bx, y1 - (bx - hx)),
                        IM_COL32(230, 60, 60, 110));
          }
        }
      } else if (d.count > 1) {
        if (x1 - x0 > 3.0f) {
          dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(0, 0, 0, 90));
        }
        if (y1 - y0 >= 14.0f * s) {
          DrawTextClipped(dl, x0, x1, y0 + (y1 - y0 - ImGui::GetFontSize()) * 0.5f,
                          widgets::TextOn(fill), fmt::format("{}", d.count));
        }
      } else {
        if (x1 - x0 > 4.0f) dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(0, 0, 0, 110));
        if (x1 - x0 > 30.0f && y1 - y0 >= 14.0f * s) {
          DrawTextClipped(dl, x0, x1, y0 + (y1 - y0 - ImGui::GetFontSize()) * 0.5f,
                          widgets::TextOn(fill), LabelOf(doc, lane, d.first));
        }
        if (lane.kind == LaneKind::kRunSegments) {
          const auto& r = doc.analysis.recon;
          const auto& seg = r.queues[lane.queue].segments[lane.items[d.first]];
          if (seg.preempted) {
            dl->AddTriangleFilled(ImVec2(x1, y0), ImVec2(x1 - 5 * s, y0), ImVec2(x1, y0 + 5 * s),
                                  widgets::MarkColor(MarkStyle::kPreemption));
          } else if (x1 - x0 >= 8.0f * s && seg.packet != core::analysis::kNoIndex &&
                     (r.packets[seg.packet].flags & core::model::kPacketPresent) != 0) {
            // A present packet: a bar at its end, as GPUView marks the flip.
            dl->AddRectFilled(ImVec2(x1 - 2 * s, y0), ImVec2(x1, y1),
                              widgets::MarkColor(MarkStyle::kPresent));
          }
        }
        Selection sel = SelectionOfSpan(doc, track, l, d.first);
        if (state::SelectionCovers(doc, doc.view.selection, sel)) {
          dl->AddRect(ImVec2(x0 - 1, y0 - 1), ImVec2(x1 + 1, y1 + 1), widgets::HoverOutline(), 0.0f,
                      0, 2.0f);
        }
      }
      if (ctx.hover_enabled && !overlay && Contains(ctx.mouse, x0, y0, x1, y1)) {
        const Lane& spans = lane;
        hit.valid = true;
        hit.track = track_index;
        hit.selection = SelectionOfSpan(doc, track, l, d.first);
        hit.folded = d.count;
        hit.range = {spans.Start(d.first), spans.End(d.first + d.count - 1)};
        dl->AddRect(ImVec2(x0, y0), ImVec2(x1, y1), widgets::HoverOutline());
      }
    }
  }
  PaintCounter(ctx, track, draw,
               top + LaneOffset(track, track.lanes.size(), s, expanded) + MarkRowHeight(track, s));
  if (track.marks.empty()) return;
  const float my0 = top + LaneOffset(track, track.lanes.size(), s, expanded);
  const float tick_h = 10.0f * s;
  if (track.rate_curve && !draw.rate.empty()) {
    uint32_t peak = *std::max_element(draw.rate.begin(), draw.rate.end());
    if (peak > 0) {
      const float cy1 = my0 + MarkRowHeight(track, s) - 1.0f;
      const float ch = MarkRowHeight(track, s) - tick_h - 4.0f * s;
      std::vector<ImVec2> points;
      points.reserve(draw.rate.size());
      for (size_t k = 0; k < draw.rate.size(); ++k) {
        float x = left + (static_cast<float>(k) + 0.5f) * draw.rate_bucket_px;
        if (x > right) break;
        points.emplace_back(x, cy1 - ch * static_cast<float>(draw.rate[k]) / peak);
      }
      dl->AddPolyline(points.data(), static_cast<int>(points.size()), widgets::RateCurve(), 0,
                      1.5f * s);
      std::string label = PeakRateLabel(draw.peak_per_ms);
      dl->AddText(ImVec2(right - ImGui::CalcTextSize(label.c_str()).x - 4 * s, my0 + tick_h),
                  widgets::RateCurve(), label.c_str());
    }
  }
  for (size_t m = 0; m < track.marks.size() && m < draw.marks.size(); ++m) {
    for (const DrawMark& d : draw.marks[m]) {
      float x = left + d.x;
      if (x < left - 4 || x > right + 4) continue;
      ImU32 color = widgets::MarkColor(MarkStyleOf(doc, track.marks[m], d.first));
      float w = d.count > 1 ? 2.0f * s : 1.0f * s;
      if (track.marks[m].kind == MarkKind::kTdrs) w = 4.0f * s;  // a reset must stand out
      if (track.marks[m].kind == MarkKind::kModeChanges ||
          track.marks[m].kind == MarkKind::kCommits || track.marks[m].kind == MarkKind::kVariants) {
        float cy = my0 + tick_h * 0.5f + 1;
        float r = 4.5f * s;
        if (track.marks[m].kind == MarkKind::kModeChanges) {
          dl->AddQuadFilled(ImVec2(x, cy - r), ImVec2(x + r, cy), ImVec2(x, cy + r),
                            ImVec2(x - r, cy), color);
        } else {
          dl->AddCircleFilled(ImVec2(x, cy), r * 0.8f, color);
        }
      } else {
        dl->AddRectFilled(ImVec2(x - w * 0.5f, my0), ImVec2(x + w * 0.5f + 1, my0 + tick_h), color);
      }
      Selection sel = SelectionOfMark(track, m, d.first, doc);
      if (d.count == 1 && !sel.Empty() && sel == doc.view.selection) {
        dl->AddRect(ImVec2(x - 3 * s, my0 - 1), ImVec2(x + 3 * s, my0 + tick_h + 1),
                    widgets::HoverOutline());
      }
      if (ctx.hover_enabled && Contains(ctx.mouse, x - 3 * s, my0, x + 3 * s, my0 + tick_h)) {
        const MarkLane& times = track.marks[m];
        hit.valid = true;
        hit.track = track_index;
        hit.selection = sel;
        hit.folded = d.count;
        hit.range = {times.Time(d.first), times.Time(d.first + d.count - 1)};
      }
    }
  }
}

}  // namespace app::gui::timeline
