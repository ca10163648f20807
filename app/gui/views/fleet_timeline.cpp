#include "app/gui/views/fleet_timeline.h"

#include <imgui.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/report/svg_chart.h"

namespace app::gui::views {
namespace {

using core::model::TimeNs;

constexpr float kLabelWidth = 80.0f;
constexpr float kAxisHeight = 22.0f;
constexpr float kRowHeight = 30.0f;
constexpr float kStepTop = 3.0f, kStepBottom = 15.0f;
constexpr float kCollectiveTop = 17.0f, kCollectiveBottom = 27.0f;

ImU32 KindColor(FleetTimeline::Kind kind, bool odd_step, bool matched) {
  switch (kind) {
    case FleetTimeline::Kind::kStep: {
      const int a = matched ? 255 : 110;
      return odd_step ? IM_COL32(96, 140, 190, a) : IM_COL32(120, 170, 220, a);
    }
    case FleetTimeline::Kind::kCollective:
      return IM_COL32(70, 170, 120, 255);
    case FleetTimeline::Kind::kWaiting:
      return IM_COL32(215, 70, 60, 255);
    case FleetTimeline::Kind::kStragglerCollective:
      return IM_COL32(240, 150, 30, 255);
  }
  return IM_COL32_WHITE;
}

// A tick spacing of 1, 2 or 5 times a power of ten nanoseconds, about `px` pixels apart.
double TickSpacing(double ns_per_px, double px) {
  const double raw = std::max(ns_per_px * px, 1.0);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10.0 * power;
}

}  // namespace

void FleetTimeline::FitAll(const core::fleet::FleetAnalysis& a) {
  const TimeNs pad = std::max<TimeNs>(1, (a.lanes_end_ns - a.lanes_start_ns) / 50);
  SetVisible(a.lanes_start_ns - pad, a.lanes_end_ns + pad);
  m_fitted = true;
}

void FleetTimeline::SetVisible(TimeNs start, TimeNs end) {
  m_start = start;
  m_end = std::max(end, start + 1);
}

const std::vector<FleetTimeline::Item>& FleetTimeline::Items(const core::fleet::FleetAnalysis& a,
                                                             float width) {
  if (!m_fitted) FitAll(a);
  if (m_built_start != m_start || m_built_end != m_end || m_built_width != width) {
    Rebuild(a, width);
  }
  return m_items;
}

void FleetTimeline::Rebuild(const core::fleet::FleetAnalysis& a, float width) {
  m_built_start = m_start, m_built_end = m_end, m_built_width = width;
  m_items.clear();
  m_rank_begin.assign(1, 0);
  const double px_per_ns = width / static_cast<double>(m_end - m_start);
  auto x_of = [&](TimeNs t) { return static_cast<float>((t - m_start) * px_per_ns); };
  for (size_t r = 0; r < a.lanes.size(); ++r) {
    const core::fleet::RankLane& lane = a.lanes[r];
    auto add = [&](TimeNs start, TimeNs end, Kind kind, size_t index) {
      if (end < m_start || start > m_end) return;
      Item item{std::max(x_of(start), -1.0f), std::min(x_of(end), width + 1.0f),
                static_cast<uint32_t>(r), kind, static_cast<uint32_t>(index)};
      // Boxes under a pixel that touch the previous one of their kind join it.
      for (size_t k = m_items.size(); k > m_rank_begin.back(); --k) {
        Item& before = m_items[k - 1];
        if (before.kind != kind) continue;
        if (item.x1 - item.x0 < 1.0f && item.x0 <= before.x1 + 1.0f) {
          before.x1 = std::max(before.x1, item.x1);
          return;
        }
        break;
      }
      m_items.push_back(item);
    };
    // Steps: from the first that may reach into the range (steps of one rank do not overlap).
    auto first_step = std::partition_point(
        lane.steps.begin(), lane.steps.end(),
        [&](const core::fleet::LaneStep& s) { return s.end_ns < m_start; });
    for (auto it = first_step; it != lane.steps.end() && it->start_ns <= m_end; ++it) {
      add(it->start_ns, it->end_ns, Kind::kStep, static_cast<size_t>(it - lane.steps.begin()));
    }
    for (size_t i = 0; i < lane.collectives.size(); ++i) {
      const core::fleet::LaneCollective& c = lane.collectives[i];
      if (c.start_ns > m_end) break;
      const TimeNs waited_until = std::clamp(c.others_arrived, c.start_ns, c.end_ns);
      if (waited_until > c.start_ns) add(c.start_ns, waited_until, Kind::kWaiting, i);
      add(waited_until, c.end_ns,
          c.straggler ? Kind::kStragglerCollective : Kind::kCollective, i);
    }
    m_rank_begin.push_back(m_items.size());
  }
}

const FleetTimeline::Item* FleetTimeline::ItemAt(uint32_t rank, float x, bool steps) const {
  if (rank + 1 >= m_rank_begin.size()) return nullptr;
  const Item* found = nullptr;
  for (size_t k = m_rank_begin[rank]; k < m_rank_begin[rank + 1]; ++k) {
    const Item& item = m_items[k];
    if ((item.kind == Kind::kStep) != steps) continue;
    if (x >= item.x0 - 1.0f && x <= item.x1 + 1.0f) found = &item;
  }
  return found;
}

std::optional<FleetTimeline::Click> FleetTimeline::Draw(const core::fleet::FleetAnalysis& a) {
  using core::report::FormatDuration;
  std::optional<Click> click;
  if (a.lanes.empty()) {
    ImGui::TextDisabled("Nothing to show.");
    return click;
  }
  if (ImGui::SmallButton("Fit all")) FitAll(a);
  ImGui::SameLine();
  const char* unit = core::fleet::TraceName(a.options.traces_are);
  ImGui::TextDisabled(
      "Reference %s %lld's clock (lined up by %s). Upper bar: steps; lower "
      "bar: collectives, red while waiting for later ranks, orange: the one the "
      "others waited for. Wheel zooms, drag pans, click a step to open it.",
      unit, static_cast<long long>(a.reference_rank), a.clock_method.c_str());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float width = std::max(avail.x - kLabelWidth, 50.0f);
  const std::vector<Item>& items = Items(a, width);

  // The axis stays on top; the ranks scroll below it.
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 axis_min = ImGui::GetCursorScreenPos();
  const double ns_per_px = static_cast<double>(m_end - m_start) / width;
  const double tick = TickSpacing(ns_per_px, 110.0);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const ImU32 faint = ImGui::GetColorU32(ImGuiCol_Border);
  {
    const double first =
        std::ceil(static_cast<double>(m_start - a.lanes_start_ns) / tick) * tick;
    for (double t = first; a.lanes_start_ns + t <= m_end; t += tick) {
      const float x = axis_min.x + kLabelWidth +
                      static_cast<float>((a.lanes_start_ns + t - m_start) / ns_per_px);
      dl->AddLine(ImVec2(x, axis_min.y + kAxisHeight - 6), ImVec2(x, axis_min.y + kAxisHeight),
                  faint);
      const double at = std::abs(t) < 0.5 ? 0.0 : t;  // no "-0"
      dl->AddText(ImVec2(x + 2, axis_min.y + 2), text,
                  ((at < 0 ? "-" : "+") + FormatDuration(std::abs(at))).c_str());
    }
    ImGui::Dummy(ImVec2(avail.x, kAxisHeight));
  }

  ImGui::BeginChild("fleet lanes", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float rows_height = kRowHeight * static_cast<float>(a.lanes.size());
  ImGui::InvisibleButton("lanes", ImVec2(std::max(avail.x, 1.0f), std::max(rows_height, 1.0f)));
  const bool hovered = ImGui::IsItemHovered();
  dl = ImGui::GetWindowDrawList();
  const float area_x = origin.x + kLabelWidth;
  const float view_top = ImGui::GetWindowPos().y;
  const float view_bottom = view_top + ImGui::GetWindowSize().y;
  const size_t first_row =
      static_cast<size_t>(std::max(0.0f, std::floor((view_top - origin.y) / kRowHeight)));
  const size_t last_row = std::min(
      a.lanes.size(),
      static_cast<size_t>(std::max(0.0f, std::ceil((view_bottom - origin.y) / kRowHeight))) + 1);

  dl->PushClipRect(ImVec2(area_x, view_top), ImVec2(area_x + width, view_bottom), true);
  for (size_t r = first_row; r < last_row && r + 1 < m_rank_begin.size(); ++r) {
    const float y = origin.y + kRowHeight * static_cast<float>(r);
    dl->AddLine(ImVec2(area_x, y + kRowHeight - 1), ImVec2(area_x + width, y + kRowHeight - 1),
                faint);
    for (size_t k = m_rank_begin[r]; k < m_rank_begin[r + 1]; ++k) {
      const Item& item = items[k];
      const bool step = item.kind == Kind::kStep;
      const auto& s = a.lanes[r].steps;
      const bool odd = step && (s[item.index].id & 1) != 0;
      const bool matched = !step || s[item.index].matched;
      const ImVec2 p0(area_x + item.x0, y + (step ? kStepTop : kCollectiveTop));
      const ImVec2 p1(area_x + std::max(item.x1, item.x0 + 1.0f),
                      y + (step ? kStepBottom : kCollectiveBottom));
      dl->AddRectFilled(p0, p1, KindColor(item.kind, odd, matched));
      if (step && p1.x - p0.x > 60.0f) {
        dl->AddText(ImVec2(p0.x + 3, p0.y - 1), IM_COL32(20, 20, 20, 255),
                    fmt::format("step {}", s[item.index].id).c_str());
      }
    }
  }
  dl->PopClipRect();
  for (size_t r = first_row; r < last_row; ++r) {
    const float y = origin.y + kRowHeight * static_cast<float>(r);
    dl->AddText(ImVec2(origin.x + 4, y + 7), text,
                fmt::format("{} {}", unit, a.ranks[r].rank).c_str());
  }

  // Input: wheel zooms around the mouse, Shift+wheel scrolls, drag pans, click opens a step.
  const ImVec2 mouse = io.MousePos;
  const bool in_area = mouse.x >= area_x && mouse.x <= area_x + width;
  const auto mouse_t = m_start + static_cast<TimeNs>((mouse.x - area_x) * ns_per_px);
  if (hovered && io.MouseWheel != 0.0f) {
    if (io.KeyShift || !in_area) {
      ImGui::SetScrollY(ImGui::GetScrollY() - io.MouseWheel * 3 * kRowHeight);
    } else {
      const double f = std::pow(0.8, io.MouseWheel);
      SetVisible(mouse_t - static_cast<TimeNs>((mouse_t - m_start) * f),
                 mouse_t + static_cast<TimeNs>((m_end - mouse_t) * f));
    }
  }
  if (hovered && ImGui::IsMouseClicked(0)) {
    m_pressed = true, m_dragging = false;
    m_press_x = mouse.x, m_press_y = mouse.y;
    m_press_start = m_start, m_press_end = m_end;
  }
  if (m_pressed && ImGui::IsMouseDown(0)) {
    const float dx = mouse.x - m_press_x;
    if (!m_dragging && std::abs(dx) + std::abs(mouse.y - m_press_y) > 3.0f) m_dragging = true;
    if (m_dragging) {
      const auto shift = static_cast<TimeNs>(-dx * ns_per_px);
      SetVisible(m_press_start + shift, m_press_end + shift);
    }
  }
  const bool released = m_pressed && ImGui::IsMouseReleased(0);
  if (released) m_pressed = false;

  if (hovered && in_area && mouse.y >= origin.y) {
    const auto row = static_cast<uint32_t>((mouse.y - origin.y) / kRowHeight);
    const float in_row = mouse.y - origin.y - kRowHeight * static_cast<float>(row);
    const bool on_steps = in_row < (kStepBottom + kCollectiveTop) / 2;
    if (const Item* item = row < a.lanes.size() ? ItemAt(row, mouse.x - area_x, on_steps)
                                                : nullptr) {
      const core::fleet::RankLane& lane = a.lanes[row];
      const auto since = [&](TimeNs t) {
        return "+" + FormatDuration(static_cast<double>(t - a.lanes_start_ns));
      };
      if (on_steps) {
        const core::fleet::LaneStep& s = lane.steps[item->index];
        ImGui::SetTooltip("%s %lld, step %lld: %s, from %s%s\nclick to open this %s here", unit,
                          static_cast<long long>(a.ranks[row].rank), static_cast<long long>(s.id),
                          FormatDuration(static_cast<double>(s.end_ns - s.start_ns)).c_str(),
                          since(s.start_ns).c_str(), s.matched ? "" : " (not on every one)", unit);
        if (released && !m_dragging) click = Click{row, item->index};
      } else {
        const core::fleet::LaneCollective& c = lane.collectives[item->index];
        const TimeNs waited = std::clamp(c.others_arrived, c.start_ns, c.end_ns) - c.start_ns;
        ImGui::SetTooltip(
            "%s %lld, step %lld: %s\narrived %s, ended %s\nwaited %s for later ranks%s", unit,
            static_cast<long long>(a.ranks[row].rank), static_cast<long long>(c.step),
            c.name.c_str(), since(c.start_ns).c_str(), since(c.end_ns).c_str(),
            FormatDuration(static_cast<double>(waited)).c_str(),
            c.straggler ? "\nthe last to arrive: the others waited for this rank" : "");
      }
    }
  }
  ImGui::EndChild();
  return click;
}

}  // namespace app::gui::views
