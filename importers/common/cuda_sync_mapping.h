// The CUDA synchronisation mapping that the PyTorch profiler / Kineto importer and the Nsight
// Systems importer share: what an importer gathered about device streams, CUDA runtime calls and
// synchronisation records (cuda_sync_types.h) becomes fence records. Every wait the trace holds
// is placed; what released it is linked where the trace says so and inferred (and marked so:
// release_link = inferred) where it does not. The rules, with their known limits, are written
// down in schemas/kineto_inference.md.
//
//   cudaEventRecord* (runtime call, correlation C) -> fence_signal_queued at the call, on the
//       stream the event was recorded on, and fence_signal_executed where everything launched
//       on that stream before the call has completed (CUDA stream order). One fence per (device,
//       CUDA event id); value = how many times that event has been recorded.
//   a stream wait on stream S  -> fence_wait_queued at the cudaStreamWaitEvent call and
//       fence_wait_unblocked on S (observed_ns: when S reached the wait), on the fence of its
//       CUDA event id, released_by_signal_id = the record it waited for when known.
//   an event sync              -> a CPU wait on the calling thread, on the event's fence,
//       released at the sync's end.
//   a stream / context sync    -> a CPU wait on the calling thread released at the sync's end,
//       on the fence "<stream> synchronize" of the stream whose work it waited for (context
//       sync: the device's stream that finished last), signalled at the call and executed when
//       that stream's earlier work completed.
//
// Where the trace names neither the record a wait waited for nor its stream (current CUPTI under
// Kineto writes -1), the record is inferred among the waiting thread's recent record calls by
// the GPU timestamps (cuda_record_choice.h), and its stream from the launches before it (or,
// failing those, GPU timing).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "core/store/trace_writer.h"
#include "importers/common/cuda_sync_types.h"
#include "importers/common/record_sink.h"

namespace importers::cuda {

// What the mapping inferred and what it could not link; each importer writes them as import
// problems under its own names (the Kineto ones: importers/chrome_json/kineto_gpu_mapping.h).
struct CudaSyncCounts {
  uint64_t gpu_waits_inferred = 0, cpu_waits_inferred = 0, waits_without_record = 0;
  uint64_t waits_without_stream = 0, syncs_without_call = 0, records_unclaimed = 0;
  uint64_t streams_by_launch = 0, streams_by_timing = 0, streams_unknown = 0;
  uint64_t released_before_signal = 0, syncs_before_work_end = 0, launches_by_correlation = 0;
  uint64_t records_implied = 0, records_against_timing = 0, records_implied_from_later = 0;
  // Stream-wait calls (CudaRuntimeCall::stream_wait) with no synchronisation record.
  uint64_t stream_wait_calls_without_sync = 0;
};

// Links packets with no launch to the runtime call of their correlation id (a CPU launch flow is
// added), then appends the fence and CPU-wait records to `sink` and adds the fences to the
// writer. Returns what was inferred and what could not be linked.
CudaSyncCounts MapCudaSynchronisation(
    CudaCollected& collected, RecordSink& sink, core::store::TraceWriter& writer,
    const QueueForStream& queue_for,
    const std::function<std::string(core::model::QueueId)>& queue_name, FenceOpIds& ids);

}  // namespace importers::cuda
