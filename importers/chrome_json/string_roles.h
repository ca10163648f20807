// What a Chrome trace category or event name means to the builder (chrome_trace_builder.cpp):
// a bit set computed once per distinct string, so that the build never compares strings per
// event.
#pragma once

#include <cstdint>
#include <string_view>

namespace importers::chrome_json {

enum StringRole : uint16_t {
  kPacketCategory = 1,     // kernel, gpu_memcpy, gpu_memset (and the older Kernel/Memcpy/Memset)
  kKernelCategory = 2,     // kernel / Kernel: makes a stream a compute queue
  kRuntimeCategory = 4,    // cuda_runtime, cuda_driver, Runtime, Driver
  kSyncCategory = 8,       // cuda_sync
  kEventRecordName = 16,   // cudaEventRecord*, hipEventRecord*
  kEnclosingFlowCat = 32,  // input, ipc.flow: flow ends bind to the enclosing slice (catapult)
  // Categories of fencescope's own export (core/export/chrome_json_export.h), read only in
  // such files.
  kExportSignalCat = 64,   // fence_signal
  kExportWaitCat = 128,    // fence_wait
  kExportCpuWaitCat = 256, // cpu_wait
  kExportArrowCat = 512,   // fence (signal -> wait arrows, mirrored by the waits' signal_id)
  kStreamWaitName = 1024,  // cudaStreamWaitEvent, hipStreamWaitEvent
  // Device-side categories fencescope does not map to queues: CUPTI range-profiler ranges
  // (per-kernel counters of kernels replayed one at a time: no timeline). Kept as slices, and
  // counted as an import problem so a report says why it has no GPU work.
  kUnmappedDeviceCat = 2048,
  // MTIA device events (mtia_ccp_events, one track per device stream): event_record and
  // event_wait are a stream's signals and waits (mtia_gpu_mapping.h), the others its packets.
  kMtiaDeviceCat = 4096,
  kMtiaRecordName = 8192,  // event_record
  kMtiaWaitName = 16384,   // event_wait
  kMtiaStreamSyncName = 32768,  // synchronizeStream (an MTIA runtime call: the host waits)
};

uint16_t RoleOf(std::string_view s);

}  // namespace importers::chrome_json
