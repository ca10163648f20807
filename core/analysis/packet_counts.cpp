#include "core/analysis/packet_counts.h"

namespace core::analysis {

PacketCounts CountPackets(const Reconstruction& r, QueueId queue, TimeRange range) {
  PacketCounts out;
  if (queue >= r.queues.size()) return out;
  const QueueTrack& track = r.queues[queue];
  for (uint32_t index : track.packets) {
    const TimeNs submit = r.packets.Get<&Packet::submit>(index);
    const TimeNs start = r.packets.Get<&Packet::start>(index);
    const TimeNs end = r.packets.Get<&Packet::end>(index);
    const TimeNs submitted = submit != kUnknownTime ? submit : start != kUnknownTime ? start : end;
    if (range.Contains(submitted)) ++out.submitted;
    if (range.Contains(start)) ++out.started;
    if (range.Contains(end)) ++out.completed;
  }
  for (const RunSegment& s : track.segments) {
    if (s.start <= range.end && (s.open || s.end > range.end)) ++out.running_at_end;
  }
  return out;
}

}  // namespace core::analysis
