#include "app/gui/views/sql_console_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include <cstring>

namespace app::gui::views {

SqlConsoleView::SqlConsoleView() {
  const char* kExample =
      "SELECT s.value AS queue, COUNT(*) AS packets\n"
      "FROM packet_submitted p JOIN queues q ON q.id = p.queue_id\n"
      "JOIN strings s ON s.id = q.name_sid GROUP BY p.queue_id";
  std::strncpy(m_text.data(), kExample, m_text.size() - 1);
}

void SqlConsoleView::Run(const state::Document& doc, const std::string& sql) {
  std::strncpy(m_text.data(), sql.c_str(), m_text.size() - 1);
  m_query.Start(doc.path, sql, kMaxRows);
  m_result = {};
  m_has_result = false;
  m_error.clear();
  m_status = "Running...";
}

void SqlConsoleView::Wait() {
  m_query.Wait();
  TakeOutcome();
}

void SqlConsoleView::TakeOutcome() {
  auto outcome = m_query.TakeOutcome();
  if (!outcome) return;
  m_error = std::move(outcome->error);
  m_has_result = !outcome->stopped && m_error.empty();
  m_result = std::move(outcome->result);
  if (outcome->stopped) {
    m_status = fmt::format("stopped after {:.1f} s", outcome->seconds);
  } else if (m_has_result) {
    m_status = fmt::format("{} rows{}", m_result.rows.size(),
                           m_result.truncated ? " (truncated)" : "");
  } else {
    m_status.clear();
  }
}

void SqlConsoleView::Draw(state::Document& doc) {
  TakeOutcome();
  const float s = ImGui::GetFontSize() / 15.0f;
  ImGui::InputTextMultiline("##sql", m_text.data(), m_text.size(),
                            ImVec2(-90.0f * s, ImGui::GetTextLineHeight() * 4.5f));
  bool run = ImGui::IsItemFocused() && ImGui::GetIO().KeyCtrl &&
             ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter));
  ImGui::SameLine();
  m_stop_min = m_stop_max = ImVec2(0, 0);
  if (m_query.Running()) {
    // One query at a time: Run becomes Stop until the query has ended.
    run = false;
    const bool stopping = m_query.StopRequested();
    ImGui::BeginDisabled(stopping);
    if (ImGui::Button(stopping ? "Stopping" : "Stop", ImVec2(80.0f * s, 0))) m_query.Stop();
    ImGui::EndDisabled();
    m_stop_min = ImGui::GetItemRectMin();
    m_stop_max = ImGui::GetItemRectMax();
    m_status = fmt::format("Running... {:.1f} s", m_query.ElapsedSeconds());
    ImGui::TextDisabled("%s", m_status.c_str());
    return;
  }
  run |= ImGui::Button("Run", ImVec2(80.0f * s, 0));
  if (run) {
    Run(doc, m_text.data());
    return;
  }
  if (!m_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 120, 110, 255));
    ImGui::TextWrapped("%s", m_error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  if (!m_has_result) {
    if (!m_status.empty()) ImGui::TextDisabled("%s", m_status.c_str());
    ImGui::TextDisabled(
        "Views per event kind (packet_submitted, fence_wait_unblocked, ...) "
        "name the generic columns; see schemas/event_kinds.sql.");
    return;
  }
  ImGui::TextDisabled("%s", m_status.c_str());
  // A table holds at most 64 columns.
  const int columns = static_cast<int>(std::min<size_t>(m_result.columns.size(), 64));
  if (columns == 0) return;
  if (m_result.columns.size() > 64) {
    ImGui::TextDisabled("the first 64 of %zu columns are shown; select fewer to see the rest",
                        m_result.columns.size());
  }
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                     ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersV |
                                     ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("result", columns, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (int c = 0; c < columns; ++c) ImGui::TableSetupColumn(m_result.columns[c].c_str());
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(m_result.rows.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      ImGui::TableNextRow();
      for (int c = 0; c < columns && c < static_cast<int>(m_result.rows[row].size()); ++c) {
        ImGui::TableSetColumnIndex(c);
        ImGui::TextUnformatted(m_result.rows[row][c].c_str());
      }
    }
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
