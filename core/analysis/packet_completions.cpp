#include "core/analysis/packet_completions.h"

#include <algorithm>
#include <tuple>

namespace core::analysis {

PacketCompletions IndexPacketCompletions(const Reconstruction& r) {
  PacketCompletions index;
  index.packets.resize(r.queues.size());
  index.ends.resize(r.queues.size());
  const auto& ends = r.packets.Column<&Packet::end>();
  const auto& starts = r.packets.Column<&Packet::start>();
  const auto& queues = r.packets.Column<&Packet::queue>();
  for (uint32_t i = 0; i < r.packets.size(); ++i) {
    if (ends[i] == kUnknownTime || queues[i] >= index.packets.size()) continue;
    index.packets[queues[i]].push_back(i);
  }
  for (size_t q = 0; q < index.packets.size(); ++q) {
    auto& list = index.packets[q];
    auto by_end = [&](uint32_t a, uint32_t b) {
      return std::make_tuple(ends[a], starts[a], a) < std::make_tuple(ends[b], starts[b], b);
    };
    // A queue's packets mostly complete in the order they were made: then one pass.
    if (!std::is_sorted(list.begin(), list.end(), by_end)) {
      std::sort(list.begin(), list.end(), by_end);
    }
    index.ends[q].reserve(list.size());
    for (uint32_t p : list) index.ends[q].push_back(ends[p]);
  }
  return index;
}

uint32_t LastPacketCompletedBy(const PacketCompletions& index, QueueId queue, TimeNs t) {
  if (queue >= index.ends.size() || t == kUnknownTime) return kNoIndex;
  const auto& ends = index.ends[queue];
  const size_t after = std::upper_bound(ends.begin(), ends.end(), t) - ends.begin();
  return after == 0 ? kNoIndex : index.packets[queue][after - 1];
}

uint32_t PacketBeforeSignal(const Reconstruction& r, const PacketCompletions& index,
                            uint32_t signal) {
  if (signal >= r.signals.size()) return kNoIndex;
  const SignalBox s = r.signals[signal];
  if (s.cpu || s.queue == 0) return kNoIndex;
  return LastPacketCompletedBy(index, s.queue, s.executed);
}

}  // namespace core::analysis
