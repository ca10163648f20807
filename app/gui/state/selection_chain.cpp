#include "app/gui/state/selection_chain.h"

#include <algorithm>

namespace app::gui::state {

using core::analysis::ChainItemKind;
using core::analysis::kNoIndex;
using core::analysis::PathStepKind;

std::optional<core::analysis::ChainItem> ChainItemOf(const Selection& selection) {
  switch (selection.kind) {
    case SelectionKind::kPacket:
      return core::analysis::ChainItem{ChainItemKind::kPacket, selection.index};
    case SelectionKind::kWait:
      return core::analysis::ChainItem{ChainItemKind::kGpuWait, selection.index};
    case SelectionKind::kCpuWait:
      return core::analysis::ChainItem{ChainItemKind::kCpuWait, selection.index};
    case SelectionKind::kSignal:
      return core::analysis::ChainItem{ChainItemKind::kSignal, selection.index};
    default:
      return std::nullopt;
  }
}

bool UpdateSelectionChain(const Document& doc, SelectionChain& chain) {
  if (chain.doc == &doc && chain.selection == doc.view.selection) return false;
  if (chain.doc != &doc) chain.index.reset();
  chain.doc = &doc;
  chain.selection = doc.view.selection;
  const auto item = ChainItemOf(chain.selection);
  if (item && !chain.index) {
    chain.index = std::make_unique<core::analysis::PathIndex>(
        core::analysis::IndexForPaths(doc.analysis.recon));
  }
  chain.path = item ? core::analysis::ComputeChainTo(doc.analysis.recon, *chain.index, *item)
                    : core::analysis::CriticalPath{};
  chain.jumps = core::analysis::JumpCount(chain.path);
  ++chain.generation;
  return true;
}

Selection SelectionOfStep(const core::analysis::PathStep& step) {
  switch (step.kind) {
    case PathStepKind::kRun:
    case PathStepKind::kSubmit:
      if (step.packet != kNoIndex) return {SelectionKind::kPacket, step.packet, 0};
      break;
    case PathStepKind::kGpuWait:
      if (step.wait != kNoIndex) return {SelectionKind::kWait, step.wait, 0};
      break;
    case PathStepKind::kCpuWait:
      if (step.wait != kNoIndex) return {SelectionKind::kCpuWait, step.wait, 0};
      break;
    default:
      break;
  }
  return {};
}

void GoToStep(Document& doc, const core::analysis::PathStep& step) {
  const Selection target = SelectionOfStep(step);
  if (!target.Empty()) doc.view.selection = target;
  ZoomTo(doc.view, {step.start, std::max(step.end, step.start + 1)});
}

}  // namespace app::gui::state
