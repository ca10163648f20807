#include "app/gui/widgets/time_ruler.h"

#include <cmath>

#include "app/gui/widgets/palette.h"
#include "app/gui/widgets/time_format.h"

namespace app::gui::widgets {

using core::model::TimeNs;

RulerGrid ChooseRulerGrid(TimeNs start, TimeNs end, float width_px, float target_px) {
  RulerGrid grid;
  if (end <= start || width_px <= 0) return grid;
  double ns_per_px = static_cast<double>(end - start) / width_px;
  double wanted = ns_per_px * target_px;
  double magnitude = std::pow(10.0, std::floor(std::log10(std::max(wanted, 1.0))));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    step = m * magnitude;
    if (step >= wanted) break;
  }
  grid.step = std::max<TimeNs>(1, static_cast<TimeNs>(step));
  TimeNs first = start / grid.step * grid.step;
  if (first < start) first += grid.step;
  grid.first_tick = first;
  return grid;
}

void DrawTimeRuler(ImDrawList* draw, ImVec2 min, ImVec2 max, TimeNs start, TimeNs end,
                   TimeNs origin, float dpi_scale) {
  draw->AddRectFilled(min, max, RulerBackground());
  const float width = max.x - min.x;
  RulerGrid grid = ChooseRulerGrid(start - origin, end - origin, width, 110.0f * dpi_scale);
  const double px_per_ns = width / static_cast<double>(end - start);
  const TimeNs minor = std::max<TimeNs>(1, grid.step / 5);
  TimeNs first_minor = (start - origin) / minor * minor;
  for (TimeNs t = first_minor; t <= end - origin; t += minor) {
    float x = min.x + static_cast<float>((t + origin - start) * px_per_ns);
    if (x < min.x) continue;
    bool major = t % grid.step == 0;
    float h = major ? (max.y - min.y) * 0.45f : (max.y - min.y) * 0.2f;
    draw->AddLine(ImVec2(x, max.y - h), ImVec2(x, max.y), RulerTick());
    if (major) {
      std::string label = FormatTime(t + origin, origin);
      draw->AddText(ImVec2(x + 3.0f * dpi_scale, min.y + 2.0f * dpi_scale), RulerText(),
                    label.c_str());
    }
  }
  draw->AddLine(ImVec2(min.x, max.y - 1), ImVec2(max.x, max.y - 1), RulerTick());
}

void DrawTimeGrid(ImDrawList* draw, ImVec2 min, ImVec2 max, TimeNs start, TimeNs end, TimeNs origin,
                  float dpi_scale) {
  const float width = max.x - min.x;
  RulerGrid grid = ChooseRulerGrid(start - origin, end - origin, width, 110.0f * dpi_scale);
  const double px_per_ns = width / static_cast<double>(end - start);
  for (TimeNs t = grid.first_tick; t <= end - origin; t += grid.step) {
    float x = min.x + static_cast<float>((t + origin - start) * px_per_ns);
    draw->AddLine(ImVec2(x, min.y), ImVec2(x, max.y), IM_COL32(255, 255, 255, 14));
  }
}

}  // namespace app::gui::widgets
