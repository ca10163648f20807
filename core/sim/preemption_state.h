// Plain data of the preemption model (seed 004), in one place: how a packet divides into
// preemption points, what each adapter can do, and the request an engine is working through.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/types.h"

namespace core::sim {

using core::model::PreemptionGranularity;

// seed 004: how a DMA packet's GPU work divides, which sets where it can stop. Graphics work is
// primitives x triangles x pixels, compute work dispatches x thread groups x threads; each pixel
// or thread runs `instructions` shader instructions. Work is spread evenly over the units.
struct PacketShape {
  int64_t primitives = 1;      // per DMA packet
  int64_t triangles = 1;       // per primitive
  int64_t pixels = 64;         // per triangle
  int64_t dispatches = 1;      // per DMA packet
  int64_t thread_groups = 1;   // per dispatch
  int64_t threads = 64;        // per thread group
  int64_t instructions = 100;  // per pixel or thread (shader-level preemption)
};

// The granularities an adapter runs with (D3DKMDT_PREEMPTION_CAPS); kNone on both is the
// pre-WDDM 1.2 model (PreemptionAware = 0).
struct AdapterPreemption {
  PreemptionGranularity graphics = PreemptionGranularity::kDmaBuffer;
  PreemptionGranularity compute = PreemptionGranularity::kDmaBuffer;
};

enum class PreemptionPhase : uint8_t {
  kIdle,            // no request pending
  kToPacketEnd,     // the preemption point is the end of the packet (or of its render command)
  kToPoint,         // running to a mid-packet preemption point (kPreemption event at it)
  kSaving,          // stopped; the context state is being saved (kPreemption event at the end)
};

// seed 004, per packet: its structure and where it can stop, the scheduler fence id of its
// (re)submission, the render command it is a split packet of (0: not split).
struct PacketPreemption {
  const PacketShape* shape = nullptr;  // nullptr: PacketShape defaults
  int64_t fence_submission = 0;
  int64_t render_command = 0;
  bool last_split = true;
  bool paging = false;
  bool preempted = false;  // stopped mid-way: it resumes (context restore) instead of starting
};

// Per engine: the pending request and the scheduling rules that follow a preemption.
struct EnginePreemption {
  PreemptionPhase phase = PreemptionPhase::kIdle;
  int64_t request_id = 0;         // preemption id of the pending request (0: none)
  core::model::TimeNs requested_at = 0;
  uint32_t requesting_queue = 0;  // queue index whose work asked for the engine
  PreemptionGranularity granularity = PreemptionGranularity::kNone;  // in force at the request
  // The running packet's work: it began (after any context restore) at work_start with
  // remaining_at_start of GPU time left.
  core::model::TimeNs work_start = 0;
  int64_t remaining_at_start = 0;
  // Pre-WDDM 1.2: the queue whose render command's next split packet must run next.
  int32_t pinned_queue = -1;
  // A preempted paging packet's queue: it runs before any other work once the work that
  // preempted it has run (skip_before_paging counts that work).
  int32_t paging_queue = -1;
  uint32_t skip_before_paging = 0;
  bool running_paging_first = false;  // the running packet is that resubmitted paging packet
  // Pre-WDDM 1.2: the queue whose unsatisfied GPU wait the engine is executing (-1: none).
  int32_t wait_holder = -1;
};

// The preemption model's state: the granularities each adapter runs with and each engine's
// pending request.
struct PreemptionState {
  std::vector<AdapterPreemption> adapters;  // [adapter] granularities as run
  std::vector<EnginePreemption> engines;    // [engine]
  int64_t next_preemption_id = 1;
};

}  // namespace core::sim
