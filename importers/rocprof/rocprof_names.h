// Names the ROCm profilers write and how fencescope shows them: kernel symbols, copy directions.
#pragma once

#include <string>
#include <string_view>

namespace importers::rocprof {

// A kernel symbol as the packet's name: the kernel descriptor's suffix that the profilers keep
// (".kd", " (.kd)", " [clone .kd]") removed, the demangled text otherwise as the file gives it, as the Kineto and
// Nsight importers keep theirs.
std::string KernelDisplayName(std::string_view symbol);

// "HtoD", "DtoH", "DtoD" or "HtoH" for a memory copy: from its operation's name
// (MEMORY_COPY_HOST_TO_DEVICE, ...) when it has one, else from which end is a GPU.
std::string CopyDirection(std::string_view operation, bool src_gpu, bool dst_gpu);

}  // namespace importers::rocprof
