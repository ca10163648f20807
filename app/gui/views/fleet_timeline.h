// The fleet's ranks as tracks on one time axis (core::fleet::FleetAnalysis::lanes, on the
// reference rank's clock): per rank its steps (upper bar) and its collectives (lower bar), the
// part of a collective spent waiting for later ranks in red and the collective the others
// waited for (the straggler's) in orange. The wheel zooms around the mouse (Shift+wheel
// scrolls the ranks), dragging pans, hovering names an item, clicking a step asks to open that
// rank's trace at that step. Nothing is computed here but screen positions, and those only when
// the visible range or the width changes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/fleet/fleet_analysis.h"

namespace app::gui::views {

class FleetTimeline {
 public:
  struct Click {
    size_t rank = 0;  // index into analysis.ranks / lanes
    size_t step = 0;  // index into lanes[rank].steps
  };
  // Draws into the current window, filling the space left; returns a step clicked this frame.
  std::optional<Click> Draw(const core::fleet::FleetAnalysis& a);

  // Shows every lane (done on the first Draw).
  void FitAll(const core::fleet::FleetAnalysis& a);
  void SetVisible(core::model::TimeNs start, core::model::TimeNs end);
  core::model::TimeNs visible_start() const { return m_start; }
  core::model::TimeNs visible_end() const { return m_end; }

  enum class Kind : uint8_t { kStep, kCollective, kWaiting, kStragglerCollective };
  // One box on screen, x relative to the time area's left edge. Boxes under a pixel wide that
  // touch the one before of the same kind on the same rank are merged into it (`index`: the
  // first one's, into lanes[rank].steps or .collectives).
  struct Item {
    float x0 = 0, x1 = 0;
    uint32_t rank = 0;
    Kind kind = Kind::kStep;
    uint32_t index = 0;
  };
  // The boxes of the visible range at `width` pixels, by rank: what Draw shows (tests call it).
  const std::vector<Item>& Items(const core::fleet::FleetAnalysis& a, float width);

 private:
  void Rebuild(const core::fleet::FleetAnalysis& a, float width);
  const Item* ItemAt(uint32_t rank, float x, bool steps) const;

  core::model::TimeNs m_start = 0, m_end = 0;
  bool m_fitted = false;
  std::vector<Item> m_items;
  std::vector<size_t> m_rank_begin;  // m_items of rank r: [m_rank_begin[r], m_rank_begin[r+1])
  core::model::TimeNs m_built_start = -1, m_built_end = -1;
  float m_built_width = -1;
  // Dragging to pan
  bool m_pressed = false, m_dragging = false;
  float m_press_x = 0, m_press_y = 0;
  core::model::TimeNs m_press_start = 0, m_press_end = 0;
};

}  // namespace app::gui::views
