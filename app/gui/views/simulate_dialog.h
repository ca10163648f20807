// Simulate dialog: scenario (embedded or a .toml path), seed, fence mode, output file; runs the
// simulator on a worker thread with progress and opens the result when done.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/state/settings.h"
#include "app/gui/state/simulation_job.h"

namespace app::gui::views {

class SimulateDialog {
 public:
  void Show(const state::Settings& settings);
  // Draws the dialog when shown; returns the trace to open once a simulation finished.
  std::optional<std::filesystem::path> Draw(state::Settings& settings);

 private:
  bool m_show = false;
  std::vector<std::string> m_scenarios;
  int m_scenario_index = 0;
  std::array<char, 512> m_scenario_path{};
  int m_seed = 1;
  int m_fence_mode = 0;  // 0 scenario's, 1 native, 2 monitored
  std::array<char, 1024> m_output{};
  std::string m_error;
  state::SimulationJob m_job;
};

}  // namespace app::gui::views
