// HIP synchronisation calls as the CUDA synchronisation mapping takes them
// (importers/common/cuda_sync_types.h), from the stream and event handles of their arguments:
//
//   hipEventRecord(event, stream)     -> a record of the event on the stream (the mapping makes
//                                        the fence signal: one fence per HIP event)
//   hipStreamWaitEvent(stream, event) -> a GPU wait of the stream on the event's latest record
//                                        made before the call (named: from the capture)
//   hipEventSynchronize(event)        -> a CPU wait on that record
//   hipStreamSynchronize(stream)      -> a CPU wait for the stream's earlier work
//   hipDeviceSynchronize()            -> a CPU wait for the device's work (the GPU of the
//                                        thread's latest launch before the call)
//
// A stream is the handle the calls name; the mapping's "device" is the GPU whose queue carried
// the stream's launches.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "importers/common/cuda_sync_types.h"
#include "importers/rocprof/rocprof_capture.h"

namespace importers::rocprof {

struct HipSyncCounts {
  uint64_t waits_on_unrecorded_event = 0;  // the event has no record before the call
  uint64_t syncs_without_arguments = 0;    // a sync call whose stream / event is not in the file
};

// `gpu_of_stream`: the GPU a stream handle's launches ran on (nullopt: none seen);
// `gpu_of_thread`: the GPU of a thread's latest launch before a time (nullopt: none).
std::vector<cuda::CudaSync> HipSyncs(
    const std::vector<RocCall>& calls,
    const std::function<std::optional<uint32_t>(int64_t stream)>& gpu_of_stream,
    const std::function<std::optional<uint32_t>(int64_t thread, int64_t before)>& gpu_of_thread,
    HipSyncCounts& counts);

// The call records a HIP event (hipEventRecord, hipEventRecordWithFlags).
bool IsEventRecord(const RocCall& call);

}  // namespace importers::rocprof
