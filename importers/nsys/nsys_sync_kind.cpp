#include "importers/nsys/nsys_sync_kind.h"

namespace importers::nsys {

using cuda::CudaSyncKind;

bool IsEventRecordCall(std::string_view name) {
  return name.starts_with("cudaEventRecord") || name.starts_with("cuEventRecord");
}

bool IsStreamWaitCall(std::string_view name) {
  return name.starts_with("cudaStreamWaitEvent") || name.starts_with("cuStreamWaitEvent");
}

std::optional<CudaSyncKind> SyncKindOfCall(std::string_view name) {
  if (IsStreamWaitCall(name)) return CudaSyncKind::kStreamWait;
  if (name.starts_with("cudaEventSynchronize") || name.starts_with("cuEventSynchronize")) {
    return CudaSyncKind::kEventSync;
  }
  if (name.starts_with("cudaStreamSynchronize") || name.starts_with("cuStreamSynchronize")) {
    return CudaSyncKind::kStreamSync;
  }
  if (name.starts_with("cudaDeviceSynchronize") || name.starts_with("cudaThreadSynchronize") ||
      name.starts_with("cuCtxSynchronize")) {
    return CudaSyncKind::kContextSync;
  }
  return std::nullopt;
}

CudaSyncKind SyncKindOfShape(int64_t event_id, int64_t stream) {
  if (event_id >= 0) return stream >= 0 ? CudaSyncKind::kStreamWait : CudaSyncKind::kEventSync;
  return stream >= 0 ? CudaSyncKind::kStreamSync : CudaSyncKind::kContextSync;
}

}  // namespace importers::nsys
