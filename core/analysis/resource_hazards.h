// Resource hazards from resource_access records, by seed 001's multi-queue rules:
//   * only one queue can write to a resource at a time;
//   * a fence must be used to synchronise after writing before another queue can read the
//     written bytes or make any write access.
// Two accesses to overlapping bytes of one resource from packets on different queues, at least
// one a write, are a hazard unless one packet happens-before the other through fences.
//
// Happens-before is tracked with vector clocks over the queues (one component per queue):
// a packet's completion ticks its queue's component; an executed signal carries its queue's
// (or, for a CPU signal, its thread's) clock; an unblocked GPU wait merges the releasing
// signal's clock into its queue; a released CPU wait merges it into its thread; a packet starts
// with its queue's clock merged with its submitting thread's clock at submission. Packet A
// happens-before packet B when B's start clock has seen A's completion tick.
// Each access is compared with the 32 most recent accesses of every other queue to the same
// resource, which bounds the work on long traces.
#pragma once

#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

enum class HazardKind : uint8_t { kWriteWrite = 0, kWriteRead = 1, kReadWrite = 2 };
const char* HazardKindName(HazardKind kind);

struct ResourceHazard {
  ResourceId resource = 0;
  HazardKind kind = HazardKind::kWriteWrite;  // first access's kind - second access's kind
  uint32_t first_packet = kNoIndex;   // into packets; the earlier-starting access
  uint32_t second_packet = kNoIndex;
  QueueId first_queue = 0;
  QueueId second_queue = 0;
  TimeNs first_ts = 0;   // the accesses' record times
  TimeNs second_ts = 0;
  int64_t offset = 0;    // first overlapping byte
  int64_t length = 0;    // overlapping bytes
};

struct HazardAnalysis {
  uint64_t accesses = 0;  // resource_access records
  uint64_t hazards = 0;   // all found (hazards below may be capped)
  std::vector<ResourceHazard> list;  // by second_ts, at most 1000
};

HazardAnalysis FindResourceHazards(const core::store::TraceStore& store, const Reconstruction& r);

}  // namespace core::analysis
