// The event kinds of the `events` table. Same list, ids and names as schemas/event_kinds.sql,
// which documents what the generic columns mean for each kind; tests/unit/store checks they agree.
#pragma once

#include <cstdint>
#include <string_view>

namespace core::model {

// X(enumerator, id, sql_name)
#define FENCESCOPE_EVENT_KINDS(X) \
  X(PacketSubmitted, 1, "packet_submitted") \
  X(PacketStarted, 2, "packet_started") \
  X(PacketCompleted, 3, "packet_completed") \
  X(PacketPreempted, 4, "packet_preempted") \
  X(PacketResumed, 5, "packet_resumed") \
  X(FenceSignalQueued, 10, "fence_signal_queued") \
  X(FenceSignalExecuted, 11, "fence_signal_executed") \
  X(FenceWaitQueued, 12, "fence_wait_queued") \
  X(FenceWaitUnblocked, 13, "fence_wait_unblocked") \
  X(FenceCpuSignal, 14, "fence_cpu_signal") \
  X(FenceRewind, 15, "fence_rewind") \
  X(MonitoredValueUpdated, 16, "monitored_value_updated") \
  X(CpuWaitBegin, 17, "cpu_wait_begin") \
  X(CpuWaitReleased, 18, "cpu_wait_released") \
  X(WaitPendingAtEnd, 19, "wait_pending_at_end") \
  X(CrossAdapterPropagated, 20, "cross_adapter_propagated") \
  X(Interrupt, 30, "interrupt") \
  X(LogWrite, 40, "log_write") \
  X(LogWraparound, 41, "log_wraparound") \
  X(LogOverrun, 42, "log_overrun") \
  X(LogFallbackScan, 43, "log_fallback_scan") \
  X(LogFlush, 44, "log_flush") \
  X(LogResized, 45, "log_resized") \
  X(TaskQueued, 50, "task_queued") \
  X(TaskStarted, 51, "task_started") \
  X(TaskFinished, 52, "task_finished") \
  X(TaskCancelled, 53, "task_cancelled") \
  X(TaskAbandoned, 54, "task_abandoned") \
  X(ModeChanged, 55, "mode_changed") \
  X(CommitCompleted, 56, "commit_completed") \
  X(VariantApplied, 57, "variant_applied") \
  X(ApiError, 58, "api_error") \
  X(PsoDestroyed, 59, "pso_destroyed") \
  X(PreemptionRequested, 60, "preemption_requested") \
  X(PreemptionCompleted, 61, "preemption_completed") \
  X(Tdr, 62, "tdr") \
  X(ResourceAccess, 70, "resource_access") \
  X(CpuSlice, 80, "cpu_slice") \
  X(Instant, 81, "instant") \
  X(Marker, 82, "marker") \
  X(AsyncSlice, 83, "async_slice") \
  X(CpuWaitWithdrawn, 100, "cpu_wait_withdrawn") \

enum class EventKind : uint16_t {
#define FENCESCOPE_ENUM_ENTRY(name, id, sql) name = id,
  FENCESCOPE_EVENT_KINDS(FENCESCOPE_ENUM_ENTRY)
#undef FENCESCOPE_ENUM_ENTRY
};

// Name as in SQL (`event_kinds.name`), or "unknown".
std::string_view EventKindName(EventKind kind);

// Every kind, in id order.
const EventKind* AllEventKinds(int* count);

}  // namespace core::model
