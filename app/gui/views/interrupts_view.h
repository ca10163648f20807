// Interrupt panel: per adapter the number of fence-signal interrupts, how many released nobody
// (spurious: seed 003's permitted race), how many named a HWQueue (optimized) or made the OS scan
// every log, the mean and peak rate (core::analysis::ComputeInterrupts, as in the reports:
// Document::analysis.interrupts); and the clipped list of interrupts (click to jump).
#pragma once

#include <vector>

#include "app/gui/state/document.h"

namespace app::gui::views {

class InterruptsView {
 public:
  void Draw(state::Document& doc);

 private:
  const state::Document* m_doc = nullptr;
  bool m_only_spurious = false;
  std::vector<uint32_t> m_rows;  // interrupt indices shown in the list
  bool m_rows_spurious = false;
};

}  // namespace app::gui::views
