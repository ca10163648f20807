#include "app/gui/views/timeline_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/gui/state/prediction.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/timeline/arrow_painter.h"
#include "app/gui/timeline/track_layout.h"
#include "app/gui/widgets/palette.h"
#include "app/gui/widgets/time_format.h"
#include "app/gui/widgets/time_ruler.h"

namespace app::gui::views {
namespace {

using core::model::TimeNs;
using timeline::Row;

// Arrows and bundles drawn at most in one frame. An arrow is ~40 vertices; a renderer without
// vertex offsets (OpenGL < 3.2) addresses only 65536 vertices per draw list, so the budget is
// smaller there (the rest of the timeline's draw list needs room too). Bundling keeps the
// arrows in view to about (pairs of rows) x (width / 10 px), under the budget on most traces.
constexpr size_t kMaxArrows = 3000;
constexpr size_t kMaxArrowsWith16BitVertexRange = 200;

size_t MaxArrows() {
  const bool vertex_offsets =
      (ImGui::GetIO().BackendFlags & ImGuiBackendFlags_RendererHasVtxOffset) != 0;
  return vertex_offsets ? kMaxArrows : kMaxArrowsWith16BitVertexRange;
}

float Scale() {
  return ImGui::GetFontSize() / 15.0f;
}

TimeNs TimeAtX(const state::ViewState& view, float x, float left, float width) {
  double f = (x - left) / std::max(width, 1.0f);
  return view.visible.start + static_cast<TimeNs>(f * static_cast<double>(view.visible.Length()));
}

bool KeyPressed(int key) {
  return ImGui::IsKeyPressed(key, true);
}

}  // namespace

void TimelineView::UpdateChain(const state::Document& doc, const state::SelectionChain& chain,
                               bool cache_rebuilt) {
  const bool changed = m_chain.generation != chain.generation;
  if (changed) {
    m_chain = timeline::BuildChainOverlay(doc, chain);
    m_scroll_to_track = m_chain.item_track;
  }
  if (changed || cache_rebuilt) {
    timeline::FoldChain(m_chain, m_cache.view(), doc.view.track_hidden, m_chain_draw);
  }
}

void TimelineView::ResizeLabels(float edge, float area_top, bool hovered) {
  const float s = Scale();
  const ImGuiIO& io = ImGui::GetIO();
  const bool on_edge = hovered && io.MousePos.x >= edge - 5.0f * s && io.MousePos.x <= edge &&
                       io.MousePos.y >= area_top;
  if (on_edge && ImGui::IsMouseClicked(0)) m_resizing_labels = true;
  if (m_resizing_labels && !ImGui::IsMouseDown(0)) m_resizing_labels = false;
  if (m_resizing_labels && io.MouseDelta.x != 0) {
    m_label_width = std::clamp(m_label_width + io.MouseDelta.x / s, 80.0f, 2000.0f);
  }
  if (on_edge || m_resizing_labels) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
}

void TimelineView::ScrollRows(const std::vector<Row>& rows, float area_h) {
  // A selection made elsewhere (details panel, --select) whose row is out of sight: bring the
  // row to the upper third of the area.
  for (const Row& row : rows) {
    if (m_scroll_to_track < 0) break;
    if (row.group || row.index != m_scroll_to_track) continue;
    if (row.y < m_scroll_y || row.y + row.height > m_scroll_y + area_h) {
      m_scroll_y = row.y - area_h / 3;
    }
  }
  m_scroll_to_track = -1;  // once: a row in a collapsed group stays where it is
  const float total_h = rows.empty() ? 0.0f : rows.back().y + rows.back().height;
  m_scroll_y = std::clamp(m_scroll_y, 0.0f, std::max(0.0f, total_h - area_h));
}

void TimelineView::Draw(state::Document& doc, const state::SelectionChain& chain) {
  const float s = Scale();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (avail.x < 50 || avail.y < 50) return;
  const float label_w =
      std::clamp(m_label_width * s, 80.0f * s, std::max(80.0f * s, avail.x * 0.6f));
  const float ruler_h = 24.0f * s;
  const float scrollbar_w = 10.0f * s;
  const ImVec2 ruler_min(origin.x + label_w, origin.y);
  const ImVec2 area_min(origin.x + label_w, origin.y + ruler_h);
  const ImVec2 area_max(origin.x + avail.x - scrollbar_w, origin.y + avail.y);
  const float width = area_max.x - area_min.x;
  const float area_h = area_max.y - area_min.y;
  m_area_min = area_min;
  m_area_max = area_max;

  ImGui::InvisibleButton("##timeline", avail,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  const bool hovered = ImGui::IsItemHovered();
  ResizeLabels(origin.x + label_w, area_min.y, hovered);

  timeline::ArrowLod arrow_lod;
  arrow_lod.near_px *= s;
  arrow_lod.max_bundle_px *= s;
  const bool rebuilt = m_cache.Update(doc, width, 3.0f * s, 4.0f * s, arrow_lod);
  if (rebuilt) ++m_rebuilds;
  UpdateChain(doc, chain, rebuilt);
  FoldBaseline(doc, rebuilt);
  m_baseline_outlines = 0;

  std::vector<Row> rows = timeline::LayoutRows(doc.model, doc.view, s);
  const float total_h = rows.empty() ? 0.0f : rows.back().y + rows.back().height;
  ScrollRows(rows, area_h);

  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(origin, ImVec2(origin.x + avail.x, origin.y + avail.y), true);
  dl->AddRectFilled(origin, ImVec2(origin.x + avail.x, origin.y + avail.y),
                    IM_COL32(22, 23, 27, 255));

  // Rows and their backgrounds.
  std::vector<float> track_top(doc.model.tracks.size(), std::numeric_limits<float>::quiet_NaN());
  timeline::TrackHit hit;
  timeline::PaintContext ctx;
  ctx.draw = dl;
  ctx.doc = &doc;
  ctx.view = &m_cache.view();
  ctx.left = area_min.x;
  ctx.width = width;
  ctx.scale = s;
  ctx.mouse = ImGui::GetIO().MousePos;
  ctx.hover_enabled = hovered && m_drag != Drag::kPan && m_drag != Drag::kRange &&
                      ctx.mouse.x >= area_min.x && ctx.mouse.y >= area_min.y;
  dl->PushClipRect(area_min, area_max, true);
  widgets::DrawTimeGrid(dl, area_min, area_max, doc.view.visible.start, doc.view.visible.end,
                        doc.model.start, s);
  int stripe = 0;
  for (const Row& row : rows) {
    float top = area_min.y + row.y - m_scroll_y;
    if (top > area_max.y || top + row.height < area_min.y) {
      ++stripe;
      continue;
    }
    if (row.group) {
      dl->AddRectFilled(ImVec2(area_min.x, top), ImVec2(area_max.x, top + row.height),
                        IM_COL32(44, 48, 58, 255));
      continue;
    }
    dl->AddRectFilled(ImVec2(area_min.x, top), ImVec2(area_max.x, top + row.height),
                      widgets::TrackBackground(stripe++));
    track_top[row.index] = top;
    timeline::PaintTrack(ctx, row.index, m_cache.Track(row.index), top, row.height, row.expanded,
                         hit);
    m_baseline_outlines += PaintBaseline(doc, row, top, dl, area_min.x);
  }
  // The selected item's chain over the boxes of the rows in sight.
  m_chain_bands = timeline::PaintChainSteps(ctx, m_chain_draw, track_top);
  // Tracks scrolled out of sight still anchor arrows at the area's edge.
  for (const Row& row : rows) {
    if (row.group || !std::isnan(track_top[row.index])) continue;
    float top = area_min.y + row.y - m_scroll_y;
    track_top[row.index] = std::clamp(top, area_min.y - 11.0f * s, area_max.y);
  }
  m_vsync_lines =
      doc.view.show_vsync
          ? timeline::PaintVsyncLines(
                ctx, m_cache, timeline::AdapterStretches(doc.model, rows, area_min.y - m_scroll_y))
          : 0;
  // The arrows of the box under the mouse are drawn in full.
  const state::Selection hovered_item =
      hit.valid && hit.folded <= 1 ? hit.selection : state::Selection{};
  m_links = doc.view.show_arrows ? timeline::PaintLinks(ctx, m_cache, track_top, hovered_item,
                                                        m_chain_draw, MaxArrows(), hit)
                                 : timeline::LinkPaintCounts{};

  // Selected range, bookmarks, cursor.
  const auto& lod = m_cache.view();
  if (doc.view.selected_range.Valid()) {
    float x0 = area_min.x + static_cast<float>(lod.ToPx(doc.view.selected_range.start));
    float x1 = area_min.x + static_cast<float>(lod.ToPx(doc.view.selected_range.end));
    dl->AddRectFilled(ImVec2(x0, area_min.y), ImVec2(x1, area_max.y), widgets::SelectionFill());
    dl->AddLine(ImVec2(x0, area_min.y), ImVec2(x0, area_max.y), widgets::SelectionEdge());
    dl->AddLine(ImVec2(x1, area_min.y), ImVec2(x1, area_max.y), widgets::SelectionEdge());
  }
  for (const auto& mark : doc.view.bookmarks) {
    float x = area_min.x + static_cast<float>(lod.ToPx(mark.ts));
    dl->AddLine(ImVec2(x, area_min.y), ImVec2(x, area_max.y), widgets::BookmarkColor(), 1.5f);
  }
  if (hovered && ctx.mouse.x >= area_min.x) {
    dl->AddLine(ImVec2(ctx.mouse.x, area_min.y), ImVec2(ctx.mouse.x, area_max.y),
                widgets::CursorLine());
  }
  dl->PopClipRect();

  // Ruler (and the selected range on it), then the label column on top of everything.
  widgets::DrawTimeRuler(dl, ruler_min, ImVec2(area_max.x, area_min.y), doc.view.visible.start,
                         doc.view.visible.end, doc.model.start, s);
  if (doc.view.selected_range.Valid()) {
    float x0 = area_min.x + static_cast<float>(lod.ToPx(doc.view.selected_range.start));
    float x1 = area_min.x + static_cast<float>(lod.ToPx(doc.view.selected_range.end));
    dl->AddRectFilled(ImVec2(std::max(x0, area_min.x), ruler_min.y),
                      ImVec2(std::min(x1, area_max.x), area_min.y), widgets::SelectionEdge());
    std::string len = widgets::FormatDuration(doc.view.selected_range.Length());
    dl->AddText(ImVec2(std::max(x0, area_min.x) + 3, ruler_min.y + 4 * s), IM_COL32_WHITE,
                len.c_str());
  }
  for (const auto& mark : doc.view.bookmarks) {
    float x = area_min.x + static_cast<float>(lod.ToPx(mark.ts));
    if (x >= area_min.x && x <= area_max.x) {
      dl->AddTriangleFilled(ImVec2(x - 5 * s, ruler_min.y), ImVec2(x + 5 * s, ruler_min.y),
                            ImVec2(x, ruler_min.y + 8 * s), widgets::BookmarkColor());
    }
  }
  // Corner: visible span and what the LOD did.
  dl->AddRectFilled(origin, ImVec2(area_min.x, area_min.y), widgets::RulerBackground());
  std::string corner =
      fmt::format("{} shown", widgets::FormatDuration(doc.view.visible.Length(), 2));
  dl->AddText(ImVec2(origin.x + 6 * s, origin.y + 4 * s), widgets::RulerText(), corner.c_str());
  DrawLabels(doc, rows, origin, label_w, m_scroll_y, area_min.y, area_max.y);

  // Scroll indicator.
  if (total_h > area_h) {
    float bar_h = std::max(area_h * area_h / total_h, 20.0f * s);
    float bar_y = area_min.y + (area_h - bar_h) * (m_scroll_y / (total_h - area_h));
    dl->AddRectFilled(ImVec2(area_max.x + 2 * s, bar_y),
                      ImVec2(area_max.x + scrollbar_w, bar_y + bar_h), IM_COL32(110, 115, 130, 200),
                      3.0f);
  }
  if (m_links.held_back && doc.view.show_arrows) {
    std::string note = fmt::format("{} arrows in view: zoom in to see them", m_links.in_range);
    dl->AddText(ImVec2(area_min.x + 6 * s, area_max.y - ImGui::GetFontSize() - 4 * s),
                IM_COL32(230, 230, 160, 220), note.c_str());
  }
  dl->PopClipRect();

  if (!m_resizing_labels) HandleInput(doc, area_min, area_max, ruler_min, hit);
  if (hit.valid && m_drag == Drag::kNone && !ImGui::IsPopupOpen("##whatif_menu")) {
    DrawTooltip(doc, hit);
  }
  DrawContextMenu();
}

void TimelineView::FoldBaseline(const state::Document& doc, bool cache_rebuilt) {
  if (!doc.prediction) {
    m_baseline.clear();
    m_baseline_doc = nullptr;
    return;
  }
  if (!cache_rebuilt && m_baseline_doc == &doc) return;
  m_baseline_doc = &doc;
  const auto& baseline = doc.prediction->baseline;
  m_baseline.assign(doc.model.tracks.size(), {});
  for (size_t t = 0; t < doc.model.tracks.size(); ++t) {
    const auto& track = doc.model.tracks[t];
    if (track.kind != timeline::TrackKind::kQueue || track.id >= baseline.size()) continue;
    if (t < doc.view.track_hidden.size() && doc.view.track_hidden[t]) continue;
    timeline::FoldSpans(baseline[track.id], m_cache.view(), m_baseline[t]);
  }
}

size_t TimelineView::PaintBaseline(const state::Document& doc, const timeline::Row& row,
                                   float top, ImDrawList* dl, float left) {
  if (row.group || static_cast<size_t>(row.index) >= m_baseline.size()) return 0;
  const auto& spans = m_baseline[row.index];
  if (spans.empty()) return 0;
  const auto& track = doc.model.tracks[row.index];
  size_t lane = 0;
  while (lane < track.lanes.size() && track.lanes[lane].kind != timeline::LaneKind::kRunSegments)
    ++lane;
  if (lane == track.lanes.size()) return 0;
  const float s = Scale();
  const float y0 = top + timeline::LaneOffset(track, lane, s, row.expanded);
  const float y1 = y0 + timeline::LaneHeight(timeline::LaneKind::kRunSegments, s);
  for (const timeline::DrawSpan& span : spans) {
    dl->AddRect(ImVec2(left + span.x0, y0), ImVec2(left + std::max(span.x1, span.x0 + 1.0f), y1),
                widgets::BaselineOutline(), 0.0f, 0, 1.5f * s);
  }
  return spans.size();
}

void TimelineView::DrawContextMenu() {
  if (!ImGui::BeginPopup("##whatif_menu")) return;
  if (m_questions.empty()) ImGui::TextDisabled("No what-if question about this item");
  for (const auto& q : m_questions) {
    if (ImGui::MenuItem(q.label.c_str())) m_question = q;
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("replays the trace with %s", q.edits.Describe().c_str());
    }
  }
  ImGui::EndPopup();
}

void TimelineView::DrawLabels(state::Document& doc, const std::vector<Row>& rows, ImVec2 origin,
                              float width, float scroll_y, float area_top, float area_bottom) {
  const float s = Scale();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(ImVec2(origin.x, area_top), ImVec2(origin.x + width, area_bottom), true);
  dl->AddRectFilled(ImVec2(origin.x, area_top), ImVec2(origin.x + width, area_bottom),
                    IM_COL32(28, 30, 36, 255));
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool clicked = ImGui::IsMouseClicked(0) && ImGui::IsItemHovered() && !m_resizing_labels;
  const bool right_clicked = ImGui::IsMouseClicked(1) && ImGui::IsItemHovered();
  // A name cut off by the column's edge is shown whole in a tooltip.
  auto whole_on_hover = [&](bool inside, float text_x, const std::string& text,
                            const std::string& full_name) {
    if (!inside || m_resizing_labels || !ImGui::IsItemHovered()) return;
    if (!full_name.empty()) {
      ImGui::SetTooltip("%s", full_name.c_str());
    } else if (text_x + ImGui::CalcTextSize(text.c_str()).x > origin.x + width - 4 * s) {
      ImGui::SetTooltip("%s", text.c_str());
    }
  };
  for (const Row& row : rows) {
    float top = area_top + row.y - scroll_y;
    if (top > area_bottom || top + row.height < area_top) continue;
    float x = origin.x + 6 * s + row.depth * 14.0f * s;
    bool inside = mouse.x >= origin.x && mouse.x < origin.x + width && mouse.y >= top &&
                  mouse.y < top + row.height;
    if (row.group) {
      const auto& group = doc.model.groups[row.index];
      bool collapsed = row.index < static_cast<int>(doc.view.group_collapsed.size()) &&
                       doc.view.group_collapsed[row.index];
      dl->AddRectFilled(ImVec2(origin.x, top), ImVec2(origin.x + width, top + row.height),
                        IM_COL32(44, 48, 58, 255));
      float cy = top + row.height * 0.5f;
      float r = 4.0f * s;
      if (collapsed) {
        dl->AddTriangleFilled(ImVec2(x, cy - r), ImVec2(x + r * 1.6f, cy), ImVec2(x, cy + r),
                              widgets::TrackHeaderText());
      } else {
        dl->AddTriangleFilled(ImVec2(x - 1, cy - r * 0.7f), ImVec2(x + 2 * r, cy - r * 0.7f),
                              ImVec2(x + r, cy + r * 0.9f), widgets::TrackHeaderText());
      }
      dl->AddText(ImVec2(x + 14 * s, top + (row.height - ImGui::GetFontSize()) * 0.5f),
                  IM_COL32(240, 240, 245, 255), group.label.c_str());
      whole_on_hover(inside, x + 14 * s, group.label, {});
      if (inside && clicked && row.index < static_cast<int>(doc.view.group_collapsed.size())) {
        doc.view.group_collapsed[row.index] ^= 1;
        ++doc.view.layout_generation;
      }
    } else {
      const auto& track = doc.model.tracks[row.index];
      dl->AddText(ImVec2(x + 14 * s, top + 4 * s), widgets::TrackHeaderText(), track.label.c_str());
      whole_on_hover(inside, x + 14 * s, track.label, track.full_name);
      size_t hidden = timeline::HiddenLanes(track, row.expanded);
      bool expandable = row.expanded || hidden > 0;
      if (expandable) {
        std::string note = row.expanded ? std::string("all lanes (click to fold)")
                                        : fmt::format("+{} lanes (click)", hidden);
        dl->AddText(ImVec2(x + 14 * s, top + 4 * s + ImGui::GetFontSize()),
                    IM_COL32(150, 155, 170, 255), note.c_str());
      }
      if (inside && clicked && expandable) {
        doc.view.track_expanded[row.index] ^= 1;
        ++doc.view.layout_generation;
      }
      dl->AddLine(ImVec2(origin.x, top + row.height - 1),
                  ImVec2(origin.x + width, top + row.height - 1), IM_COL32(50, 53, 62, 255));
      if (inside && right_clicked) {
        doc.view.track_hidden[row.index] = 1;
        ++doc.view.layout_generation;
      }
    }
  }
  dl->AddLine(ImVec2(origin.x + width - 1, area_top), ImVec2(origin.x + width - 1, area_bottom),
              IM_COL32(70, 74, 86, 255));
  dl->PopClipRect();
}

void TimelineView::HandleInput(state::Document& doc, ImVec2 area_min, ImVec2 area_max,
                               ImVec2 ruler_min, const timeline::TrackHit& hit) {
  ImGuiIO& io = ImGui::GetIO();
  const bool hovered = ImGui::IsItemHovered();
  const float width = area_max.x - area_min.x;
  const ImVec2 mouse = io.MousePos;
  const bool in_time_area = mouse.x >= area_min.x && mouse.x <= area_max.x;
  const bool in_ruler = in_time_area && mouse.y >= ruler_min.y && mouse.y < area_min.y;
  const TimeNs mouse_t = TimeAtX(doc.view, mouse.x, area_min.x, width);
  auto& view = doc.view;

  if (hovered && io.MouseWheel != 0.0f) {
    if (io.KeyShift || !in_time_area) {
      m_scroll_y -= io.MouseWheel * 60.0f * Scale();
    } else {
      state::ZoomAround(view, mouse_t, std::pow(0.8, io.MouseWheel));
    }
  }
  if (hovered && in_time_area && (ImGui::IsMouseClicked(0) || ImGui::IsMouseClicked(1))) {
    m_drag = Drag::kPending;
    m_press = mouse;
    m_press_right = ImGui::IsMouseClicked(1);
    m_press_range = m_press_right || io.KeyShift || in_ruler;
    m_drag_anchor = mouse_t;
    m_pan_origin = view.visible;
  }
  if (m_drag != Drag::kNone && (ImGui::IsMouseDown(0) || ImGui::IsMouseDown(1))) {
    float dx = mouse.x - m_press.x;
    float dy = mouse.y - m_press.y;
    if (m_drag == Drag::kPending && dx * dx + dy * dy > 9.0f) {
      m_drag = m_press_range ? Drag::kRange : Drag::kPan;
    }
    if (m_drag == Drag::kPan) {
      double ns_per_px = static_cast<double>(m_pan_origin.Length()) / std::max(width, 1.0f);
      view.visible = m_pan_origin;
      state::Pan(view, static_cast<TimeNs>(-dx * ns_per_px));
      m_scroll_y -= io.MouseDelta.y;
    } else if (m_drag == Drag::kRange) {
      view.selected_range = {std::min(m_drag_anchor, mouse_t), std::max(m_drag_anchor, mouse_t)};
    }
  }
  if (m_drag != Drag::kNone && !ImGui::IsMouseDown(0) && !ImGui::IsMouseDown(1)) {
    if (m_drag == Drag::kPending && !m_press_range) {
      view.selection = hit.valid && hit.folded <= 1 ? hit.selection : state::Selection{};
      if (hit.valid && hit.folded > 1) state::ZoomTo(view, hit.range);
    }
    // A right click without a drag: the what-if questions about the item under the mouse.
    if (m_drag == Drag::kPending && m_press_right && hit.valid && hit.folded <= 1 &&
        !hit.bundle) {
      m_questions = state::QuestionsAbout(doc, hit.selection);
      ImGui::OpenPopup("##whatif_menu");
    }
    m_drag = Drag::kNone;
  }
  if (hovered && ImGui::IsMouseDoubleClicked(0) && hit.valid) {
    state::ZoomTo(view, hit.folded > 1 ? hit.range : state::SelectionTimeRange(doc, hit.selection));
  }

  const bool keys = (hovered || ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) &&
                    !io.WantTextInput;
  if (!keys) return;
  const TimeNs center = view.visible.start + view.visible.Length() / 2;
  const TimeNs pivot = hovered && in_time_area ? mouse_t : center;
  if (KeyPressed('W')) state::ZoomAround(view, pivot, 0.8);
  if (KeyPressed('S')) state::ZoomAround(view, pivot, 1.25);
  if (KeyPressed('A')) state::Pan(view, -view.visible.Length() / 10);
  if (KeyPressed('D')) state::Pan(view, view.visible.Length() / 10);
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home))) state::FitAll(view);
  if (KeyPressed('Z') && view.selected_range.Valid()) state::ZoomTo(view, view.selected_range);
  if (KeyPressed('B')) {
    view.bookmarks.push_back({pivot, fmt::format("bookmark {}", view.bookmarks.size() + 1)});
  }
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    view.selection = {};
    view.selected_range = {};
  }
}

