// TraceOutline: what a trace file shows of itself at a glance, read in milliseconds whatever its
// size: its time span, its queues and threads, and for each how many events fall in each of a
// few hundred time bins. It is read from the block range index (`event_blocks`, one row per run
// of up to 256 events of a track: schemas/trace_schema.sql), never from the events, so the
// window can draw it in its first frames while the trace itself loads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/model/types.h"

namespace core::store {

struct OutlineTrack {
  bool thread = false;  // a CPU thread (else a queue)
  uint32_t id = 0;      // queues.id / threads.id
  std::string label;    // "adapter / queue" or "process / thread"
  std::vector<uint32_t> events;  // per bin
  uint32_t max = 0;              // largest bin
};

struct TraceOutline {
  model::TimeNs start = 0;
  model::TimeNs end = 0;
  uint64_t events = 0;          // rows of `events`, from the index
  std::vector<OutlineTrack> tracks;  // queues by id, then threads by id
  size_t bins = 0;
};

// Throws core::Error as OpenTrace does for a file that is not a trace. A run of events spread
// over several bins is spread evenly over them.
TraceOutline ReadTraceOutline(const std::filesystem::path& path, size_t bins = 400);

}  // namespace core::store
