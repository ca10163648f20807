#include "app/gui/views/whatif_view.h"

#include <fmt/format.h>
#include <imgui.h>

#include <algorithm>

#include "app/gui/widgets/palette.h"
#include "app/gui/widgets/time_format.h"

namespace app::gui::views {
namespace {

float Scale() {
  return ImGui::GetFontSize() / 15.0f;
}

// A factor edit's row: the name, the factor (slider, or Ctrl+click to type it), remove.
bool FactorRow(const char* id, const std::string& what, double& factor, bool& remove) {
  ImGui::PushID(id);
  if (ImGui::SmallButton("x")) remove = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove this edit");
  ImGui::SameLine();
  ImGui::TextUnformatted(what.c_str());
  ImGui::SameLine();
  float f = static_cast<float>(factor);
  ImGui::SetNextItemWidth(160.0f * Scale());
  const bool changed = ImGui::SliderFloat("##factor", &f, 0.0f, 2.0f, "x %.2f");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("times as long (0.5: twice as fast, 0: removed); Ctrl+click to type it");
  }
  if (changed) factor = std::max(0.0f, f);
  ImGui::PopID();
  return changed;
}

bool RemovableRow(const char* id, const std::string& what) {
  ImGui::PushID(id);
  const bool remove = ImGui::SmallButton("x");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("remove this edit");
  ImGui::SameLine();
  ImGui::TextUnformatted(what.c_str());
  ImGui::PopID();
  return remove;
}

template <typename T>
void EraseAt(std::vector<T>& v, std::optional<size_t> i) {
  if (i) v.erase(v.begin() + static_cast<std::ptrdiff_t>(*i));
}

std::string Percent(double pct) {
  return fmt::format("{:+.2f}%", -pct);
}

}  // namespace

void WhatIfView::Ask(const std::filesystem::path& trace, core::replay::Edits edits,
                     std::string label) {
  m_trace = trace;
  m_edits = std::move(edits);
  m_label = std::move(label);
  if (m_job.Busy()) {
    // The question asked before is dropped; this one starts once it has stopped.
    m_job.Cancel();
    m_pending = true;
    return;
  }
  Predict();
}

void WhatIfView::Show(const std::filesystem::path& trace, core::replay::Edits edits,
                      std::string label) {
  m_trace = trace;
  m_edits = std::move(edits);
  m_label = std::move(label);
}

void WhatIfView::Predict() {
  if (m_edits.Empty() || m_trace.empty()) return;
  if (m_job.Busy()) return;  // a cancelled one finishes first; Predict again then
  m_error.clear();
  std::filesystem::path folder = m_folder.empty() ? m_trace.parent_path() : m_folder;
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  state::WhatIfRequest request;
  request.trace = m_trace;
  request.edits = m_edits;
  request.output =
      folder / fmt::format("{}-whatif-{}.db", m_trace.stem().string(), ++m_runs);
  m_job.Start(std::move(request));
}

void WhatIfView::CollectResult() {
  std::string error;
  auto result = m_job.TakeResult(error);
  if (!result) return;
  if (m_pending) {  // the answer to a question since replaced
    m_pending = false;
    Predict();
    return;
  }
  if (*result) {
    m_last = (*result)->prediction;
    m_finished = std::move(*result);
  } else {
    m_error = error;
  }
}

std::unique_ptr<state::Document> WhatIfView::TakePrediction() {
  CollectResult();
  return std::move(m_finished);
}

