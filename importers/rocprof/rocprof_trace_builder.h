// A ROCm capture (rocprof_capture.h) becomes fencescope records: each GPU agent an adapter,
// each HSA queue a compute queue of its agent, memory copies packets on a copy (SDMA) queue of
// the GPU that ran them, kernels packets named by their symbol and launched by the HIP / HSA call
// of their correlation id (the launch link the CUDA importers share, cuda_sync_mapping.h), API
// calls and roctx ranges CPU slices of their threads. The mapping: importers/rocprof/README.md.
#pragma once

#include <functional>
#include <string>

#include "core/store/trace_writer.h"
#include "importers/rocprof/rocprof_capture.h"

namespace importers::rocprof {

void BuildTrace(RocCapture& capture, const std::string& label, core::store::TraceWriter& writer,
                const std::function<void(double)>& progress);

}  // namespace importers::rocprof
