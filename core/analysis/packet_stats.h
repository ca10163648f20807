// Per-name packet statistics: for each (packet name, queue), how many packets ran and for how
// long: count, total, mean, p50, p99 and max of their run durations. Packets of every source
// count alike (simulated packets, CUDA kernels and memcpys, ETW DMA packets): the name is
// Packet::name, a StringId into TraceStore::strings (0, the empty string, for unnamed packets,
// which form one group per queue).
//
// Which packets count: completed ones (a packet_completed record) that ran (at least one closed
// run segment). Packets never started, still running when the trace ended, or lost in a TDR have
// no known duration and are left out.
//
// Duration = run time: the sum of the packet's run segments, each end - start. A packet that
// ran in one piece has duration end - start; a packet preempted and resumed counts the time it
// ran, not the wall time from its first start to its completion:
//
//   queue  [==run a==]preempted .. other work .. resumed[==run b==]completed
//          duration = a + b (the time in between belongs to other packets or to nobody)
//
// Percentiles are nearest-rank (percentiles.h), the same definition as every other figure.
//
// Range: a packet counts when it completed inside [range.start, range.end] (both included); its
// whole run time counts, not clipped to the range, so a packet is counted once, where it ended.
// The default range is the whole trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/store/trace_store.h"

namespace core::analysis {

struct PacketStatsRange {
  TimeNs start = kUnknownTime;  // kUnknownTime: from the beginning
  TimeNs end = kUnknownTime;    // kUnknownTime: to the end
  bool Contains(TimeNs t) const {
    return (start == kUnknownTime || t >= start) && (end == kUnknownTime || t <= end);
  }
};

struct PacketNameStats {
  StringId name = 0;
  QueueId queue = 0;
  uint64_t count = 0;
  DurationNs total_ns = 0;
  double mean_ns = 0;
  DurationNs p50_ns = 0;
  DurationNs p99_ns = 0;
  DurationNs max_ns = 0;
};

// One row per (name, queue) with at least one packet counted, sorted by total_ns descending
// (ties: name string, then queue id, ascending), so the first rows are where the GPU time went.
std::vector<PacketNameStats> ComputePacketStats(const core::store::TraceStore& store,
                                                const Reconstruction& r,
                                                PacketStatsRange range = {});

// The packets ComputePacketStats counts in the row (name, queue) for `range`, as indices into
// r.packets in index order (what the window selects when a row is clicked).
std::vector<uint32_t> PacketsCounted(const Reconstruction& r, StringId name, QueueId queue,
                                     PacketStatsRange range = {});

// Run time of every packet (index into r.packets): the sum of its closed run segments, or -1
// when ComputePacketStats does not count it (not completed, or never ran).
std::vector<DurationNs> PacketRunTimes(const Reconstruction& r);

// Columns a packet-stats table can be sorted by (in table order; SortPacketStats indexes by it).
enum class PacketStatsColumn : uint8_t { kName, kQueue, kCount, kTotal, kMean, kP50, kP99, kMax };

// Sorts rows by one column (names by their string, queues by id); ties keep the order of
// ComputePacketStats. For the window's sortable table.
void SortPacketStats(const core::store::TraceStore& store, std::vector<PacketNameStats>& rows,
                     PacketStatsColumn column, bool descending);

// The name to show people: the packet name, or "(unnamed)" for the empty name.
std::string PacketLabel(const core::store::TraceStore& store, StringId name);

}  // namespace core::analysis
