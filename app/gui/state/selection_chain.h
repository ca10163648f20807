// The chain of causes that ends at the selected item (core/analysis/critical_chain.h): computed
// once when the selection changes, then read by the timeline (its arrows and steps, highlighted)
// and the details panel (its steps, each a link). A selection that is not a packet, a GPU or CPU
// wait or a signal has no chain.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "app/gui/state/document.h"
#include "core/analysis/critical_chain.h"

namespace app::gui::state {

struct SelectionChain {
  const Document* doc = nullptr;  // what `selection`, `path` and `index` belong to
  // What every chain of the document reads, built at the first selection that has a chain.
  std::unique_ptr<core::analysis::PathIndex> index;
  Selection selection;
  core::analysis::CriticalPath path;  // no steps: no chain
  size_t jumps = 0;                   // core::analysis::JumpCount(path)
  uint64_t generation = 0;            // bumped each time the chain is recomputed
};

// The item a selection stands for in critical_chain.h's terms; nullopt for other selections.
std::optional<core::analysis::ChainItem> ChainItemOf(const Selection& selection);

// Recomputes `chain` when the document or its selection changed since the last call; returns
// true when it did. Reset `doc` to nullptr when a document goes away (another one may get its
// address).
bool UpdateSelectionChain(const Document& doc, SelectionChain& chain);

// What selecting a chain step selects: the packet of a run or submit step, the wait of a wait
// step; nothing for gaps and CPU runs (the step is only zoomed to).
Selection SelectionOfStep(const core::analysis::PathStep& step);

// A click on a step: selects what it is about (SelectionOfStep; the selection stays for a gap or
// a CPU run) and zooms to the step.
void GoToStep(Document& doc, const core::analysis::PathStep& step);

}  // namespace app::gui::state
