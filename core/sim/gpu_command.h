// One command in a HW queue, in submission order: a packet of GPU work, or a fence signal or
// wait. A packet's fields are grouped by who reads them: its work and resource accesses (the
// run lists), the driver's PGO (seed 000) and its preemption structure (seed 004).
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/types.h"
#include "core/sim/preemption_state.h"
#include "core/sim/scenario.h"

namespace core::sim {

// A queue Signal or Wait (seed 001).
struct FenceOp {
  uint32_t fence = 0;  // fence index
  uint64_t value = 0;
};

// A packet's GPU work and the resources it accesses: the scenario step's list evaluated at
// `frame`, or one direct access (direct_resource >= 0).
struct PacketWork {
  DurationNs remaining_ns = 0;  // GPU time still to run (preemption resumes from here)
  DurationNs duration_ns = 0;   // full GPU time
  const std::vector<ResourceUse>* uses = nullptr;
  int64_t frame = 0;
  int32_t direct_resource = -1;
  int64_t direct_slot = 0;
  bool direct_write = false;
};

// seed 000 PGO: the PSO and constant set the packet runs with, the thread that submitted it,
// and whether the driver instrumented it.
struct PacketPgo {
  int32_t pso = -1;
  int64_t constants = 0;
  core::model::ThreadId thread_id = 0;
  bool instrumented = false;
};

struct GpuCommand {
  enum class Kind : uint8_t { kPacket, kSignal, kWait, kDelay };
  Kind kind = Kind::kPacket;
  int64_t op = 0;            // packet id, or fence operation id (signal_id / wait_id)
  // kPacket: it cannot start before this (its submission plus the queue's launch latency).
  // kDelay: when the pause ends, once the queue has reached it (delay_started).
  TimeNs ready_at = 0;
  DurationNs delay_ns = 0;   // kDelay
  bool delay_started = false;
  FenceOp fence;             // kSignal, kWait
  PacketWork work;           // kPacket
  PacketPgo pgo;             // kPacket
  PacketPreemption preemption;  // kPacket
};

}  // namespace core::sim
