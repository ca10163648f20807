#include "app/gui/state/simulation_job.h"

#include "core/sim/scenario_loader.h"
#include "core/sim/simulator.h"
#include "core/store/trace_writer.h"

namespace app::gui::state {

uint64_t Simulate(const SimulationRequest& request, const std::function<void(double)>& progress) {
  core::sim::Scenario scenario = core::sim::LoadScenario(request.scenario);
  core::sim::SimOptions options;
  options.seed = request.seed;
  options.fence_mode = request.fence_mode;
  options.progress = progress;
  core::store::TraceWriter writer(request.output, "simulator");
  core::sim::SimSummary summary = core::sim::RunSimulation(scenario, writer, options);
  writer.Commit();
  return summary.events;
}

SimulationJob::~SimulationJob() {
  if (m_thread.joinable()) m_thread.join();
}

void SimulationJob::Start(SimulationRequest request) {
  if (m_busy.load()) return;
  if (m_thread.joinable()) m_thread.join();
  m_busy = true;
  m_progress = 0.0;
  {
    std::lock_guard lock(m_mutex);
    m_done = false;
    m_error.clear();
  }
  m_thread = std::thread([this, request = std::move(request)] {
    std::string error;
    try {
      Simulate(request, [this](double f) { m_progress = f; });
    } catch (const std::exception& e) {
      error = e.what();
    }
    std::lock_guard lock(m_mutex);
    m_output = request.output;
    m_error = std::move(error);
    m_done = true;
    m_busy = false;
  });
}

std::optional<std::filesystem::path> SimulationJob::TakeResult(std::string& error) {
  std::lock_guard lock(m_mutex);
  if (!m_done) return std::nullopt;
  m_done = false;
  if (!m_error.empty()) {
    error = m_error;
    return std::nullopt;
  }
  return m_output;
}

}  // namespace app::gui::state
