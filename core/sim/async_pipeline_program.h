// seed 001 "Asynchronous compute and graphics example" (AsyncPipelinedComputeGraphics) as a
// thread program.
#pragma once

#include <cstdint>

#include "core/sim/thread_program.h"

namespace core::sim {

void RunAsyncPipeline(const ThreadContext& ctx, uint32_t thread);

}  // namespace core::sim
