// What a CUPTI_ACTIVITY_KIND_SYNCHRONIZATION row is. Its syncType cannot say: the numbering
// differs between nsys versions (a cudaStreamSynchronize is 2 in a 2025.1 export and 3 in a
// 2023.1 one; every cudaDeviceSynchronize of a 2024.5 export is 1), whatever the file's own
// ENUM_CUPTI_SYNC_TYPE says. The API call joined on correlationId names it; where the call is
// not in the file, the row's shape does (an event and a stream: a stream wait; an event only:
// an event sync; a stream only: a stream sync; neither: a context sync).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "importers/common/cuda_sync_types.h"

namespace importers::nsys {

// The kind a CUDA runtime / driver call's name says (version suffixes such as _v3020 ignored);
// nullopt for a call that is not a synchronisation.
std::optional<cuda::CudaSyncKind> SyncKindOfCall(std::string_view name);

// The kind by the row's event and stream (-1: none).
cuda::CudaSyncKind SyncKindOfShape(int64_t event_id, int64_t stream);

// cudaEventRecord, cudaEventRecordWithFlags, cuEventRecord, ... (and their _ptsz forms).
bool IsEventRecordCall(std::string_view name);
// cudaStreamWaitEvent, cuStreamWaitEvent.
bool IsStreamWaitCall(std::string_view name);

}  // namespace importers::nsys