void WhatIfView::DrawEdits() {
  auto& e = m_edits;
  // Packets by name, or a queue's: a factor each.
  auto factors = [](const char* id, auto& list, const char* what) {
    std::optional<size_t> gone;
    for (size_t i = 0; i < list.size(); ++i) {
      bool remove = false;
      FactorRow(fmt::format("{}{}", id, i).c_str(), fmt::format(fmt::runtime(what), list[i].first),
                list[i].second, remove);
      if (remove) gone = i;
    }
    EraseAt(list, gone);
  };
  factors("scale", e.scale, "packets '{}'");
  factors("scaleq", e.scale_queue, "every packet of {}");
  // Edits with nothing to adjust: a row each, with its remove button.
  auto removable = [](const char* id, auto& list, auto describe) {
    std::optional<size_t> gone;
    for (size_t i = 0; i < list.size(); ++i) {
      if (RemovableRow(fmt::format("{}{}", id, i).c_str(), describe(list[i]))) gone = i;
    }
    EraseAt(list, gone);
  };
  removable("rw", e.remove_wait,
            [](int64_t id) { return fmt::format("GPU wait {} not made", id); });
  removable("rws", e.remove_waits, [](const auto& pair) {
    return fmt::format("no wait of {} on {}", pair.first, pair.second);
  });
  removable("rs", e.remove_sync,
            [](const std::string& call) { return fmt::format("no CPU wait inside {}", call); });
  removable("rct", e.remove_cpu_waits,
            [](const std::string& t) { return fmt::format("no CPU wait of {}", t); });
  removable("rc", e.remove_cpu_wait,
            [](int64_t id) { return fmt::format("CPU wait {} not made", id); });
  if (e.cpu_scale) {
    bool remove = false;
    double f = *e.cpu_scale;
    FactorRow("cpu", "CPU time between the host's calls", f, remove);
    e.cpu_scale = f;
    if (remove) e.cpu_scale.reset();
  }
  // Add: packets by name or glob twice as fast, or the host twice as fast.
  ImGui::SetNextItemWidth(200.0f * Scale());
  ImGui::InputTextWithHint("##pattern", "packet name or glob", m_pattern, sizeof(m_pattern));
  ImGui::SameLine();
  if (ImGui::Button("Add 2x faster") && m_pattern[0]) {
    e.scale.push_back({m_pattern, 0.5});
    m_pattern[0] = 0;
  }
  ImGui::SameLine();
  if (ImGui::Button("Add: host 2x faster") && !e.cpu_scale) e.cpu_scale = 0.5;
}

void WhatIfView::Draw(state::Document& doc) {
  CollectResult();
  if (m_job.Busy()) ++m_frames_while_busy;
  const float s = Scale();
  // The question's trace: a prediction's original, else the trace shown.
  if (m_trace.empty()) m_trace = doc.prediction ? doc.prediction->original : doc.path;

  ImGui::BeginChild("whatif_question", ImVec2(520.0f * s, 0), true);
  if (m_label.empty()) {
    ImGui::TextDisabled("Right-click a packet, a wait or a host call in the timeline to ask.");
  } else {
    ImGui::TextUnformatted(m_label.c_str());
  }
  ImGui::TextDisabled("of %s", m_trace.filename().string().c_str());
  ImGui::Separator();
  DrawEdits();
  ImGui::Separator();
  if (m_job.Busy()) {
    ImGui::ProgressBar(static_cast<float>(m_job.Progress()), ImVec2(300.0f * s, 0), "replaying");
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      m_job.Cancel();
    }
  } else {
    ImGui::BeginDisabled(m_edits.Empty());
    if (ImGui::Button("Predict")) Predict();
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      ImGui::SetTooltip("fencescope whatif %s", m_edits.Describe().c_str());
    }
  }
  if (!m_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 110, 100, 255));
    ImGui::TextWrapped("%s", m_error.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("whatif_result", ImVec2(0, 0), false);
  const state::Prediction* shown = doc.prediction ? doc.prediction.get() : nullptr;
  if (!shown && m_last && m_last->original == doc.path) shown = m_last.get();
  if (shown) {
    DrawResult(*shown);
  } else {
    ImGui::TextDisabled("No prediction of this trace yet.");
  }
  ImGui::EndChild();
}

void WhatIfView::DrawResult(const state::Prediction& p) {
  const auto& r = p.result;
  ImGui::Text("span %s -> %s (%s; the unedited replay: %s)",
              widgets::FormatDuration(r.span_before_ns).c_str(),
              widgets::FormatDuration(r.span_after_ns).c_str(), Percent(r.gain_pct).c_str(),
              widgets::FormatDuration(r.span_replay_ns).c_str());
  if (!r.steps.empty()) ImGui::Text("mean step %s", Percent(r.step_gain_pct).c_str());
  if (ImGui::SmallButton("Critical paths")) m_show_paths = true;
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("selects, in the prediction and in the original, the packet the critical "
                      "path ends at: its chain of causes is the path, drawn in pink");
  }
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(170, 175, 190, 255));
  ImGui::TextWrapped("replay fidelity: %s", p.fidelity.c_str());
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.text.c_str());
  ImGui::Separator();
  DrawStepChart(p);
  DrawQueues(p);
}

