// What the GPU side of a CUDA trace says about stream order, for placing the synchronisation
// records (cuda_sync_mapping.h). A CUDA stream runs its work in launch order, so:
//   * "everything launched on stream S before host time t has completed" is the latest end among
//     S's packets launched before t (a record or a stream sync executes then);
//   * "the work the stream ran next after t" is the first packet launched on S after t (the
//     packet a stream wait held back).
// Packets are ordered by their launch (submit) time; a packet with no known launch counts as
// launched at its start.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "importers/common/cuda_sync_types.h"

namespace importers::cuda {

class StreamTiming {
 public:
  explicit StreamTiming(const std::vector<CudaPacket>& packets);

  struct Completion {
    TimeNs at = 0;            // when the stream's earlier work had all completed (>= t)
    uint32_t packet = kNone;  // the packet that completed last (kNone: nothing was running)
  };
  // Work launched on `queue` strictly before host time t.
  Completion CompletedAfter(core::model::QueueId queue, TimeNs t) const;

  // The first packet launched on `queue` at or after host time t (kNone: none).
  uint32_t NextLaunched(core::model::QueueId queue, TimeNs t) const;

  // Among the packets of `device` not on `except`, the one whose end is the latest at or before
  // t and not before `not_before` (kNone: none). The GPU-timing clue for a record's stream.
  uint32_t LatestEndBefore(uint32_t device, core::model::QueueId except, TimeNs not_before,
                           TimeNs t) const;

 private:
  struct Entry {
    TimeNs submit = 0;
    TimeNs running_end = 0;       // max end over this entry and the earlier ones
    uint32_t running_packet = 0;  // the packet holding running_end
    uint32_t packet = 0;
  };
  const std::vector<CudaPacket>& m_packets;
  std::unordered_map<core::model::QueueId, std::vector<Entry>> m_by_queue;
  // Per device: (end, packet) sorted by end.
  std::unordered_map<uint32_t, std::vector<std::pair<TimeNs, uint32_t>>> m_ends_by_device;
};

}  // namespace importers::cuda
