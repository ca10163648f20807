// The records of one device packet (kernel, copy, memset) of a CUDA-like capture, and what the
// synchronisation mapping (cuda_sync_mapping.h) needs to know of it.
#pragma once

#include <cstdint>

#include "core/model/event_fields.h"
#include "importers/common/cuda_sync_types.h"
#include "importers/common/record_sink.h"

namespace importers::cuda {

// Adds packet `id` on `queue`: submitted at its start (MapCudaSynchronisation moves the submit
// to its launch call when the correlation id finds one), started and completed at the device's
// times. Returns it as the mapping takes it.
inline CudaPacket AddCudaPacket(RecordSink& sink, core::model::QueueId queue, uint32_t device,
                                core::model::StringId name, int64_t id, TimeNs start, TimeNs end,
                                int64_t correlation) {
  namespace events = core::model::events;
  CudaPacket p;
  p.queue = queue;
  p.process = device;
  p.submitted_record = sink.Add(
      events::PacketSubmitted{.ts_ns = start, .queue_id = queue, .packet_id = id, .name_sid = name});
  p.started_record =
      sink.Add(events::PacketStarted{.ts_ns = start, .queue_id = queue, .packet_id = id});
  sink.Add(events::PacketCompleted{.ts_ns = end, .queue_id = queue, .packet_id = id});
  p.submit = start;
  p.start = start;
  p.end = end;
  p.correlation = correlation;
  return p;
}

}  // namespace importers::cuda
