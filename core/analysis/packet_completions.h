// Which work a queue had just finished at a given time: the last packet on a queue completed at
// or before that time. This names the work behind a GPU fence signal: a queue executes a signal
// once the work submitted before it has completed, so the packet that completed last on the
// signalling queue, at or before the signal executed, is the one whose completion released the
// waiters.
//
//   copy   ==packet A==|  ==packet B==|sig executed
//   3d                    wait ...............|unblocked   released by B (last completed <= sig)
//
// The index is built once (completed packets per queue, by completion time) and then answers
// each lookup with a binary search. Packets that never completed are not in it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

struct PacketCompletions {
  // [queue id] -> indices into Reconstruction::packets of the queue's completed packets, by
  // (end, start, index); ends[queue] holds their end times in the same order.
  std::vector<std::vector<uint32_t>> packets;
  std::vector<std::vector<TimeNs>> ends;
};

PacketCompletions IndexPacketCompletions(const Reconstruction& r);

// The packet completed last on `queue` at or before `t` (of several completed at the same time,
// the one that started last); kNoIndex when none.
uint32_t LastPacketCompletedBy(const PacketCompletions& index, QueueId queue, TimeNs t);

// The packet whose completion released signal `signal` (index into r.signals): the last packet
// completed on the signal's queue at or before it executed. kNoIndex for a CPU signal, a signal
// never executed, or a queue with no packet completed by then.
uint32_t PacketBeforeSignal(const Reconstruction& r, const PacketCompletions& index,
                            uint32_t signal);

}  // namespace core::analysis
