// Runs the simulator on a worker thread for the Simulate dialog and for the default window:
// scenario (embedded name or .toml path), seed, fence mode -> a trace file, with progress.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "core/sim/scenario.h"

namespace app::gui::state {

struct SimulationRequest {
  std::string scenario = "default";
  std::optional<uint64_t> seed;
  std::optional<core::sim::FenceMode> fence_mode;
  std::filesystem::path output;
};

// Simulates synchronously (the default window before it opens, tests). Returns the number of
// events written. Throws core::Error; the output is untouched on failure.
uint64_t Simulate(const SimulationRequest& request,
                  const std::function<void(double)>& progress = {});

class SimulationJob {
 public:
  ~SimulationJob();
  void Start(SimulationRequest request);
  bool Busy() const { return m_busy.load(); }
  double Progress() const { return m_progress.load(); }
  // Once finished: the written file (success) or the error text; nullopt while running / idle.
  std::optional<std::filesystem::path> TakeResult(std::string& error);

 private:
  std::thread m_thread;
  std::atomic<bool> m_busy{false};
  std::atomic<double> m_progress{0.0};
  std::mutex m_mutex;
  bool m_done = false;
  std::filesystem::path m_output;
  std::string m_error;
};

}  // namespace app::gui::state
