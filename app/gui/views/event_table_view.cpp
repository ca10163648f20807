#include "app/gui/views/event_table_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>

#include "app/gui/state/event_filter.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/widgets/time_format.h"
#include "core/model/event_kind.h"

namespace app::gui::views {

void EventTableView::Refresh(const state::Document& doc) {
  const auto& ts = doc.store.events.ts;
  size_t first = 0, last = ts.size();
  state::TimeRange range;
  if (m_time_filter == TimeFilter::kVisible) range = doc.view.visible;
  if (m_time_filter == TimeFilter::kSelectedRange) range = doc.view.selected_range;
  if (m_time_filter != TimeFilter::kAll) {
    first = std::lower_bound(ts.begin(), ts.end(), range.start) - ts.begin();
    last = std::upper_bound(ts.begin(), ts.end(), range.end) - ts.begin();
    if (!range.Valid()) last = first;
  }
  if (m_doc == &doc && m_built_kind == m_kind && m_built_text == m_text && first == m_first &&
      last == m_last) {
    return;
  }
  m_doc = &doc;
  m_built_kind = m_kind;
  m_built_text = m_text;
  m_first = first;
  m_last = last;
  m_use_matches = m_kind != 0 || !m_text.empty();
  m_matches.clear();
  if (!m_use_matches) return;
  m_matches = state::FilterEvents(doc.store, first, last, m_kind, m_text);
}

void EventTableView::Draw(state::Document& doc) {
  int count = 0;
  const core::model::EventKind* kinds = core::model::AllEventKinds(&count);
  std::string current =
      m_kind == 0
          ? std::string("all kinds")
          : std::string(core::model::EventKindName(static_cast<core::model::EventKind>(m_kind)));
  ImGui::SetNextItemWidth(220.0f * ImGui::GetFontSize() / 15.0f);
  if (ImGui::BeginCombo("kind", current.c_str())) {
    if (ImGui::Selectable("all kinds", m_kind == 0)) m_kind = 0;
    for (int i = 0; i < count; ++i) {
      int id = static_cast<int>(kinds[i]);
      std::string name(core::model::EventKindName(kinds[i]));
      if (ImGui::Selectable(name.c_str(), m_kind == id)) m_kind = id;
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(180.0f * ImGui::GetFontSize() / 15.0f);
  if (ImGui::InputTextWithHint("##text", "filter text, Enter", m_text_input,
                               sizeof(m_text_input), ImGuiInputTextFlags_EnterReturnsTrue)) {
    m_text = m_text_input;
  }
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Records whose kind, queue, thread or fence name contains the text, or whose op_id, "
        "value or an argument equals the number. Enter applies it; an empty text clears it.");
  }
  ImGui::SameLine();
  int filter = static_cast<int>(m_time_filter);
  ImGui::RadioButton("whole trace", &filter, 0);
  ImGui::SameLine();
  ImGui::RadioButton("visible range", &filter, 1);
  ImGui::SameLine();
  ImGui::RadioButton("selected range", &filter, 2);
  m_time_filter = static_cast<TimeFilter>(filter);
  Refresh(doc);
  const size_t rows = m_use_matches ? m_matches.size() : m_last - m_first;
  ImGui::SameLine();
  ImGui::TextDisabled("%zu records", rows);

  const auto& e = doc.store.events;
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_BordersV | ImGuiTableFlags_Resizable |
                                     ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("events", 12, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* name : {"rowid", "time", "kind", "queue", "thread", "fence", "value", "op_id",
                           "arg0", "arg1", "arg2", "flags"}) {
    ImGui::TableSetupColumn(name);
  }
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(std::min<size_t>(rows, INT32_MAX)));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      uint32_t i = m_use_matches ? m_matches[row] : static_cast<uint32_t>(m_first + row);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      std::string rowid = fmt::format("{}", e.RowIdOf(i));
      state::Selection this_row{state::SelectionKind::kEvent, i, 0};
      if (ImGui::Selectable(rowid.c_str(), doc.view.selection == this_row,
                            ImGuiSelectableFlags_SpanAllColumns)) {
        state::JumpTo(doc, this_row);
      }
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(widgets::FormatTime(e.ts[i], doc.model.start).c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(std::string(core::model::EventKindName(e.kind[i])).c_str());
      ImGui::TableSetColumnIndex(3);
      if (const auto* q = doc.store.FindQueue(e.queue[i])) ImGui::TextUnformatted(q->name.c_str());
      ImGui::TableSetColumnIndex(4);
      if (const auto* t = doc.store.FindThread(e.thread[i]))
        ImGui::TextUnformatted(t->name.c_str());
      ImGui::TableSetColumnIndex(5);
      if (const auto* f = doc.store.FindFence(e.fence[i])) ImGui::TextUnformatted(f->name.c_str());
      ImGui::TableSetColumnIndex(6);
      ImGui::Text("%llu", static_cast<unsigned long long>(e.value[i]));
      ImGui::TableSetColumnIndex(7);
      ImGui::Text("%lld", static_cast<long long>(e.op[i]));
      ImGui::TableSetColumnIndex(8);
      ImGui::Text("%lld", static_cast<long long>(e.arg0[i]));
      ImGui::TableSetColumnIndex(9);
      ImGui::Text("%lld", static_cast<long long>(e.arg1[i]));
      ImGui::TableSetColumnIndex(10);
      ImGui::Text("%lld", static_cast<long long>(e.arg2[i]));
      ImGui::TableSetColumnIndex(11);
      ImGui::Text("0x%x", e.flags[i]);
    }
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
