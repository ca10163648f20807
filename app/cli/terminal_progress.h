// A one-line progress bar on stderr for long work (import, simulate, report, load). It draws
// only when stderr is a terminal, so scripts and CI logs stay clean.
#pragma once

#include <chrono>
#include <string>

namespace app::cli {

class TerminalProgress {
 public:
  explicit TerminalProgress(std::string label);
  ~TerminalProgress();
  // fraction in [0, 1]; redraws at most ten times a second.
  void Update(double fraction);
  void Finish();

 private:
  std::string m_label;
  bool m_enabled;
  bool m_finished = false;
  std::chrono::steady_clock::time_point m_last_draw{};
};

}  // namespace app::cli
