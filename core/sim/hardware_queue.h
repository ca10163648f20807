// HW queues and the per-engine run lists (seeds 001, 002: the queue is the unit of GPU work).
// A queue executes its commands in order; an engine runs one packet at a time and picks among
// its ready queues by priority, then by who was ready first.
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/types.h"
#include "core/sim/command_queue.h"
#include "core/sim/gpu_command.h"
#include "core/sim/sim_run.h"

namespace core::sim {

struct BackgroundState;
struct FenceTable;
struct InterruptState;
struct LogBuffers;
struct PreemptionState;

enum class QueueStatus : uint8_t {
  kIdle,     // nothing at the head, or the head not yet looked at
  kReady,    // a packet at the head waits for the engine
  kRunning,  // its head packet runs on the engine
  kBlocked,  // its head is a fence wait not yet satisfied
};

struct HwQueue {
  core::model::QueueId id = 0;
  core::model::ContextId context = 0;
  uint32_t engine = 0;
  uint32_t adapter = 0;
  int32_t priority = 0;
  CommandQueue commands;
  QueueStatus status = QueueStatus::kIdle;
  uint64_t ready_seq = 0;     // order in which queues became ready (FIFO among equal priority)
  TimeNs wait_observed = 0;   // FenceObservedGpuTimestamp of the blocked head wait
  bool lost = false;          // seed 004: its context was lost in a TDR; submissions are dropped
  // QueueSpec::launch_latency_ns / resume_ns, and when the next packet may start at the
  // earliest (its previous packet's end or its wait's release plus resume_ns).
  DurationNs launch_latency_ns = 0;
  DurationNs resume_ns = 0;
  TimeNs not_before = 0;
  bool wake_pending = false;  // a kQueueWake event will look at the head again
};

// Per-engine run list: the queues that feed the engine and the packet running on it.
struct EngineState {
  core::model::EngineId id = 0;
  uint32_t adapter = 0;
  std::vector<uint32_t> queues;
  int32_t running = -1;      // queue index whose head packet runs, or -1
  uint64_t generation = 0;   // bumped on every start, so a stale completion is ignored
  TimeNs started = 0;
};

struct GpuQueues {
  std::vector<EngineState> engines;
  std::vector<HwQueue> queues;
  std::vector<uint32_t> queues_to_advance;  // queues unblocked this instant, advanced by the loop
  uint64_t next_ready_seq = 1;
  int64_t next_packet_id = 1;  // packet ids and scheduler fence ids of (re)submissions
};

// What starting and stopping packets on an engine touches.
struct EngineContext {
  SimRun& run;
  const Topology& ids;
  GpuQueues& gpu;
  PreemptionState& preemption;
};

// What executing queue commands touches: the run lists, fences, the HWQueue logs, interrupts
// and, through finished packets, the driver's PGO.
struct GpuContext {
  SimRun& run;
  const Topology& ids;
  GpuQueues& gpu;
  PreemptionState& preemption;
  FenceTable& fences;
  LogBuffers& logs;
  InterruptState& interrupts;
  BackgroundState& bg;

  EngineContext Engine() const { return {run, ids, gpu, preemption}; }
};

void PushGpuCommand(const GpuContext& ctx, uint32_t queue, const GpuCommand& command);
// The head of the queue became ready in time (kQueueWake): look at it again.
void OnQueueWake(const GpuContext& ctx, uint32_t queue);
void AdvanceQueue(const GpuContext& ctx, uint32_t queue);
void AdvanceUnblockedQueues(const GpuContext& ctx);
void TryStartEngine(const EngineContext& ctx, uint32_t engine);
void OnPacketDone(const GpuContext& ctx, uint32_t engine, uint64_t generation);
// Records FENCE_WAIT_UNBLOCKED (and its wait-log entry) and lets the queue continue.
void UnblockQueueWait(const GpuContext& ctx, uint32_t queue, uint64_t value, int64_t wait_id,
                      int64_t signal_id, core::model::WaitPath path, TimeNs observed);

}  // namespace core::sim
