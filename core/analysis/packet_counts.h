// How many packets a queue had in a time range, each count saying what it counts. The one
// definition behind the per-queue packets_* keys of `stats` / `report` / `compare` and the
// window's range statistics:
//
//   queue   submit ... start ===== run ===== end       (packet_completed)
//           submit ... start ===== run ===== ...|       (still running when the range ends)
//
//   submitted       submitted in the range: packet_submitted inside it; a packet whose trace
//                   has no submit record counts at its first known time (start, else end)
//   started         its first packet_started inside the range (a resume is not a start)
//   completed       packet_completed inside the range
//   running_at_end  running when the range ends: a run segment begun at or before the end
//                   that had not ended by then (preempted and not resumed, or lost in a TDR,
//                   is not running)
//
// Over the whole trace (TraceSpan) submitted counts every packet the trace knows of;
// started - completed = running at the end + preempted or lost packets never completed.
#pragma once

#include <cstdint>

#include "core/analysis/time_range.h"

namespace core::analysis {

struct PacketCounts {
  uint64_t submitted = 0;
  uint64_t started = 0;
  uint64_t completed = 0;
  uint64_t running_at_end = 0;
};

PacketCounts CountPackets(const Reconstruction& r, QueueId queue, TimeRange range);

}  // namespace core::analysis