void WhatIfView::DrawStepChart(const state::Prediction& p) {
  m_step_centres.clear();
  const auto& steps = p.result.steps;
  if (steps.empty()) {
    ImGui::TextDisabled("No steps (ProfilerStep#N or frames) in this trace.");
    return;
  }
  const float s = Scale();
  const float height = 90.0f * s;
  const float width = std::max(200.0f * s, ImGui::GetContentRegionAvail().x * 0.5f);
  core::model::DurationNs longest = 1;
  for (const auto& step : steps) longest = std::max({longest, step.before_ns, step.after_ns});
  ImGui::Text("per step, before (grey) and after (green)");
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##steps", ImVec2(width, height + ImGui::GetFontSize() + 2.0f));
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(origin, ImVec2(origin.x + width, origin.y + height),
                    IM_COL32(28, 30, 36, 255));
  const std::string top = widgets::FormatDuration(longest);
  dl->AddText(ImVec2(origin.x + width - ImGui::CalcTextSize(top.c_str()).x - 4.0f, origin.y + 2.0f),
              widgets::TrackHeaderText(), top.c_str());
  const float slot = std::min(width / static_cast<float>(steps.size()), 60.0f * s);
  const float bar = std::max(1.0f, slot * 0.4f);
  const float mouse_x = ImGui::GetIO().MousePos.x;
  for (size_t i = 0; i < steps.size(); ++i) {
    const auto& step = steps[i];
    const float x = origin.x + slot * static_cast<float>(i);
    auto bar_at = [&](float x0, core::model::DurationNs ns, ImU32 colour) {
      if (ns < 0) return;
      const float h = height * static_cast<float>(ns) / static_cast<float>(longest);
      dl->AddRectFilled(ImVec2(x0, origin.y + height - h), ImVec2(x0 + bar, origin.y + height),
                        colour);
    };
    m_step_centres.push_back(ImVec2(x + slot * 0.5f, origin.y + height * 0.5f));
    bar_at(x + slot * 0.1f, step.before_ns, widgets::BeforeBar());
    bar_at(x + slot * 0.1f + bar, step.after_ns, widgets::AfterBar());
    if (slot >= 30.0f * s) {  // room for the step's id under its bars
      const std::string id = std::to_string(step.id);
      dl->AddText(ImVec2(x + slot * 0.1f, origin.y + height + 1.0f), widgets::TrackHeaderText(),
                  id.c_str());
    }
    if (hovered && mouse_x >= x && mouse_x < x + slot) {
      if (ImGui::IsItemClicked(ImGuiMouseButton_Left)) m_step_clicked = step.id;
      ImGui::SetTooltip("step %lld: %s -> %s (unedited replay %s)\nclick to zoom to it",
                        static_cast<long long>(step.id),
                        widgets::FormatDuration(step.before_ns).c_str(),
                        step.after_ns >= 0 ? widgets::FormatDuration(step.after_ns).c_str() : "-",
                        step.replay_ns >= 0 ? widgets::FormatDuration(step.replay_ns).c_str()
                                            : "-");
    }
  }
}

void WhatIfView::DrawQueues(const state::Prediction& p) {
  constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                     ImGuiTableFlags_BordersV | ImGuiTableFlags_Resizable;
  ImGui::Text("per queue, over each trace's span (%s -> %s), as `compare` gives them",
              widgets::FormatDuration(p.span_before_ns).c_str(),
              widgets::FormatDuration(p.span_after_ns).c_str());
  if (!ImGui::BeginTable("whatif_queues", 4, kFlags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("queue");
  ImGui::TableSetupColumn("busy before -> after");
  ImGui::TableSetupColumn("waiting before -> after");
  ImGui::TableSetupColumn("idle before -> after");
  ImGui::TableHeadersRow();
  auto cell = [](core::model::DurationNs a, core::model::DurationNs b) {
    ImGui::Text("%s -> %s", widgets::FormatDuration(a).c_str(), widgets::FormatDuration(b).c_str());
  };
  for (const auto& q : p.queues) {
    if (q.before.busy_ns == 0 && q.after.busy_ns == 0 && q.before.waiting_ns == 0 &&
        q.after.waiting_ns == 0)
      continue;  // a queue that did nothing in either
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextUnformatted(q.name.c_str());
    ImGui::TableSetColumnIndex(1);
    cell(q.before.busy_ns, q.after.busy_ns);
    ImGui::TableSetColumnIndex(2);
    cell(q.before.waiting_ns, q.after.waiting_ns);
    ImGui::TableSetColumnIndex(3);
    cell(q.before.idle_ns, q.after.idle_ns);
  }
  ImGui::EndTable();
}

}  // namespace app::gui::views
