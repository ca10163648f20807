#include "core/analysis/wait_links.h"

namespace core::analysis {

WaitLinkCounts CountWaitLinks(const Reconstruction& r) {
  WaitLinkCounts c;
  for (const WaitBox& w : r.waits) {
    ++c.gpu_waits;
    if (w.signal == kNoIndex) continue;
    ++c.gpu_waits_linked;
    if (w.link_inferred) ++c.gpu_waits_linked_inferred;
  }
  for (const CpuWait& w : r.cpu_waits) {
    ++c.cpu_waits;
    if (w.signal == kNoIndex) continue;
    ++c.cpu_waits_linked;
    if (w.link_inferred) ++c.cpu_waits_linked_inferred;
  }
  return c;
}

}  // namespace core::analysis
