// Imports an XSpace profile (`*.xplane.pb`: JAX, TensorFlow, PyTorch/XLA) into a fencescope
// trace: each /device:... plane is an adapter whose `Stream #N(...)` lines are its queues (their
// kernels and memcpys packets, each linked to the host call with the same correlation_id), the
// device's other lines (XLA Ops, XLA Modules, Steps, ...) rows of a device process, and each
// host plane's lines threads of the host process. The mapping and its limits: README.md here.
#pragma once

#include <string>
#include <string_view>

#include "core/store/trace_writer.h"
#include "importers/import_options.h"

namespace importers::xplane {

// Imports `bytes` (a whole .xplane.pb; `label` names it in messages and meta.source_file) into
// `writer`. Throws core::Error ("LABEL: byte N: ...") on malformed protobuf; what the format
// allows but the capture should not hold (aggregate events, a metadata id naming nothing, an
// event before its line's start) is counted as an import problem. Does not Commit.
void ImportXSpace(std::string_view bytes, const std::string& label,
                  core::store::TraceWriter& writer, const ImportOptions& options);

}  // namespace importers::xplane
