// Reads rocprofv3's JSON output (`rocprofv3 --output-format json`): one object whose
// `rocprofiler-sdk-tool` array holds, per profiled process, `metadata`, `agents`,
// `kernel_symbols`, `strings` (the names of every buffer-record kind and operation, roctx texts)
// and `buffer_records.{kernel_dispatch, memory_copy, hip_api, hsa_api, marker_api}`.
#pragma once

#include <string>
#include <string_view>

#include "importers/rocprof/rocprof_capture.h"

namespace importers::rocprof {

// The bytes start (after white space) with `{"rocprofiler-sdk-tool"`.
bool LooksLikeRocprofJson(std::string_view prefix);

// `bytes` must be followed by at least 64 readable bytes (ByteBuffer's padding). Throws
// core::Error naming `label` and the record (`buffer_records.kernel_dispatch[12]`) of anything
// malformed: a record without its timestamps, agent or queue, one naming an agent the file
// does not list. With `lenient`, such records are counted (capture.skipped) and left out.
RocCapture ReadRocprofJson(std::string_view bytes, const std::string& label, bool lenient);

}  // namespace importers::rocprof
