#include "app/gui/views/pgo_view.h"

#include <algorithm>

#include <fmt/format.h>
#include <imgui.h>

#include "app/gui/state/selection_info.h"
#include "app/gui/widgets/time_format.h"

namespace app::gui::views {
namespace {
using core::analysis::kUnknownTime;
using core::analysis::TaskOutcome;
using core::model::TimeNs;

// Index of the pass containing t: the last pass starting at or before t, or -1.
int PassOf(const std::vector<PgoPass>& passes, TimeNs t) {
  auto it = std::upper_bound(passes.begin(), passes.end(), t,
                             [](TimeNs v, const PgoPass& p) { return v < p.range.start; });
  return static_cast<int>(it - passes.begin()) - 1;
}
}  // namespace

std::vector<PgoPass> ComputePgoPasses(const state::Document& doc) {
  const auto& r = doc.reconstruction;
  std::vector<PgoPass> passes;
  for (uint32_t i = 0; i < r.mode_changes.size(); ++i) {
    PgoPass p;
    p.mode_change = i;
    p.range.start = r.mode_changes[i].ts;
    p.range.end = i + 1 < r.mode_changes.size() ? r.mode_changes[i + 1].ts : doc.model.end;
    passes.push_back(p);
  }
  if (passes.empty()) return passes;
  for (const auto& t : r.tasks) {
    if (t.started != kUnknownTime) {
      int k = PassOf(passes, t.started);
      if (k >= 0) ++passes[k].tasks_started;
    }
    if (t.ended == kUnknownTime) continue;
    int k = PassOf(passes, t.ended);
    if (k < 0) continue;
    if (t.outcome == TaskOutcome::kFinished) ++passes[k].tasks_finished;
    if (t.outcome == TaskOutcome::kCancelled) ++passes[k].tasks_cancelled;
    if (t.outcome == TaskOutcome::kAbandoned) ++passes[k].tasks_abandoned;
  }
  for (const auto& p : r.packets) {
    if (p.start == kUnknownTime || p.end == kUnknownTime) continue;
    int k = PassOf(passes, p.start);
    if (k < 0) continue;
    TimeNs run = p.end - p.start;
    ++passes[k].packets;
    passes[k].packet_time += run;
    if (p.flags & core::model::kPacketInstrumented) passes[k].instrumented_time += run;
    if (p.flags & core::model::kPacketUsesVariant) passes[k].variant_time += run;
  }
  return passes;
}

void PgoView::Draw(state::Document& doc) {
  if (m_doc != &doc) {
    m_passes = ComputePgoPasses(doc);
    m_doc = &doc;
  }
  const auto& r = doc.reconstruction;
  if (m_passes.empty()) {
    ImGui::TextDisabled("No SetBackgroundProcessingMode calls in this trace (%zu background "
                        "tasks).", r.tasks.size());
    return;
  }
  // Mean packet time per pass as a curve: convergence shows as a falling line.
  std::vector<float> mean_us;
  for (const auto& p : m_passes) {
    mean_us.push_back(p.packets ? static_cast<float>(p.packet_time / 1e3 / p.packets) : 0.0f);
  }
  ImGui::PlotLines("mean packet time per pass (us)", mean_us.data(),
                   static_cast<int>(mean_us.size()), 0, nullptr, FLT_MAX, FLT_MAX,
                   ImVec2(0, 60.0f * ImGui::GetFontSize() / 15.0f));
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_BordersV | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("passes", 11, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* c : {"pass", "at", "mode", "action", "FurtherMeasurementsDesired", "commit",
                        "tasks started", "finished / cancelled / abandoned", "packets",
                        "mean packet time", "instrumented / variant time"}) {
    ImGui::TableSetupColumn(c);
  }
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(m_passes.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const PgoPass& p = m_passes[row];
      const auto& m = r.mode_changes[p.mode_change];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      state::Selection sel{state::SelectionKind::kModeChange, p.mode_change, 0};
      if (ImGui::Selectable(fmt::format("{}", row + 1).c_str(), doc.view.selection == sel,
                            ImGuiSelectableFlags_SpanAllColumns)) {
        state::JumpTo(doc, sel);
      }
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(widgets::FormatTime(m.ts, doc.model.start).c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(std::string(core::model::BackgroundModeName(m.mode)).c_str());
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(std::string(core::model::MeasurementsActionName(m.action)).c_str());
      ImGui::TableSetColumnIndex(4);
      ImGui::TextUnformatted(m.further_measurements_desired ? "TRUE" : "FALSE");
      ImGui::TableSetColumnIndex(5);
      if (m.commit) {
        ImGui::Text("%lld (%lld tasks)%s", static_cast<long long>(m.commit),
                    static_cast<long long>(m.commit_tasks),
                    m.commit_completed == kUnknownTime ? " not completed" : "");
      }
      ImGui::TableSetColumnIndex(6);
      ImGui::Text("%llu", static_cast<unsigned long long>(p.tasks_started));
      ImGui::TableSetColumnIndex(7);
      ImGui::Text("%llu / %llu / %llu", static_cast<unsigned long long>(p.tasks_finished),
                  static_cast<unsigned long long>(p.tasks_cancelled),
                  static_cast<unsigned long long>(p.tasks_abandoned));
      ImGui::TableSetColumnIndex(8);
      ImGui::Text("%llu", static_cast<unsigned long long>(p.packets));
      ImGui::TableSetColumnIndex(9);
      ImGui::TextUnformatted(
          p.packets ? widgets::FormatDuration(p.packet_time / static_cast<int64_t>(p.packets)).c_str()
                    : "-");
      ImGui::TableSetColumnIndex(10);
      ImGui::Text("%s / %s", widgets::FormatDuration(p.instrumented_time).c_str(),
                  widgets::FormatDuration(p.variant_time).c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
