// The XLA profiler's device names, shared by the XSpace importer and the Chrome JSON the same
// profiler writes (TensorBoard's trace.json.gz, jax's perfetto_trace.json.gz): a device is a
// plane / process named "/device:GPU:N", its streams lines / threads named "Stream #N(KINDS)".
#pragma once

#include <string_view>

#include "core/model/types.h"

namespace importers::xla {

constexpr std::string_view kDevicePrefix = "/device:";
constexpr std::string_view kStreamPrefix = "Stream #";

inline bool IsDeviceName(std::string_view name) { return name.starts_with(kDevicePrefix); }
inline bool IsStreamName(std::string_view name) { return name.starts_with(kStreamPrefix); }

// N of "Stream #N(...)", -1 when it has no number.
int64_t StreamNumber(std::string_view stream_name);

// A stream whose name lists only memory copies and sets ("Stream #3(MemcpyH2D,MemcpyD2H)") is a
// copy queue; a kernel, or nothing said, makes it a compute queue.
core::model::QueueType StreamType(std::string_view stream_name);

}  // namespace importers::xla
