#include "importers/chrome_json/string_roles.h"

namespace importers::chrome_json {

uint16_t RoleOf(std::string_view s) {
  uint16_t role = 0;
  if (s == "fence_signal") role |= kExportSignalCat;
  if (s == "fence_wait") role |= kExportWaitCat;
  if (s == "cpu_wait") role |= kExportCpuWaitCat;
  if (s == "fence") role |= kExportArrowCat;
  if (s == "kernel" || s == "Kernel") role |= kPacketCategory | kKernelCategory;
  if (s == "gpu_memcpy" || s == "gpu_memset" || s == "Memcpy" || s == "Memset") {
    role |= kPacketCategory;
  }
  if (s == "cuda_runtime" || s == "cuda_driver" || s == "Runtime" || s == "Driver" ||
      s == "mtia_runtime" || s == "xla_launch") {  // xla_launch: xla_trace_events.h
    role |= kRuntimeCategory;
  }
  if (s == "cuda_sync") role |= kSyncCategory;
  if (s.rfind("cudaEventRecord", 0) == 0 || s.rfind("hipEventRecord", 0) == 0) {
    role |= kEventRecordName;
  }
  if (s == "cudaStreamWaitEvent" || s == "hipStreamWaitEvent") role |= kStreamWaitName;
  if (s == "input" || s == "ipc.flow") role |= kEnclosingFlowCat;
  if (s == "cuda_profiler_range") role |= kUnmappedDeviceCat;
  if (s == "mtia_ccp_events") role |= kMtiaDeviceCat;
  if (s == "event_record") role |= kMtiaRecordName;
  if (s == "event_wait") role |= kMtiaWaitName;
  if (s == "synchronizeStream") role |= kMtiaStreamSyncName;
  return role;
}

}  // namespace importers::chrome_json
