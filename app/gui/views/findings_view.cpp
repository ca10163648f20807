#include "app/gui/views/findings_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include "app/gui/widgets/time_format.h"

namespace app::gui::views {
namespace {

// How a finding reads at a glance: problems in red, data missing in amber, the rest in blue.
ImU32 KindColour(const std::string& kind) {
  if (kind == "never_unblocked" || kind == "wait_cycle" || kind == "hazard") {
    return IM_COL32(255, 100, 90, 255);
  }
  if (kind == "overrun") return IM_COL32(255, 200, 90, 255);
  return IM_COL32(150, 190, 255, 255);
}

// Zooms to the finding; a finding that covers a window selects it too.
void ZoomToFinding(state::Document& doc, const core::report::Finding& f) {
  constexpr core::model::DurationNs kAroundInstant = 100'000;
  if (f.end > f.ts) {
    doc.view.selected_range = {f.ts, f.end};
    state::ZoomTo(doc.view, {f.ts, f.end});
  } else {
    state::ZoomTo(doc.view, {f.ts - kAroundInstant, f.ts + kAroundInstant});
  }
}

}  // namespace

const std::vector<core::report::Finding>& FindingsView::FindingsOf(const state::Document& doc) {
  if (m_doc != &doc) {
    m_findings = core::report::CollectFindings(doc.analysis);
    m_doc = &doc;
  }
  return m_findings;
}

void FindingsView::Draw(state::Document& doc) {
  const auto& findings = FindingsOf(doc);
  if (findings.empty()) {
    ImGui::TextDisabled(
        "No findings: no wait is stuck (waits still open at the end would be released if the "
        "trace went on), no wait cycles, log overruns, hazards, fence rewinds or TDRs.");
    return;
  }
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_BordersV | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("findings", 3, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("kind", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("at", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("finding (click to zoom to it)");
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(findings.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const core::report::Finding& f = findings[row];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushStyleColor(ImGuiCol_Text, KindColour(f.kind));
      ImGui::TextUnformatted(f.kind.c_str());
      ImGui::PopStyleColor();
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(widgets::FormatTime(f.ts, doc.model.start).c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::PushID(row);
      if (ImGui::Selectable(f.message.c_str(), false)) ZoomToFinding(doc, f);
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
