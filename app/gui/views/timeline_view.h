// The timeline window: track tree on the left, time ruler on top, tracks with packets, fence
// boxes, arrows, interrupts and background tasks. Navigation as in GPUView / Perfetto / Tracy:
//   wheel            zoom around the cursor (Shift+wheel or wheel over the labels: scroll rows)
//   drag (left)      pan                 drag (right), Shift+drag, drag on the ruler: select range
//   click            select              double-click   zoom to the item
//   W / S            zoom in / out       A / D          pan left / right
//   Home             fit the trace       Z              zoom to the selected range
//   B                bookmark at the cursor             Esc  clear selection and range
//   drag the right edge of the row names to widen them; hover a cut-off name to read it whole
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "app/gui/state/document.h"
#include "app/gui/state/selection_chain.h"
#include "app/gui/state/whatif_question.h"
#include "app/gui/timeline/arrow_painter.h"
#include "app/gui/timeline/chain_overlay.h"
#include "app/gui/timeline/draw_cache.h"
#include "app/gui/timeline/track_layout.h"
#include "app/gui/timeline/track_painter.h"

namespace app::gui::views {

class TimelineView {
 public:
  // Draws into the current ImGui window region (the caller sizes it), with the chain of causes
  // of the selected item (`chain`, kept up to date by the caller) highlighted.
  void Draw(state::Document& doc, const state::SelectionChain& chain);
  const timeline::DrawCache& cache() const { return m_cache; }
  // What the arrows of the last frame drew.
  const timeline::LinkPaintCounts& links() const { return m_links; }
  // VSync lines drawn in the last frame.
  size_t vsync_lines() const { return m_vsync_lines; }
  // Bands of the selected item's chain drawn in the last frame (its arrows: links().chain).
  size_t chain_bands() const { return m_chain_bands; }
  // Frames in which the draw lists were rebuilt (view changed) since creation.
  uint64_t rebuilds() const { return m_rebuilds; }
  // How far the rows are scrolled down (unscaled rows' y at the top of the time area).
  float scroll_y() const { return m_scroll_y; }
  // Screen rectangle of the time area in the last frame (tests drive the mouse with it).
  ImVec2 area_min() const { return m_area_min; }
  ImVec2 area_max() const { return m_area_max; }
  // Width of the row-name column, unscaled pixels; the user drags its right edge to change it.
  float label_width() const { return m_label_width; }
  void set_label_width(float width) { m_label_width = width; }
  // The what-if question picked from an item's context menu (right-click), once.
  std::optional<state::WhatIfQuestion> TakeQuestion() {
    auto q = std::move(m_question);
    m_question.reset();
    return q;
  }
  // Outlines of the original's packets drawn in the last frame (a prediction tab only).
  size_t baseline_outlines() const { return m_baseline_outlines; }

 private:
  void DrawLabels(state::Document& doc, const std::vector<timeline::Row>& rows, ImVec2 origin,
                  float width, float scroll_y, float area_top, float area_bottom);
  // The row names' right edge (screen x `edge`): drag it to resize the column.
  void ResizeLabels(float edge, float area_top, bool hovered);
  // Clamps the rows' scroll, after bringing a new chain's item row into sight.
  void ScrollRows(const std::vector<timeline::Row>& rows, float area_h);
  void HandleInput(state::Document& doc, ImVec2 area_min, ImVec2 area_max, ImVec2 ruler_min,
                   const timeline::TrackHit& hit);
  void DrawTooltip(const state::Document& doc, const timeline::TrackHit& hit);
  // The context menu of the item right-clicked: the what-if questions about it.
  void DrawContextMenu();
  // A prediction tab: the original's run segments folded for the view (when the draw cache
  // was rebuilt), then drawn as outlines over the rows in sight.
  void FoldBaseline(const state::Document& doc, bool cache_rebuilt);
  size_t PaintBaseline(const state::Document& doc, const timeline::Row& row, float top,
                       ImDrawList* dl, float left);

  // Rebuilds the chain's rows and arrows when the chain changed, and its draw items when the
  // chain or the draw cache did.
  void UpdateChain(const state::Document& doc, const state::SelectionChain& chain,
                   bool cache_rebuilt);

  timeline::DrawCache m_cache;
  timeline::ChainOverlay m_chain;
  timeline::ChainDraw m_chain_draw;
  int m_scroll_to_track = -1;  // a new chain's item row, brought into sight once if it is not
  size_t m_chain_bands = 0;
  uint64_t m_rebuilds = 0;
  float m_scroll_y = 0;
  // Mouse gesture in progress.
  enum class Drag : uint8_t { kNone, kPending, kPan, kRange };
  Drag m_drag = Drag::kNone;
  ImVec2 m_press{};
  bool m_press_range = false;  // the press asked for a range (right button, Shift, ruler)
  bool m_press_right = false;  // the press was the right button (a click opens the menu)
  std::vector<state::WhatIfQuestion> m_questions;  // the open context menu's
  std::optional<state::WhatIfQuestion> m_question;  // picked, not yet taken
  // [track index]: the original's packets of a prediction tab, folded for the view.
  std::vector<std::vector<timeline::DrawSpan>> m_baseline;
  const state::Document* m_baseline_doc = nullptr;
  size_t m_baseline_outlines = 0;
  core::model::TimeNs m_drag_anchor = 0;
  state::TimeRange m_pan_origin;
  timeline::LinkPaintCounts m_links;
  size_t m_vsync_lines = 0;
  ImVec2 m_area_min{}, m_area_max{};
  float m_label_width = 280.0f;
  bool m_resizing_labels = false;  // the label column's edge is being dragged
};

}  // namespace app::gui::views
