// Interrupt panel: per adapter the number of fence-signal interrupts, how many released nobody
// (spurious: seed 003's permitted race), how many named a HWQueue (optimized) or made the OS scan
// every log, the mean and peak rate; and the clipped list of interrupts (click to jump).
#pragma once

#include <vector>

#include "app/gui/state/document.h"

namespace app::gui::views {

struct AdapterInterruptStats {
  core::model::AdapterId adapter = 0;
  uint64_t total = 0;
  uint64_t spurious = 0;
  uint64_t optimized = 0;
  uint64_t scan_all = 0;
  uint64_t waiters_released = 0;
  double peak_per_ms = 0;  // most interrupts in any 1 ms window starting at an interrupt
};

std::vector<AdapterInterruptStats> ComputeInterruptStats(const state::Document& doc);

class InterruptsView {
 public:
  void Draw(state::Document& doc);

 private:
  const state::Document* m_doc = nullptr;
  std::vector<AdapterInterruptStats> m_stats;
  bool m_only_spurious = false;
  std::vector<uint32_t> m_rows;  // interrupt indices shown in the list
  bool m_rows_spurious = false;
};

}  // namespace app::gui::views
