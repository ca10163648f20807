#include "app/gui/views/opportunities_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>

#include "app/cli/analysed_trace.h"
#include "app/gui/state/prediction.h"
#include "app/gui/widgets/palette.h"
#include "app/gui/widgets/time_format.h"
#include "core/replay/whatif.h"

namespace app::gui::views {
namespace {

std::string Question(const core::replay::Opportunity& o) {
  if (o.kind == "faster_packets") return fmt::format("What if {} were 2x faster?", o.name);
  if (o.kind == "faster_host") return "What if the host were 2x faster?";
  return fmt::format("What if this wait were not there ({})?", o.name);
}

}  // namespace

const core::replay::Opportunities* OpportunitiesView::RankingOf(
    const std::filesystem::path& trace) {
  // A ranking about to start gets a fresh control (a cancelled one's stays cancelled).
  if (!m_ranking.Computing() && !m_ranking.Peek(trace.string())) {
    m_control = std::make_shared<Control>();
  }
  return m_ranking.Get(trace.string(), [trace, control = m_control] {
    struct Cancelled {};
    try {
      // As `report` does: every analysis of the trace with its columns, then each change
      // replayed; the replays are nearly all of the time, and report the progress.
      cli::AnalysedTrace t = cli::LoadAndAnalyse(trace.string(), /*full=*/true, {},
                                                 /*all_columns=*/true);
      if (control->cancel) throw Cancelled{};
      core::report::ComputeOpportunities(t.data, [&](double f) {
        control->progress = f;
        if (control->cancel) throw Cancelled{};
      });
      return t.data.opportunities;
    } catch (const Cancelled&) {
      core::replay::Opportunities cancelled;
      cancelled.cancelled = true;
      return cancelled;
    }
  });
}

void OpportunitiesView::Draw(state::Document& doc) {
  m_bar_centres.clear();
  const std::filesystem::path trace = doc.prediction ? doc.prediction->original : doc.path;
  const core::replay::Opportunities* ranking = nullptr;
  try {
    ranking = RankingOf(trace);
  } catch (const std::exception& e) {
    ImGui::TextWrapped("%s", e.what());
    return;
  }
  if (!ranking) {
    ImGui::TextDisabled("Replaying each candidate change of %s...",
                        trace.filename().string().c_str());
    ImGui::ProgressBar(static_cast<float>(m_control->progress.load()),
                       ImVec2(320.0f * ImGui::GetFontSize() / 15.0f, 0));
    ImGui::SameLine();
    if (m_control->cancel) {
      ImGui::TextDisabled("cancelling...");
    } else if (ImGui::Button("Cancel") ||
               ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      Cancel();
    }
    return;
  }
  if (ranking->cancelled) {
    ImGui::TextDisabled("Ranking cancelled.");
    ImGui::SameLine();
    if (ImGui::Button("Rank again")) m_ranking.Reset();
    return;
  }
  if (ranking->list.empty()) {
    ImGui::TextDisabled("Nothing to rank: the trace has no packets.");
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(170, 175, 190, 255));
  ImGui::TextWrapped("replay fidelity: %s",
                     core::replay::FidelitySentence(ranking->fidelity).c_str());
  ImGui::PopStyleColor();
  // The change of the span, as the what-if tab writes it: a change that saves time is negative.
  ImGui::TextDisabled(
      "predicted change of the span against the unedited replay (shorter: -); click one to ask "
      "it");
  const float s = ImGui::GetFontSize() / 15.0f;
  double most = 1e-9;
  for (const auto& o : ranking->list) most = std::max(most, std::abs(o.gain_pct));
  const float label_w = std::min(420.0f * s, ImGui::GetContentRegionAvail().x * 0.45f);
  const float bar_w = std::max(60.0f * s, ImGui::GetContentRegionAvail().x - label_w - 90.0f * s);
  ImGui::BeginChild("opportunity_bars");
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (size_t i = 0; i < ranking->list.size(); ++i) {
    const core::replay::Opportunity& o = ranking->list[i];
    ImGui::PushID(static_cast<int>(i));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float h = ImGui::GetFontSize() + 4.0f * s;
    if (ImGui::InvisibleButton("##bar", ImVec2(label_w + bar_w + 80.0f * s, h))) {
      m_pick = Pick{trace, o, Question(o)};
    }
    const bool hovered = ImGui::IsItemHovered();
    m_bar_centres.push_back(ImVec2((ImGui::GetItemRectMin().x + ImGui::GetItemRectMax().x) * 0.5f,
                                   (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) * 0.5f));
    if (hovered) {
      // No steps in the trace: no step figure (a +0.00% would read as none saved).
      const std::string step = ranking->fidelity.steps_compared > 0
                                   ? fmt::format(", mean step {:+.2f}%", -o.step_gain_pct)
                                   : "";
      ImGui::SetTooltip("%s\nfencescope whatif %s\nspan -> %s%s", o.name.c_str(), o.edit.c_str(),
                        widgets::FormatDuration(o.predicted_span_ns).c_str(), step.c_str());
    }
    const std::string label = fmt::format("{}: {}", o.kind, o.name);
    dl->PushClipRect(at, ImVec2(at.x + label_w - 6.0f * s, at.y + h), true);
    dl->AddText(ImVec2(at.x, at.y + 2.0f * s),
                hovered ? IM_COL32_WHITE : widgets::TrackHeaderText(), label.c_str());
    dl->PopClipRect();
    const float w = bar_w * static_cast<float>(std::abs(o.gain_pct) / most);
    const ImVec2 bar0(at.x + label_w, at.y + 2.0f * s);
    dl->AddRectFilled(bar0, ImVec2(bar0.x + std::max(1.0f, w), at.y + h - 2.0f * s),
                      o.gain_pct >= 0 ? widgets::AfterBar() : IM_COL32(220, 110, 100, 255));
    const std::string gain = fmt::format("{:+.2f}%", -o.gain_pct);
    dl->AddText(ImVec2(bar0.x + std::max(1.0f, w) + 6.0f * s, at.y + 2.0f * s),
                widgets::TrackHeaderText(), gain.c_str());
    ImGui::PopID();
  }
  ImGui::EndChild();
}

}  // namespace app::gui::views
