#include "app/gui/views/pgo_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include "app/gui/state/selection_info.h"
#include "app/gui/widgets/list_table.h"
#include "app/gui/widgets/time_format.h"

namespace app::gui::views {
void PgoView::Draw(state::Document& doc) {
  const core::analysis::PgoSeries& series = doc.analysis.pgo;
  const auto& passes = series.passes;
  if (passes.empty()) {
    ImGui::TextDisabled(
        "No SetBackgroundProcessingMode calls in this trace (%zu background "
        "tasks).",
        doc.analysis.recon.tasks.size());
    return;
  }
  const bool by_calls = series.boundary == core::analysis::PgoBoundary::kModeChanged;
  if (!by_calls) {
    ImGui::TextDisabled(
        "No SetBackgroundProcessingMode calls: passes are split where a "
        "specialised variant was applied (variant_applied).");
  }
  // Mean packet time per pass as a curve: convergence shows as a falling line.
  std::vector<float> mean_us;
  for (const auto& p : passes) mean_us.push_back(static_cast<float>(p.mean_packet_ns / 1e3));
  ImGui::PlotLines("mean packet time per pass (us)", mean_us.data(),
                   static_cast<int>(mean_us.size()), 0, nullptr, FLT_MAX, FLT_MAX,
                   ImVec2(0, 60.0f * ImGui::GetFontSize() / 15.0f));
  if (!widgets::BeginListTable(
          "passes", {"pass", "at", "mode in force", "action", "FurtherMeasurementsDesired",
                     "tasks queued", "finished / cancelled", "packets (instr. / variant)",
                     "mean packet time", "variants applied"})) {
    return;
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(passes.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const auto& p = passes[row];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(row);
      if (ImGui::Selectable(fmt::format("{}", row + 1).c_str(), false,
                            ImGuiSelectableFlags_SpanAllColumns)) {
        state::ZoomTo(doc.view, {p.start, p.end});
      }
      ImGui::PopID();
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(widgets::FormatTime(p.start, doc.model.start).c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(core::analysis::ModeInForceText(p).c_str());
      if (by_calls) {
        ImGui::TableSetColumnIndex(3);
        ImGui::TextUnformatted(std::string(core::model::MeasurementsActionName(p.action)).c_str());
      }
      ImGui::TableSetColumnIndex(4);
      ImGui::TextUnformatted(std::string(core::analysis::FurtherMeasurementsDesiredName(p)).c_str());
      ImGui::TableSetColumnIndex(5);
      ImGui::Text("%llu", static_cast<unsigned long long>(p.tasks_queued));
      ImGui::TableSetColumnIndex(6);
      ImGui::Text("%llu / %llu", static_cast<unsigned long long>(p.tasks_finished),
                  static_cast<unsigned long long>(p.tasks_cancelled));
      ImGui::TableSetColumnIndex(7);
      ImGui::Text("%llu (%llu / %llu)", static_cast<unsigned long long>(p.packets),
                  static_cast<unsigned long long>(p.instrumented_packets),
                  static_cast<unsigned long long>(p.variant_packets));
      ImGui::TableSetColumnIndex(8);
      ImGui::TextUnformatted(
          widgets::FormatDuration(static_cast<core::model::DurationNs>(p.mean_packet_ns)).c_str());
      ImGui::TableSetColumnIndex(9);
      ImGui::Text("%llu", static_cast<unsigned long long>(p.variants_applied));
    }
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
