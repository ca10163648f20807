#include "core/analysis/critical_chain.h"

#include <algorithm>

namespace core::analysis {
namespace {

// The latest end of packet `index`'s run segments (they lie in its queue's list from
// first_segment on, maybe with other packets' segments between them).
bool PacketRunEnd(const Reconstruction& r, uint32_t index, TimeNs& end) {
  const Packet p = r.packets[index];
  if (p.segments == 0 || p.queue >= r.queues.size()) return false;
  const auto& segments = r.queues[p.queue].segments;
  uint32_t found = 0;
  for (size_t k = p.first_segment; k < segments.size() && found < p.segments; ++k) {
    if (segments.Get<&RunSegment::packet>(k) != index) continue;
    const TimeNs e = segments.Get<&RunSegment::end>(k);
    end = found == 0 ? e : std::max(end, e);
    ++found;
  }
  return found != 0;
}

}  // namespace

bool ChainEndOf(const Reconstruction& r, const ChainItem& item, PathPosition& from) {
  switch (item.kind) {
    case ChainItemKind::kPacket: {
      if (item.index >= r.packets.size()) return false;
      from = {false, r.packets.Get<&Packet::queue>(item.index), 0};
      return PacketRunEnd(r, item.index, from.t);
    }
    case ChainItemKind::kGpuWait: {
      if (item.index >= r.waits.size()) return false;
      const WaitBox w = r.waits[item.index];
      from = {false, w.queue, w.unblocked};
      return w.unblocked != kUnknownTime && w.queue != 0 && w.queue < r.queues.size();
    }
    case ChainItemKind::kCpuWait: {
      if (item.index >= r.cpu_waits.size()) return false;
      const CpuWait w = r.cpu_waits[item.index];
      from = {true, w.thread, w.released};
      return w.released != kUnknownTime && w.thread != 0 && w.thread < r.threads.size();
    }
    case ChainItemKind::kSignal: {
      if (item.index >= r.signals.size()) return false;
      const SignalBox s = r.signals[item.index];
      from = {s.cpu, s.cpu ? s.thread : s.queue, s.executed};
      const size_t tracks = s.cpu ? r.threads.size() : r.queues.size();
      return s.executed != kUnknownTime && from.track != 0 && from.track < tracks;
    }
  }
  return false;
}

CriticalPath ComputeChainTo(const Reconstruction& r, const ChainItem& item) {
  return ComputeChainTo(r, IndexForPaths(r), item);
}

CriticalPath ComputeChainTo(const Reconstruction& r, const PathIndex& index,
                            const ChainItem& item) {
  PathPosition from;
  if (!ChainEndOf(r, item, from)) return {};
  return WalkBackFrom(r, index, from);
}

}  // namespace core::analysis
