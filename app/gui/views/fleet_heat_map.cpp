#include "app/gui/views/fleet_heat_map.h"

#include <imgui.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "core/report/svg_chart.h"

namespace app::gui::views {
namespace {

constexpr float kMinCellWidth = 30.0f;  // wide enough for a three-digit step id
constexpr float kCellHeight = 20.0f;
constexpr float kLabelWidth = 70.0f;
constexpr float kHeaderHeight = 22.0f;

// Light for the step's fastest rank to red for its slowest.
ImU32 CellColor(const core::fleet::StepRow& step, size_t rank) {
  const double span = static_cast<double>(step.step_ns_max - step.step_ns_min);
  const float f =
      span > 0 ? static_cast<float>((step.step_ns[rank] - step.step_ns_min) / span) : 0.0f;
  return ImGui::GetColorU32(ImVec4(1.0f, 0.92f - 0.8f * f, 0.92f - 0.8f * f, 1.0f));
}

}  // namespace

// Steps are sorted by id: the widest id is the first (the most negative) or the last.
float HeatMapColumnWidth(const core::fleet::FleetAnalysis& a) {
  float widest = 0.0f;
  for (const core::fleet::StepRow* step : {&a.steps.front(), &a.steps.back()}) {
    widest = std::max(widest, ImGui::CalcTextSize(std::to_string(step->step).c_str()).x);
  }
  return std::max(kMinCellWidth, std::ceil(widest) + 8.0f);
}

std::optional<HeatMapCell> DrawHeatMap(const core::fleet::FleetAnalysis& a) {
  using core::report::FormatDuration;
  std::optional<HeatMapCell> clicked;
  const char* unit = core::fleet::TraceName(a.options.traces_are);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "%s x step, light = the step's fastest %s, red = its slowest; S = the "
      "straggler. Click a cell to open that %s at that step.",
      a.options.traces_are == core::fleet::TracesAre::kRuns ? "Run" : "Rank", unit, unit);
  ImGui::PopStyleColor();
  if (a.ranks.empty() || a.steps.empty()) {
    ImGui::TextDisabled("No step matched on every %s (the Ranks tab compares whole traces).", unit);
    return clicked;
  }
  ImGui::BeginChild("heat map", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const float cell_width = HeatMapColumnWidth(a);
  const ImVec2 origin = ImGui::GetCursorScreenPos();  // of the whole grid, scrolled
  const ImVec2 grid(kLabelWidth + cell_width * static_cast<float>(a.steps.size()),
                    kHeaderHeight + kCellHeight * static_cast<float>(a.ranks.size()));
  ImGui::InvisibleButton("cells", grid);
  const bool hovered = ImGui::IsItemHovered();
  const bool pressed = ImGui::IsItemClicked(0);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 view_min = ImGui::GetWindowPos();
  const ImVec2 view_max(view_min.x + ImGui::GetWindowSize().x,
                        view_min.y + ImGui::GetWindowSize().y);
  // The visible cells only.
  auto first_of = [](float from, float cell) {
    return static_cast<size_t>(std::max(0.0f, std::floor(from / cell)));
  };
  const size_t s0 = first_of(view_min.x - origin.x - kLabelWidth, cell_width);
  const size_t s1 =
      std::min(a.steps.size(), first_of(view_max.x - origin.x - kLabelWidth, cell_width) + 1);
  const size_t r0 = first_of(view_min.y - origin.y - kHeaderHeight, kCellHeight);
  const size_t r1 = std::min(a.ranks.size(),
                             first_of(view_max.y - origin.y - kHeaderHeight, kCellHeight) + 1);
  const ImU32 dark = IM_COL32(25, 25, 25, 255);
  const ImU32 border = ImGui::GetColorU32(ImGuiCol_Border);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 header_bg = ImGui::GetColorU32(ImGuiCol_WindowBg);
  const float cells_left = std::max(origin.x + kLabelWidth, view_min.x + kLabelWidth);
  const float cells_top = std::max(origin.y + kHeaderHeight, view_min.y + kHeaderHeight);
  dl->PushClipRect(ImVec2(cells_left, cells_top), view_max, true);
  for (size_t r = r0; r < r1; ++r) {
    const float y = origin.y + kHeaderHeight + kCellHeight * static_cast<float>(r);
    for (size_t s = s0; s < s1; ++s) {
      const float x = origin.x + kLabelWidth + cell_width * static_cast<float>(s);
      const core::fleet::StepRow& step = a.steps[s];
      dl->AddRectFilled(ImVec2(x, y), ImVec2(x + cell_width, y + kCellHeight), CellColor(step, r));
      dl->AddRect(ImVec2(x, y), ImVec2(x + cell_width + 1, y + kCellHeight + 1), border);
      if (step.straggler.rank == a.ranks[r].rank) {
        dl->AddText(ImVec2(x + cell_width / 2 - 4, y + 3), dark, "S");
      }
    }
  }
  dl->PopClipRect();
  // The step row and the rank column stay in view.
  const float header_y = std::max(origin.y, view_min.y);
  const float label_x = std::max(origin.x, view_min.x);
  dl->AddRectFilled(ImVec2(view_min.x, header_y), ImVec2(view_max.x, header_y + kHeaderHeight),
                    header_bg);
  dl->PushClipRect(ImVec2(cells_left, header_y), ImVec2(view_max.x, header_y + kHeaderHeight),
                   true);
  for (size_t s = s0; s < s1; ++s) {
    const float x = origin.x + kLabelWidth + cell_width * static_cast<float>(s);
    dl->AddText(ImVec2(x + 3, header_y + 3), text, std::to_string(a.steps[s].step).c_str());
  }
  dl->PopClipRect();
  dl->AddRectFilled(ImVec2(label_x, view_min.y), ImVec2(label_x + kLabelWidth, view_max.y),
                    header_bg);
  dl->AddText(ImVec2(label_x + 4, header_y + 3), text, unit);
  dl->PushClipRect(ImVec2(label_x, cells_top), ImVec2(label_x + kLabelWidth, view_max.y), true);
  for (size_t r = r0; r < r1; ++r) {
    const float y = origin.y + kHeaderHeight + kCellHeight * static_cast<float>(r);
    dl->AddText(ImVec2(label_x + 4, y + 3), text,
                std::to_string(a.ranks[r].rank).c_str());
  }
  dl->PopClipRect();

  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (hovered && mouse.x >= cells_left && mouse.y >= cells_top) {
    const auto s = static_cast<size_t>((mouse.x - origin.x - kLabelWidth) / cell_width);
    const auto r = static_cast<size_t>((mouse.y - origin.y - kHeaderHeight) / kCellHeight);
    if (s < a.steps.size() && r < a.ranks.size()) {
      const core::fleet::StepRow& step = a.steps[s];
      const bool straggler = step.straggler.rank == a.ranks[r].rank;
      ImGui::SetTooltip("%s %lld, step %lld: %s%s\nclick to open this %s at this step", unit,
                        static_cast<long long>(a.ranks[r].rank), static_cast<long long>(step.step),
                        FormatDuration(static_cast<double>(step.step_ns[r])).c_str(),
                        straggler ? " (the straggler)" : "", unit);
      if (pressed) clicked = HeatMapCell{r, s};
    }
  }
  ImGui::EndChild();
  return clicked;
}

}  // namespace app::gui::views
