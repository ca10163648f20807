#include "app/gui/views/simulate_dialog.h"

#include <imgui.h>

#include <cstring>

#include "app/gui/platform/user_dirs.h"
#include "core/sim/scenario_loader.h"

namespace app::gui::views {

void SimulateDialog::Show(const state::Settings& settings) {
  m_show = true;
  m_scenarios = core::sim::EmbeddedScenarioNames();
  m_scenario_index = 0;
  for (size_t i = 0; i < m_scenarios.size(); ++i) {
    if (m_scenarios[i] == settings.last_scenario) m_scenario_index = static_cast<int>(i);
  }
  m_seed = static_cast<int>(settings.last_seed);
  m_error.clear();
}

std::optional<std::filesystem::path> SimulateDialog::Draw(state::Settings& settings) {
  std::optional<std::filesystem::path> result;
  std::string error;
  if (auto done = m_job.TakeResult(error)) {
    result = *done;
  } else if (!error.empty()) {
    m_error = error;
  }
  if (m_show) {
    ImGui::OpenPopup("Simulate");
    m_show = false;
  }
  const float s = ImGui::GetFontSize() / 15.0f;
  ImGui::SetNextWindowSize(ImVec2(560.0f * s, 0), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal("Simulate", nullptr)) return result;
  if (result) ImGui::CloseCurrentPopup();
  const bool busy = m_job.Busy();
  std::string current = m_scenarios.empty() ? std::string("(none)") : m_scenarios[m_scenario_index];
  if (ImGui::BeginCombo("scenario", current.c_str())) {
    for (size_t i = 0; i < m_scenarios.size(); ++i) {
      if (ImGui::Selectable(m_scenarios[i].c_str(), static_cast<int>(i) == m_scenario_index)) {
        m_scenario_index = static_cast<int>(i);
      }
    }
    ImGui::EndCombo();
  }
  ImGui::InputText("or .toml file", m_scenario_path.data(), m_scenario_path.size());
  ImGui::InputInt("seed", &m_seed);
  ImGui::Combo("fence mode", &m_fence_mode, "scenario's\0native (WDDM 3.2)\0monitored (legacy)\0");
  std::string scenario = m_scenario_path[0] ? std::string(m_scenario_path.data()) : current;
  if (!m_output[0]) {
    std::string out = (platform::UserDataDir() / "simulated.db").string();
    std::strncpy(m_output.data(), out.c_str(), m_output.size() - 1);
  }
  ImGui::InputText("output", m_output.data(), m_output.size());
  if (busy) {
    ImGui::ProgressBar(static_cast<float>(m_job.Progress()), ImVec2(-1, 0));
  } else {
    if (ImGui::Button("Run and open")) {
      state::SimulationRequest request;
      request.scenario = scenario;
      request.seed = static_cast<uint64_t>(m_seed);
      if (m_fence_mode == 1) request.fence_mode = core::sim::FenceMode::kNative;
      if (m_fence_mode == 2) request.fence_mode = core::sim::FenceMode::kMonitored;
      request.output = m_output.data();
      settings.last_scenario = scenario;
      settings.last_seed = m_seed;
      m_error.clear();
      m_job.Start(request);
    }
    ImGui::SameLine();
    if (ImGui::Button("Close")) ImGui::CloseCurrentPopup();
  }
  if (!m_error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", m_error.c_str());
  ImGui::EndPopup();
  return result;
}

}  // namespace app::gui::views
