#include "app/gui/views/event_table_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>

#include "app/gui/state/event_filter.h"
#include "app/gui/state/record_fields.h"
#include "app/gui/state/selection_info.h"
#include "app/gui/widgets/time_format.h"
#include "core/model/event_kind.h"

namespace app::gui::views {

void EventTableView::Refresh(state::Document& doc) {
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
  if (m_doc != &doc) {
    m_doc = &doc;
    m_built_kind = -1;
    m_filtering = false;
  }
  // The text filter's answer, once it arrives (answers to older requests are never delivered).
  if (m_filtering) {
    if (auto result = doc.filter->TakeResult(); result && result->request == m_requested) {
      m_matches = std::move(result->indices);
      m_filter_error = std::move(result->error);
      m_filtering = false;
      ++m_rows_version;
    }
  }
  if (m_built_kind == m_kind && m_built_text == m_text && first == m_first && last == m_last) {
    return;
  }
  // Only the window moved under the same text filter (the timeline panned): keep showing the
  // previous matches until the new ones arrive, instead of an empty table.
  const bool same_text_filter =
      !m_text.empty() && m_built_kind == m_kind && m_built_text == m_text;
  m_built_kind = m_kind;
  m_built_text = m_text;
  m_first = first;
  m_last = last;
  m_use_matches = m_kind != 0 || !m_text.empty();
  m_filter_error.clear();
  ++m_rows_version;
  if (m_text.empty()) {
    // Kind and window only: the resident kind column answers at once.
    m_filtering = false;
    m_matches.clear();
    if (m_use_matches) m_matches = state::FilterEvents(doc.store, first, last, m_kind, {});
    return;
  }
  if (!same_text_filter) m_matches.clear();
  m_requested = {first, last, m_kind, m_text};
  doc.filter->Start(m_requested);
  m_filtering = true;
}

void EventTableView::EnsureRows(state::Document& doc, size_t begin, size_t end, size_t rows) {
  if (begin >= end) return;
  if (m_cache_version == m_rows_version &&
      ((begin >= m_cache_begin && end <= m_cache_end) || (begin == 0 && end == 1))) {
    return;
  }
  // Read the rows asked for with a margin either side, so scrolling a little reads nothing, and
  // row 0 with them.
  constexpr size_t kMargin = 64;
  const size_t b = begin > kMargin ? begin - kMargin : 0;
  const size_t e = std::min(rows, end + kMargin);
  std::vector<uint32_t> events;
  events.reserve(e - b + 1);
  events.push_back(EventOfRow(0));
  for (size_t row = b; row < e; ++row) events.push_back(EventOfRow(row));
  m_cache_version = m_rows_version;  // a failed read is not retried every frame
  m_cache.clear();
  m_cache_begin = m_cache_end = 0;
  m_cache_row0_valid = false;
  try {
    std::vector<core::store::EventRecord> records = doc.records->Read(events);
    auto row_of = [&](const core::store::EventRecord& r) {
      return Row{r, state::FieldsLine(doc, r)};
    };
    m_cache_row0 = row_of(records.front());
    m_cache_row0_valid = true;
    m_cache.reserve(records.size() - 1);
    for (size_t k = 1; k < records.size(); ++k) m_cache.push_back(row_of(records[k]));
    m_cache_begin = b;
    m_cache_end = e;
    m_read_error.clear();
  } catch (const std::exception& ex) {
    m_read_error = ex.what();
  }
}

const EventTableView::Row* EventTableView::CachedRow(size_t row) const {
  if (m_cache_version != m_rows_version) return nullptr;
  if (row >= m_cache_begin && row < m_cache_end) return &m_cache[row - m_cache_begin];
  if (row == 0 && m_cache_row0_valid) return &m_cache_row0;
  return nullptr;
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
        "Records whose kind, queue, thread or fence name contains the text, or one of whose "
        "fields equals the number. Enter applies it; an empty text clears it.");
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
  if (m_filtering) {
    ImGui::TextDisabled("filtering...%s", m_matches.empty() ? "" : " (showing the last result)");
  } else {
    ImGui::TextDisabled("%zu records", rows);
  }
  for (const std::string* error : {&m_filter_error, &m_read_error}) {
    if (!error->empty()) ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.35f, 1.0f), "%s", error->c_str());
  }

  const auto& e = doc.store.events;
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_BordersV | ImGuiTableFlags_Resizable |
                                     ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("events", 7, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* name : {"rowid", "time", "kind", "queue", "thread", "fence"}) {
    ImGui::TableSetupColumn(name);
  }
  ImGui::TableSetupColumn("fields", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(std::min<size_t>(rows, INT32_MAX)));
  while (clipper.Step()) {
    EnsureRows(doc, static_cast<size_t>(clipper.DisplayStart),
               static_cast<size_t>(clipper.DisplayEnd), rows);
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const uint32_t i = EventOfRow(static_cast<size_t>(row));
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
      const Row* cached = CachedRow(static_cast<size_t>(row));
      if (!cached) continue;  // the read failed: the error is shown above the table
      const core::store::EventRecord& r = cached->record;
      ImGui::TableSetColumnIndex(3);
      if (const auto* q = doc.store.FindQueue(r.queue)) ImGui::TextUnformatted(q->name.c_str());
      ImGui::TableSetColumnIndex(4);
      if (const auto* t = doc.store.FindThread(r.thread)) ImGui::TextUnformatted(t->name.c_str());
      ImGui::TableSetColumnIndex(5);
      if (const auto* f = doc.store.FindFence(r.fence)) ImGui::TextUnformatted(f->name.c_str());
      ImGui::TableSetColumnIndex(6);
      ImGui::TextUnformatted(cached->fields.c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
