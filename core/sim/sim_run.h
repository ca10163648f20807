// What every part of the simulator shares: the scenario, the simulated clock, the queue of
// pending simulation events, the random source, the trace being written and the ids the
// topology was given in it.
//
// Everything a run records goes through SimRun::Emit() to the trace sink, in simulation time
// order.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/event_fields.h"
#include "core/model/event_types.h"
#include "core/model/types.h"
#include "core/sim/event_queue.h"
#include "core/sim/scenario.h"
#include "core/sim/sim_random.h"
#include "core/store/trace_sink.h"

namespace core::sim {

namespace events = core::model::events;
using core::model::EventRecord;
using core::model::EventRowId;

struct SimRun {
  const Scenario* scenario = nullptr;
  core::store::TraceSink* writer = nullptr;
  SimRandom random{1};
  FenceMode fence_mode = FenceMode::kNative;
  TimeNs now = 0;
  TimeNs end_limit = 0;
  EventQueue events;

  // While an interrupt is handled its follow-up records are held back, so the interrupt record
  // (which counts them) comes first and they can name its rowid.
  bool deferring = false;
  std::vector<EventRecord> deferred;

  // Added to every recorded time (0 for a scenario; a replay writes on its trace's time base).
  TimeNs origin = 0;

  // Moves the record to the trace's time base, where it lies.
  void ToTimeBase(EventRecord& e) const {
    if (origin != 0) {
      e.ts += origin;
      // Only a few kinds carry a time beside ts: the rest skip the call.
      if (core::model::HasTimeFields(e.kind)) core::model::ShiftTimeFields(e, origin);
    }
  }
  // Takes the record by value and shifts it in place: a replay emits three records a packet,
  // and a copy of each for its time base was a twentieth of the replay's instructions.
  EventRowId Emit(EventRecord e) {
    ToTimeBase(e);
    if (deferring) {
      deferred.push_back(e);
      return 0;
    }
    return writer->Append(e);
  }
  template <events::TypedEvent Typed>
  EventRowId Emit(const Typed& e) {
    return Emit(e.Record());
  }
};

// The ids the trace gave the scenario's topology, and which queues and fences each adapter has.
struct Topology {
  std::vector<core::model::AdapterId> adapter_ids;
  std::vector<std::vector<uint32_t>> adapter_queues;  // [adapter] -> queue indices
  std::vector<std::vector<uint32_t>> adapter_fences;  // [adapter] -> fences opened there
  std::vector<core::model::ResourceId> resource_ids;
};

}  // namespace core::sim
