#include "app/gui/views/packets_view.h"

#include <imgui.h>

#include <string>

#include "app/gui/state/selection_info.h"
#include "app/gui/widgets/time_format.h"

namespace app::gui::views {
namespace {

using core::analysis::PacketNameStats;
using core::analysis::PacketStatsColumn;

// Table columns, in order; the column user id is the PacketStatsColumn.
constexpr struct {
  const char* label;
  PacketStatsColumn column;
} kColumns[] = {{"name", PacketStatsColumn::kName},   {"queue", PacketStatsColumn::kQueue},
                {"count", PacketStatsColumn::kCount}, {"total", PacketStatsColumn::kTotal},
                {"mean", PacketStatsColumn::kMean},   {"p50", PacketStatsColumn::kP50},
                {"p99", PacketStatsColumn::kP99},     {"max", PacketStatsColumn::kMax}};

bool SameRange(const core::analysis::PacketStatsRange& a,
               const core::analysis::PacketStatsRange& b) {
  return a.start == b.start && a.end == b.end;
}

}  // namespace

core::analysis::PacketStatsRange PacketPanelRange(const state::Document& doc) {
  if (!doc.view.selected_range.Valid()) return {};
  return {doc.view.selected_range.start, doc.view.selected_range.end};
}

state::Selection SelectionOfRow(const PacketNameStats& row) {
  return {state::SelectionKind::kPacketName, row.name, row.queue};
}

void PacketsView::Draw(state::Document& doc) {
  const core::analysis::PacketStatsRange range = PacketPanelRange(doc);
  bool fresh = false;
  if (!m_valid || m_doc != &doc || !SameRange(m_range, range)) {
    if (m_doc != &doc) m_background.Reset();
    m_doc = &doc;
    if (range.start == core::analysis::kUnknownTime) {
      m_rows = doc.whole.packets;  // computed with the document
    } else {
      const auto* rows = m_background.Get({range.start, range.end}, [&doc, range] {
        return core::analysis::ComputePacketStats(doc.store, doc.analysis.recon, range);
      });
      if (!rows) {
        ImGui::TextDisabled("Computing the packets of the selected range...");
        return;
      }
      m_rows = *rows;
    }
    m_range = range;
    m_valid = true;
    fresh = true;
  }
  if (range.start == core::analysis::kUnknownTime) {
    ImGui::TextDisabled(
        "Whole trace: %zu (name, queue) groups of completed packets; select a "
        "range on the timeline to narrow it.",
        m_rows.size());
  } else {
    ImGui::TextDisabled("Packets completed in the selected range: %zu (name, queue) groups.",
                        m_rows.size());
  }
  if (m_rows.empty()) return;
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_BordersV | ImGuiTableFlags_Resizable |
                                     ImGuiTableFlags_Sortable;
  if (!ImGui::BeginTable("packet_stats", 8, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const auto& c : kColumns) {
    ImGuiTableColumnFlags flags =
        c.column == PacketStatsColumn::kTotal
            ? ImGuiTableColumnFlags_DefaultSort | ImGuiTableColumnFlags_PreferSortDescending
            : ImGuiTableColumnFlags_PreferSortDescending;
    // the name takes the room left by the figures (kernel names are long)
    flags |= c.column == PacketStatsColumn::kName ? ImGuiTableColumnFlags_WidthStretch
                                                  : ImGuiTableColumnFlags_WidthFixed;
    ImGui::TableSetupColumn(c.label, flags, 0.0f, static_cast<ImGuiID>(c.column));
  }
  ImGui::TableHeadersRow();
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
    if ((specs->SpecsDirty || fresh) && specs->SpecsCount > 0) {
      const ImGuiTableColumnSortSpecs& spec = specs->Specs[0];
      core::analysis::SortPacketStats(doc.store, m_rows,
                                      static_cast<PacketStatsColumn>(spec.ColumnUserID),
                                      spec.SortDirection == ImGuiSortDirection_Descending);
      specs->SpecsDirty = false;
    }
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(m_rows.size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const PacketNameStats& row = m_rows[i];
      const state::Selection sel = SelectionOfRow(row);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(i);
      const std::string name = core::analysis::PacketLabel(doc.store, row.name);
      if (ImGui::Selectable(
              name.c_str(), doc.view.selection == sel,
              ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowDoubleClick)) {
        doc.view.selection = sel;
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
          state::ZoomTo(doc.view, state::SelectionTimeRange(doc, sel));
        }
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", name.c_str());
      if (ImGui::IsItemClicked(ImGuiMouseButton_Right)) {
        m_questions = state::QuestionsAbout(doc, sel);
      }
      if (ImGui::BeginPopupContextItem("whatif")) {
        for (const auto& q : m_questions) {
          if (ImGui::MenuItem(q.label.c_str())) m_question = q;
        }
        ImGui::EndPopup();
      }
      ImGui::PopID();
      ImGui::TableNextColumn();
      const auto* q = doc.store.FindQueue(row.queue);
      ImGui::TextUnformatted(q ? q->name.c_str() : "-");
      ImGui::TableNextColumn();
      ImGui::Text("%llu", static_cast<unsigned long long>(row.count));
      for (double ns :
           {static_cast<double>(row.total_ns), row.mean_ns, static_cast<double>(row.p50_ns),
            static_cast<double>(row.p99_ns), static_cast<double>(row.max_ns)}) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(
            widgets::FormatDuration(static_cast<core::model::TimeNs>(ns)).c_str());
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
