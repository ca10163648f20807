#include "app/gui/views/chain_steps_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include <string>

#include "app/gui/state/record_fields.h"
#include "app/gui/widgets/time_format.h"

namespace app::gui::views {
namespace {

using core::analysis::kNoIndex;
using core::analysis::PathStep;

// "row: packet", and where the chain goes on from a step that jumped to another row.
std::string WhereOf(const state::Document& doc, const PathStep& step) {
  std::string text = step.thread != 0
                         ? state::ThreadName(doc, step.thread, state::FieldDetail::kBrief)
                         : state::QueueName(doc, step.queue, state::FieldDetail::kBrief);
  const uint32_t packet = step.NamedPacket();
  if (packet != kNoIndex && packet < doc.analysis.recon.packets.size()) {
    text += ": " + doc.store.String(doc.analysis.recon.packets[packet].name);
  }
  if (step.jumped) {
    text += step.kind == core::analysis::PathStepKind::kSubmit ? "  <- submitted by its thread"
                                                               : "  <- released by its signal";
  }
  return text;
}

}  // namespace

void ChainStepsView::Draw(state::Document& doc, const state::SelectionChain& chain) {
  const auto& steps = chain.path.steps;
  if (chain.doc != &doc || steps.empty()) return;
  ImGui::Spacing();
  const std::string title =
      fmt::format("Critical chain: {} steps, {} jumps, {}###chain", steps.size(), chain.jumps,
                  widgets::FormatDuration(chain.path.Length()));
  if (!ImGui::CollapsingHeader(title.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextDisabled("what held the selection, latest first; click a step to go to it");
  constexpr ImGuiTableFlags kFlags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
  if (!ImGui::BeginTable("chain_steps", 3, kFlags)) return;
  ImGui::TableSetupColumn("step");
  ImGui::TableSetupColumn("duration");
  ImGui::TableSetupColumn("row: packet", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  const PathStep* clicked = nullptr;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(steps.size()));
  while (clipper.Step()) {
    for (int row = clipper.DisplayStart; row < clipper.DisplayEnd; ++row) {
      const PathStep& step = steps[steps.size() - 1 - static_cast<size_t>(row)];
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::PushID(row);
      if (ImGui::Selectable(core::analysis::PathStepKindName(step.kind), row == 0,
                            ImGuiSelectableFlags_SpanAllColumns)) {
        clicked = &step;
      }
      ImGui::PopID();
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(widgets::FormatDuration(step.end - step.start).c_str());
      ImGui::TableSetColumnIndex(2);
      const std::string where = WhereOf(doc, step);
      ImGui::TextUnformatted(where.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", where.c_str());
    }
  }
  ImGui::EndTable();
  if (clicked) state::GoToStep(doc, *clicked);
}

}  // namespace app::gui::views