void TimelineView::DrawTooltip(const state::Document& doc, const timeline::TrackHit& hit) {
  ImGui::BeginTooltip();
  if (hit.bundle) {
    ImGui::Text("%u signal -> wait arrows bundled (their signals are too close to tell apart)",
                hit.folded);
    ImGui::Text("%s .. %s", widgets::FormatTime(hit.range.start, doc.model.start).c_str(),
                widgets::FormatTime(hit.range.end, doc.model.start).c_str());
    ImGui::TextDisabled("click or double-click to zoom in");
  } else if (hit.folded > 1) {
    ImGui::Text("%u items folded (narrower than 3 px)", hit.folded);
    ImGui::Text("%s .. %s", widgets::FormatTime(hit.range.start, doc.model.start).c_str(),
                widgets::FormatTime(hit.range.end, doc.model.start).c_str());
    ImGui::TextDisabled("click or double-click to zoom in");
  } else {
    ImGui::TextUnformatted(state::SelectionTitle(doc, hit.selection).c_str());
    state::TimeRange range = state::SelectionTimeRange(doc, hit.selection);
    ImGui::Text("at %s", widgets::FormatTime(range.start, doc.model.start).c_str());
    if (range.Length() > 0) {
      ImGui::Text("duration %s", widgets::FormatDuration(range.Length()).c_str());
    }
    ImGui::TextDisabled("click: details   double-click: zoom to it");
  }
  ImGui::EndTooltip();
}

}  // namespace app::gui::views
