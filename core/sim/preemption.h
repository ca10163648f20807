// GPU preemption and TDR (seed 004): granularity names and the simulate command's override, and
// the scheduler hooks the run lists of hardware_queue.cpp call.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/sim/fence.h"
#include "core/sim/gpu_command.h"
#include "core/sim/hardware_queue.h"
#include "core/sim/preemption_state.h"
#include "core/sim/scenario.h"
#include "core/sim/simulator.h"

namespace core::sim {

// A granularity name valid for graphics (compute = false: none, dma_buffer, primitive, triangle,
// pixel, shader) or compute (none, dma_buffer, dispatch, thread_group, thread, shader).
std::optional<PreemptionGranularity> ParsePreemptionGranularity(std::string_view name,
                                                                bool compute);

// `--preemption-granularity NAME`: a graphics name sets the graphics granularity, a compute name
// the compute one, a name of both lists (none, dma_buffer, shader) both. False for an unknown
// name.
bool ApplyGranularityOverride(std::string_view name, SimOptions& options);

// The granularities each adapter runs with: the scenario's, replaced by the options'.
std::vector<AdapterPreemption> ResolvePreemption(const Scenario& scenario,
                                                 const SimOptions& options);

// A higher-priority queue is ready while a lower one runs: ask the engine to preempt.
void RequestPreemptionIfNeeded(const EngineContext& ctx, uint32_t engine);
// The queue that must run next on the engine (a pinned split packet, a resubmitted paging
// packet), or -1 for the usual choice by priority.
int32_t ForcedNextQueue(const GpuQueues& gpu, EnginePreemption& ep);
// The engine starts its running queue's head packet: records packet_resumed for a preempted one
// and returns the context restore time before its work begins (0 for a fresh packet).
DurationNs BeginPacketWork(const EngineContext& ctx, uint32_t engine);
// The running packet completed (before it leaves its queue): completes a request waiting for
// the end of the packet, pins the next split packet in the pre-WDDM 1.2 model.
void OnPacketFinished(const EngineContext& ctx, uint32_t engine);
// Pre-WDDM 1.2: a queue blocked on a GPU wait with its engine idle holds the engine until the
// wait is satisfied (the hardware wait cannot be preempted); released by ReleaseWaitHold.
void HoldEngineForWait(const EngineContext& ctx, uint32_t queue);
void ReleaseWaitHold(const EngineContext& ctx, uint32_t queue);
void OnPreemptionEvent(const EngineContext& ctx, uint32_t engine, int64_t preemption_id);
void OnTdrTimeout(const EngineContext& ctx, FenceTable& fences, uint32_t engine,
                  int64_t preemption_id);
// Submits an execute step's packet, as `split_packets` DMA packets of one render command
// (`packet` is completed where it lies, as SubmitPacket does).
void SubmitRenderCommand(const GpuContext& ctx, core::model::ThreadId thread, uint32_t queue,
                         const Step& step, core::model::StringId name, GpuCommand& packet,
                         uint32_t flags);

}  // namespace core::sim
