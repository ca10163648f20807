#include "app/cli/terminal_progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace app::cli {

TerminalProgress::TerminalProgress(std::string label)
    : m_label(std::move(label)), m_enabled(isatty(STDERR_FILENO) != 0) {}

TerminalProgress::~TerminalProgress() { Finish(); }

void TerminalProgress::Update(double fraction) {
  if (!m_enabled || m_finished) return;
  auto now = std::chrono::steady_clock::now();
  if (now - m_last_draw < std::chrono::milliseconds(100) && fraction < 1.0) return;
  m_last_draw = now;
  fraction = std::clamp(fraction, 0.0, 1.0);
  constexpr int kWidth = 30;
  int filled = static_cast<int>(fraction * kWidth);
  std::string bar(static_cast<size_t>(filled), '#');
  bar.append(static_cast<size_t>(kWidth - filled), '.');
  std::fprintf(stderr, "\r%s [%s] %3d%%", m_label.c_str(), bar.c_str(),
               static_cast<int>(fraction * 100.0));
  std::fflush(stderr);
}

void TerminalProgress::Finish() {
  if (!m_enabled || m_finished) return;
  m_finished = true;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
}

}  // namespace app::cli
