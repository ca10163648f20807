// The chain of causes that ends at one item: the critical path walked back, by the rules of
// critical_path.h, from where the item ends instead of from the end of the trace.
//
//   item        walk back from                      the chain's last step
//   packet      its queue, at the end of its run     run (the packet's last segment)
//   GPU wait    its queue, at its unblock            gpu_wait
//   CPU wait    its thread, at its release           cpu_wait
//   signal      its queue (CPU signal: its thread),  what ran up to it on that track
//               at its execution
//
// A wait that did not hold its track (its queue was still running other work when it was
// unblocked, or reached it at the unblock) is not on its own chain: the chain shows what held the
// track instead, as the critical path does. The chain from the packet that ends last in the trace
// is the trace's critical path.
#pragma once

#include <cstdint>

#include "core/analysis/critical_path.h"

namespace core::analysis {

enum class ChainItemKind : uint8_t {
  kPacket = 0,   // Reconstruction::packets
  kGpuWait = 1,  // Reconstruction::waits
  kCpuWait = 2,  // Reconstruction::cpu_waits
  kSignal = 3,   // Reconstruction::signals
};

struct ChainItem {
  ChainItemKind kind = ChainItemKind::kPacket;
  uint32_t index = kNoIndex;  // into the table of `kind`
};

// Where the chain ending at `item` starts walking back (table above). False when the item does
// not end in the trace (a packet that never ran, a wait never released, a signal never executed)
// or names no track.
bool ChainEndOf(const Reconstruction& r, const ChainItem& item, PathPosition& from);

// The chain ending at `item`; no steps when ChainEndOf is false. Several chains of one
// reconstruction share its PathIndex (critical_path.h); the first form builds one.
CriticalPath ComputeChainTo(const Reconstruction& r, const ChainItem& item);
CriticalPath ComputeChainTo(const Reconstruction& r, const PathIndex& index, const ChainItem& item);

}  // namespace core::analysis
