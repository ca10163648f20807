// The calls each CPU thread of a trace made, in the order it made them: submissions, queue
// signals and waits, CPU signals, CPU waits (one per wait group) and the step markers
// (ProfilerStep#N slices) that the replay writes again so that its steps can be compared with
// the trace's. Records the trace gives no thread go to a stand-in thread per queue.
#pragma once

#include <cstdint>
#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/replay/derived_program.h"
#include "core/store/trace_store.h"

namespace core::replay {

struct ThreadCall {
  TimeNs ts = 0;
  uint8_t rank = 1;  // at one instant a marker's end (0) comes before the calls after it (1)
  uint32_t event = 0;  // the record's index in the trace, for calls made at one instant
  StepOrigin origin = StepOrigin::kPacket;
  uint32_t index = analysis::kNoIndex;  // as StepSource::index; kSlice*: the slice's event
  bool operator<(const ThreadCall& o) const {
    if (ts != o.ts) return ts < o.ts;
    if (rank != o.rank) return rank < o.rank;
    return event < o.event;
  }
};

struct ThreadCalls {
  // [thread id] (index 0 unused): the trace's threads.
  std::vector<std::vector<ThreadCall>> by_thread;
  // [queue id] (index 0 unused): what a stand-in submitter makes for the queue.
  std::vector<std::vector<ThreadCall>> by_queue;
  // Markers of no thread (the display's vsyncs): a stand-in makes them when the trace did.
  std::vector<ThreadCall> display;
};

ThreadCalls CollectThreadCalls(const core::store::TraceStore& store,
                               const analysis::Reconstruction& recon);

// True for a cpu_slice name that marks a step ("ProfilerStep#N").
bool IsStepMarker(std::string_view name);

}  // namespace core::replay
