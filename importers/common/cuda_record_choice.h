// Which cudaEventRecord call a Stream Wait Event or Event Sync waited for, when current CUPTI
// does not say (wait_on_cuda_event_record_corr_id = -1): the record calls its thread made before
// the wait are the candidates, and the GPU timestamps say which of them the wait can have waited
// for. The rules, with their known limits, are in schemas/kineto_inference.md ("Which record").
#pragma once

#include <cstdint>
#include <limits>
#include <span>

#include "importers/common/cuda_sync_types.h"

namespace importers::cuda {

inline constexpr TimeNs kExecutionUnknown = std::numeric_limits<TimeNs>::min();

// One record call that may be the one waited for.
struct RecordCandidate {
  TimeNs executed = kExecutionUnknown;  // when its stream's earlier work had completed
  bool known_of_event = false;          // an earlier wait on the same event id took it
  bool on_waiting_stream = false;       // recorded on the stream that waits (a no-op wait)
  uint32_t recency = 0;                 // 0: the most recent record call before the wait
};

// What the trace saw of the wait.
struct WaitTiming {
  bool known = false;  // no timing at all: the stream ran nothing after the wait
  // When the waiter would have gone on had nothing held it: an Event Sync's call; a Stream
  // Wait Event's next packet's launch or its stream's earlier work, whichever came later.
  TimeNs free_at = 0;
  // When it went on: the Event Sync's return; the start of the packet the wait held back.
  TimeNs went_on = 0;
  // It was held: it went on well after it was free to (kHeldNs).
  bool Held() const;
};

// A wait counts as held when it went on more than this after it was free to: longer than a
// cudaEventSynchronize on a completed event takes, or than a stream takes from its previous
// packet to the next.
inline constexpr TimeNs kHeldNs = 10'000;
// How far a record's execution may lie after the wait went on, or apart from another candidate's
// and still be taken as the same moment (host and GPU clocks, the wake-up itself).
inline constexpr TimeNs kSameMomentNs = 5'000;

struct RecordChoice {
  uint32_t candidate = kNone;  // index into the candidates, kNone when there were none
  bool timing_contradicts = false;  // every timed candidate executed after the wait went on
};

// The candidate the wait waited for:
//   1. a record on the waiting stream itself only when there is no other;
//   2. a held wait: the candidate that executed while it was held (between free_at and went_on)
//      closest to went_on; candidates within kSameMomentNs of that one are one moment, and of
//      those the one an earlier wait on the same event took wins, else the most recent;
//   3. else the most recent candidate that executed by the time the wait went on (or whose
//      execution is unknown);
//   4. else (the timestamps contradict every candidate) the one that executed closest after.
RecordChoice ChooseRecord(std::span<const RecordCandidate> candidates, const WaitTiming& timing);

}  // namespace importers::cuda
