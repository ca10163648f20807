#include "app/gui/views/interrupts_view.h"

#include <imgui.h>

#include "app/gui/state/selection_info.h"
#include "app/gui/widgets/list_table.h"
#include "app/gui/widgets/time_format.h"

namespace app::gui::views {
namespace {

// Column `column` of the current row: `text`, or the count `n`.
void TextCell(int column, const char* text) {
  ImGui::TableSetColumnIndex(column);
  ImGui::TextUnformatted(text);
}
void CountCell(int column, uint64_t n) {
  ImGui::TableSetColumnIndex(column);
  ImGui::Text("%llu", static_cast<unsigned long long>(n));
}

}  // namespace

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
      const auto* a = doc.store.FindAdapter(s.adapter);
      TextCell(0, a ? a->name.c_str() : "-");
      CountCell(1, s.total);
      ImGui::TableSetColumnIndex(2);
      ImGui::Text("%llu (%.1f%%)", static_cast<unsigned long long>(s.spurious),
                  100.0 * s.spurious / std::max<uint64_t>(1, s.total));
      CountCell(3, s.optimized);
      CountCell(4, s.scan_all);
      CountCell(5, s.waiters_released);
      ImGui::TableSetColumnIndex(6);
      ImGui::Text("%.2f", s.mean_per_ms);
      CountCell(7, s.peak_per_ms);
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
  if (!widgets::BeginListTable("interrupts",
                               {"time", "queue", "fence", "value", "released", "spurious"})) {
    return;
  }
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
      const auto* q = doc.store.FindQueue(i.queue);
      TextCell(1, q ? q->name.c_str() : "(scan all)");
      const auto* f = doc.store.FindFence(i.fence);
      TextCell(2, f ? f->name.c_str() : "-");
      CountCell(3, i.value);
      CountCell(4, i.waiters_released);
      TextCell(5, i.spurious ? "yes" : "");
    }
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
