#include "app/gui/views/findings_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include "app/gui/state/selection_info.h"
#include "app/gui/widgets/time_format.h"
#include "core/analysis/wait_findings.h"
#include "core/report/findings.h"

namespace app::gui::views {
namespace {
using core::analysis::kUnknownTime;
using core::analysis::TaskOutcome;
using state::Selection;
using state::SelectionKind;
}  // namespace

std::vector<Finding> CollectFindings(const state::Document& doc) {
  const auto& r = doc.reconstruction;
  std::vector<Finding> out;
  auto fence = [&](core::model::FenceId f) {
    const auto* x = doc.store.FindFence(f);
    return x ? x->name : fmt::format("fence {}", f);
  };
  auto queue = [&](core::model::QueueId q) {
    const auto* x = doc.store.FindQueue(q);
    return x ? x->name : fmt::format("queue {}", q);
  };
  const core::analysis::WaitFindings waits = core::analysis::FindWaitProblems(r);
  for (const auto& cycle : waits.cycles) {
    std::string text = "deadlock:";
    for (const auto& step : cycle.steps) {
      text += fmt::format(" {} waits {} >= {} (signal queued on {}) ->", queue(step.queue),
                          fence(step.fence), step.value, queue(step.signaller));
    }
    text.resize(text.size() - 3);
    Selection target;
    for (uint32_t i = 0; i < r.waits.size() && !cycle.steps.empty(); ++i) {
      if (r.waits[i].wait_id == cycle.steps.front().wait_id) target = {SelectionKind::kWait, i, 0};
    }
    out.push_back({Finding::Severity::kError, "wait cycle", text, target});
  }
  // the same sentences as the report (core/report/findings.h)
  auto add_waits = [&](const std::vector<core::analysis::PendingWait>& list,
                       Finding::Severity severity, const char* category) {
    for (const auto& w : list) {
      out.push_back({severity,
                     category,
                     core::report::OpenWaitMessage(doc.store, w),
                     {w.cpu ? SelectionKind::kCpuWait : SelectionKind::kWait, w.index, 0}});
    }
  };
  add_waits(waits.never_unblocked, Finding::Severity::kError, "never-unblocked wait");
  add_waits(waits.stuck_after_rewind, Finding::Severity::kError, "stuck after rewind");
  add_waits(waits.signal_not_in_capture, Finding::Severity::kInfo, "signal not in capture");
  const core::analysis::HazardAnalysis& hazards = doc.hazards;  // found at load
  for (const auto& h : hazards.list) {
    const core::store::Resource* res = h.resource >= 1 && h.resource <= doc.store.resources.size()
                                           ? &doc.store.resources[h.resource - 1]
                                           : nullptr;
    out.push_back({Finding::Severity::kError,
                   "resource hazard",
                   fmt::format("{} {}: {} and {} touch bytes {}+{} with no fence between them",
                               core::analysis::HazardKindName(h.kind),
                               res ? res->name : fmt::format("resource {}", h.resource),
                               queue(h.first_queue), queue(h.second_queue), h.offset, h.length),
                   {SelectionKind::kPacket, h.second_packet, 0}});
  }
  if (hazards.hazards > hazards.list.size()) {
    out.push_back({Finding::Severity::kWarning,
                   "resource hazard",
                   fmt::format("{} more hazards not listed", hazards.hazards - hazards.list.size()),
                   {}});
  }
  for (const auto& q : r.queues) {
    for (uint32_t i = 0; i < q.missing.size(); ++i) {
      const auto& m = q.missing[i];
      out.push_back(
          {Finding::Severity::kWarning,
           "log overrun",
           fmt::format("{} log of {}: {} entries lost, data missing for {}",
                       m.log == core::model::LogType::kWait ? "wait" : "signal", queue(m.queue),
                       m.entries_lost, widgets::FormatDuration(m.end - m.start)),
           {SelectionKind::kMissing, i, m.queue}});
    }
  }
  for (uint32_t i = 0; i < r.signals.size(); ++i) {
    if (!r.signals[i].rewind) continue;
    out.push_back({Finding::Severity::kInfo,
                   "fence rewind",
                   fmt::format("{} rewound from {} to {}", fence(r.signals[i].fence),
                               r.signals[i].previous_value, r.signals[i].value),
                   {SelectionKind::kSignal, i, 0}});
  }
  for (uint32_t i = 0; i < r.tasks.size(); ++i) {
    const auto& t = r.tasks[i];
    if (t.outcome != TaskOutcome::kCancelled && t.outcome != TaskOutcome::kAbandoned) continue;
    out.push_back({Finding::Severity::kInfo,
                   "background task",
                   fmt::format("task {} {}", t.task_id,
                               t.outcome == TaskOutcome::kCancelled ? "cancelled"
                                                                    : "abandoned (PSO destroyed)"),
                   {SelectionKind::kTask, i, 0}});
  }
  for (const auto& p : r.problems) {
    out.push_back({Finding::Severity::kWarning,
                   "reconstruction",
                   fmt::format("{}: {} ({})", p.name, p.count, p.description),
                   {}});
  }
  for (const auto& p : doc.store.problems) {
    out.push_back(
        {p.severity == core::model::Severity::kInfo ? Finding::Severity::kInfo
                                                    : Finding::Severity::kWarning,
         "import",
         fmt::format("{}: {} ({}) first at {}", p.name, p.count, p.description, p.first_place),
         {}});
  }
  return out;
}

void FindingsView::Draw(state::Document& doc) {
  if (m_doc != &doc) {
    m_findings = CollectFindings(doc);
    m_doc = &doc;
  }
  if (m_findings.empty()) {
    ImGui::TextDisabled("No findings: every wait was released, no log overruns, no problems.");
    return;
  }
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_BordersV | ImGuiTableFlags_Resizable;
  if (!ImGui::BeginTable("findings", 3, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("severity", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("category", ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableSetupColumn("finding (click to jump)");
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(m_findings.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const Finding& f = m_findings[row];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      constexpr ImU32 kColors[] = {IM_COL32(150, 190, 255, 255), IM_COL32(255, 200, 90, 255),
                                   IM_COL32(255, 100, 90, 255)};
      constexpr const char* kNames[] = {"info", "warning", "error"};
      ImGui::PushStyleColor(ImGuiCol_Text, kColors[static_cast<int>(f.severity)]);
      ImGui::TextUnformatted(kNames[static_cast<int>(f.severity)]);
      ImGui::PopStyleColor();
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(f.category.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::PushID(row);
      if (ImGui::Selectable(f.text.c_str(), !f.target.Empty() && doc.view.selection == f.target) &&
          !f.target.Empty()) {
        state::JumpTo(doc, f.target);
      }
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
