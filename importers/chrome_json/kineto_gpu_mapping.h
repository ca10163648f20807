// The PyTorch profiler / Kineto GPU mapping (trace-formats §1.7): the CUDA synchronisation
// mapping every CUDA importer shares (importers/common/cuda_sync_mapping.h) over what the builder
// gathered about device streams, CUDA runtime calls and cuda_sync events, and what it inferred or
// could not link written as the `kineto_*` import problems (`fencescope info`). The rules, with
// their known limits: schemas/kineto_inference.md.
//
//   cudaEventRecord*          -> a signal of the fence of its CUDA event id
//   cuda_sync "Stream Wait Event" on stream S  -> a GPU wait on S
//   cuda_sync "Event Sync" / "Stream Sync" / "Context Sync" -> a CPU wait on the calling thread
//
// Current CUPTI (CUDA 12.x/13) writes wait_on_cuda_event_record_corr_id and wait_on_stream as
// -1 and no event id or stream on the record call: the record is then inferred.
#pragma once

#include <functional>
#include <string>

#include "core/store/trace_writer.h"
#include "importers/common/cuda_sync_mapping.h"
#include "importers/common/record_sink.h"

namespace importers::chrome_json {

using cuda::CudaCollected;
using cuda::CudaPacket;
using cuda::CudaRuntimeCall;
using cuda::CudaSync;
using cuda::CudaSyncKind;
using cuda::FenceOpIds;
using cuda::QueueForStream;

// Links packets with no launch flow to the runtime call of their correlation id (a CPU launch
// flow is added), then appends the fence and CPU-wait records to `sink`, adds the fences to the
// writer, and counts in import_problems what was inferred and what could not be linked.
void MapKinetoSynchronisation(CudaCollected& collected, RecordSink& sink,
                              core::store::TraceWriter& writer, const QueueForStream& queue_for,
                              const std::function<std::string(core::model::QueueId)>& queue_name,
                              FenceOpIds& ids);

}  // namespace importers::chrome_json
