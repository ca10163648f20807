// How many waits are linked to what released them: a GPU wait to its releasing signal, a CPU
// wait to the signal that reached its value. Inferred links (ReleaseLink::kInferred: an importer
// worked the signal out from timing and call order) are counted apart, so a user can tell what
// the capture said from what fencescope worked out.
#pragma once

#include <cstdint>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct WaitLinkCounts {
  uint64_t gpu_waits = 0;
  uint64_t gpu_waits_linked = 0;           // WaitBox::signal found
  uint64_t gpu_waits_linked_inferred = 0;  // ... and the link was inferred by the importer
  uint64_t cpu_waits = 0;
  uint64_t cpu_waits_linked = 0;           // CpuWait::signal found
  uint64_t cpu_waits_linked_inferred = 0;
};

WaitLinkCounts CountWaitLinks(const Reconstruction& r);

}  // namespace core::analysis
