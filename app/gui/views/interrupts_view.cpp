#include "app/gui/views/interrupts_view.h"

#include <imgui.h>

#include "app/gui/state/selection_info.h"
#include "app/gui/widgets/time_format.h"

namespace app::gui::views {

void InterruptsView::Draw(state::Document& doc) {
  const auto& r = doc.analysis.recon;
  if (m_doc != &doc) {
    m_doc = &doc;
    m_rows.clear();
    m_rows_spurious = !m_only_spurious;  // force the list to rebuild
  }
  if (r.interrupts.empty()) {
    ImGui::TextDisabled("No interrupt records in this trace.");
    return;
  }
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersV | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("per_adapter", 8, kFlags)) {
    for (const char* c : {"adapter", "interrupts", "spurious", "optimized (named queue)",
                          "scan all logs", "waiters released", "mean per ms",
                          "peak per ms (most in any 1 ms)"}) {
      ImGui::TableSetupColumn(c);
    }
    ImGui::TableHeadersRow();
    for (const auto& s : doc.analysis.interrupts.per_adapter) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      const auto* a = doc.store.FindAdapter(s.adapter);
      ImGui::TextUnformatted(a ? a->name.c_str() : "-");
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%llu", static_cast<unsigned long long>(s.total));
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%llu (%.1f%%)", static_cast<unsigned long long>(s.spurious),
                  100.0 * s.spurious / std::max<uint64_t>(1, s.total));
      ImGui::TableSetColumnIndex(3);
      ImGui::Text("%llu", static_cast<unsigned long long>(s.optimized));
      ImGui::TableSetColumnIndex(4);
      ImGui::Text("%llu", static_cast<unsigned long long>(s.scan_all));
      ImGui::TableSetColumnIndex(5);
      ImGui::Text("%llu", static_cast<unsigned long long>(s.waiters_released));
      ImGui::TableSetColumnIndex(6);
      ImGui::Text("%.2f", s.mean_per_ms);
      ImGui::TableSetColumnIndex(7);
      ImGui::Text("%llu", static_cast<unsigned long long>(s.peak_per_ms));
    }
    ImGui::EndTable();
  }
  ImGui::Checkbox("only spurious", &m_only_spurious);
  if (m_rows_spurious != m_only_spurious) {
    m_rows.clear();
    for (uint32_t i = 0; i < r.interrupts.size(); ++i) {
      if (!m_only_spurious || r.interrupts[i].spurious) m_rows.push_back(i);
    }
    m_rows_spurious = m_only_spurious;
  }
  constexpr ImGuiTableFlags kListFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                         ImGuiTableFlags_BordersV | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("interrupts", 6, kListFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* c : {"time", "queue", "fence", "value", "released", "spurious"}) {
    ImGui::TableSetupColumn(c);
  }
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(m_rows.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      uint32_t k = m_rows[row];
      const auto& i = r.interrupts[k];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      state::Selection sel{state::SelectionKind::kInterrupt, k, 0};
      ImGui::PushID(row);
      if (ImGui::Selectable(widgets::FormatTime(i.ts, doc.model.start).c_str(),
                            doc.view.selection == sel, ImGuiSelectableFlags_SpanAllColumns)) {
        state::JumpTo(doc, sel);
      }
      ImGui::PopID();
      ImGui::TableSetColumnIndex(1);
      const auto* q = doc.store.FindQueue(i.queue);
      ImGui::TextUnformatted(q ? q->name.c_str() : "(scan all)");
      ImGui::TableSetColumnIndex(2);
      const auto* f = doc.store.FindFence(i.fence);
      ImGui::TextUnformatted(f ? f->name.c_str() : "-");
      ImGui::TableSetColumnIndex(3);
      ImGui::Text("%llu", static_cast<unsigned long long>(i.value));
      ImGui::TableSetColumnIndex(4);
      ImGui::Text("%u", i.waiters_released);
      ImGui::TableSetColumnIndex(5);
      ImGui::TextUnformatted(i.spurious ? "yes" : "");
    }
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
