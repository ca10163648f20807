#include "app/gui/views/outline_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>

#include "app/gui/widgets/time_format.h"

namespace app::gui::views {

void DrawOutline(const std::filesystem::path& path, const core::store::TraceOutline& outline,
                 double progress) {
  ImGui::Spacing();
  ImGui::Text("Opening %s", path.filename().string().c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("%s events over %s",
                      fmt::format("{}", outline.events).c_str(),
                      widgets::FormatDuration(outline.end - outline.start).c_str());
  ImGui::ProgressBar(static_cast<float>(progress), ImVec2(-1.0f, 0.0f));
  ImGui::TextDisabled("Outline from the trace's block index; the timeline follows when loaded.");
  ImGui::Separator();

  const float font = ImGui::GetFontSize();
  const float label_w = std::min(ImGui::GetContentRegionAvail().x * 0.3f, 22.0f * font);
  const float row_h = font * 1.4f;
  const float bar_w = std::max(ImGui::GetContentRegionAvail().x - label_w - font, 10.0f);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImU32 filled = ImGui::GetColorU32(ImGuiCol_PlotHistogram);
  const ImU32 empty = ImGui::GetColorU32(ImGuiCol_FrameBg);
  ImGui::BeginChild("outline_rows", ImVec2(0, 0), false);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(outline.tracks.size()), row_h);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const auto& t = outline.tracks[static_cast<size_t>(i)];
      const ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::PushClipRect(at, ImVec2(at.x + label_w - 4.0f, at.y + row_h), true);
      if (t.max == 0) {
        ImGui::TextDisabled("%s", t.label.c_str());
      } else {
        ImGui::TextUnformatted(t.label.c_str());
      }
      ImGui::PopClipRect();
      const float x0 = at.x + label_w, y0 = at.y + 2.0f, y1 = at.y + row_h - 2.0f;
      draw->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + bar_w, y1), empty);
      const float per_bin = bar_w / static_cast<float>(std::max<size_t>(outline.bins, 1));
      for (size_t b = 0; b < t.events.size(); ++b) {
        if (t.events[b] == 0) continue;
        // height by the share of the track's busiest bin, so a sparse track still shows
        const float share = static_cast<float>(t.events[b]) / static_cast<float>(t.max);
        const float h = std::max(1.0f, (y1 - y0) * share);
        const float x = x0 + per_bin * static_cast<float>(b);
        draw->AddRectFilled(ImVec2(x, y1 - h), ImVec2(x + std::max(per_bin, 1.0f), y1), filled);
      }
      ImGui::Dummy(ImVec2(label_w + bar_w, row_h));
    }
  }
  ImGui::EndChild();
}

}  // namespace app::gui::views
