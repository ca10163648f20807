// Reads rocprof's kernel-trace CSV: rocprof v1 `results.csv` (`KernelName`, `gpu-id`, `queue-id`,
// `BeginNs`, `EndNs`), rocprofv2 `timestamps.csv` / `results.csv` (`Kernel_Name`, `GPU_ID`,
// `Queue_ID`, `Start_Timestamp`, `End_Timestamp`) and rocprofv3 `*_kernel_trace.csv`
// (`Agent_Id`, `Queue_Id`, `Stream_Id`, ...). Columns are found by their header names, in any
// order; quoted fields may hold commas (kernel signatures do).
#pragma once

#include <string>
#include <string_view>

#include "importers/rocprof/rocprof_capture.h"

namespace importers::rocprof {

// The first line is a CSV header naming a kernel name column beside a start or a queue column.
bool LooksLikeRocprofCsv(std::string_view prefix);

// Throws core::Error naming `label`, the line and the column of a missing column, a field that
// is not a whole number, a row with too few fields or one that ends before it starts. With
// `lenient`, bad rows are counted (capture.skipped) and left out instead.
RocCapture ReadRocprofCsv(std::string_view bytes, const std::string& label, bool lenient);

// The same into `capture`; with `agents_listed` (its agents were read from agent_info.csv), a
// row naming an agent not among them, or a CPU agent, is refused.
void ReadKernelTraceCsv(std::string_view bytes, const std::string& label, bool lenient,
                        RocCapture& capture, bool agents_listed);

}  // namespace importers::rocprof
