// Turns what was read from an Nsight Systems export (NsysCapture) into fencescope records:
// GPUs -> adapters, CUDA streams -> queues ("GPU 0 stream 13", as the Kineto importer names
// them), kernels / memcpys / memsets -> packets launched by their runtime or driver call
// (correlationId), runtime calls and NVTX ranges -> CPU slices on their thread, and the
// SYNCHRONIZATION and CUDA_EVENT rows -> the CUDA synchronisation mapping that the Kineto
// importer shares (importers/common/cuda_sync_mapping.h; rules: schemas/kineto_inference.md).
#pragma once

#include <functional>
#include <string>

#include "core/store/trace_writer.h"
#include "importers/nsys/nsys_capture.h"

namespace importers::nsys {

// `progress` gets the fraction of the records written (may be empty).
void BuildTrace(NsysCapture& capture, const std::string& label, core::store::TraceWriter& writer,
                const std::function<void(double)>& progress);

}  // namespace importers::nsys
