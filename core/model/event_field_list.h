// The named fields of every event kind: which generic column of `events` holds each, its C++
// type and what it refers to. The one list from which the typed records (event_types.h), the
// field tables the window and the dump walk (event_fields.h) are generated; the per-kind SQL
// views of schemas/event_kinds.sql give the columns the same names, and
// tests/unit/model/event_fields_test.cpp checks view and list agree column by column.
//
// FENCESCOPE_FIELDS_<Kind>(F) calls F(column, name, type, role, enum_name) per field, in the
// order of the kind's SQL view:
//   column     the EventRecord / EventColumns member that stores it (queue ... flags)
//   name       the field's name, as the SQL view names the column
//   type       its C++ type (stored by static_cast)
//   role       what the number refers to (FieldRole: kTime fields are on the trace's time base,
//              kString fields are strings.id, kQueue fields are queues.id, ...)
//   enum_name  enum_values.enum_name for kEnum fields, else ""
#pragma once

#define FENCESCOPE_FIELDS_PacketSubmitted(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(op, packet_id, int64_t, kNumber, "") \
  F(value, planned_duration_ns, int64_t, kDuration, "") \
  F(arg0, context_id, ContextId, kContext, "") \
  F(arg1, name_sid, StringId, kString, "") \
  F(arg2, fence_submission_id, int64_t, kNumber, "") \
  F(flags, packet_flags, uint32_t, kFlags, "")

#define FENCESCOPE_FIELDS_PacketStarted(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(op, packet_id, int64_t, kNumber, "") \
  F(arg0, engine_id, EngineId, kEngine, "")

#define FENCESCOPE_FIELDS_PacketCompleted(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(op, packet_id, int64_t, kNumber, "") \
  F(arg0, engine_id, EngineId, kEngine, "")

#define FENCESCOPE_FIELDS_PacketPreempted(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(op, packet_id, int64_t, kNumber, "") \
  F(value, remaining_ns, int64_t, kDuration, "") \
  F(arg0, preemption_id, int64_t, kNumber, "") \
  F(flags, granularity, PreemptionGranularity, kEnum, "preemption_granularity")

#define FENCESCOPE_FIELDS_PacketResumed(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(op, packet_id, int64_t, kNumber, "") \
  F(arg2, fence_submission_id, int64_t, kNumber, "")

#define FENCESCOPE_FIELDS_FenceSignalQueued(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, signal_id, int64_t, kNumber, "")

#define FENCESCOPE_FIELDS_FenceSignalExecuted(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, signal_id, int64_t, kNumber, "") \
  F(arg0, previous_value, FenceValue, kNumber, "")

#define FENCESCOPE_FIELDS_FenceWaitQueued(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, wait_id, int64_t, kNumber, "")

#define FENCESCOPE_FIELDS_FenceWaitUnblocked(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, wait_id, int64_t, kNumber, "") \
  F(arg0, observed_ns, int64_t, kTime, "") \
  F(arg1, released_by_signal_id, int64_t, kNumber, "") \
  F(arg2, release_link, ReleaseLink, kEnum, "release_link") \
  F(flags, wait_path, WaitPath, kNumber, "")

#define FENCESCOPE_FIELDS_FenceCpuSignal(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, signal_id, int64_t, kNumber, "") \
  F(arg0, previous_value, FenceValue, kNumber, "")

#define FENCESCOPE_FIELDS_FenceRewind(F) \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, signal_id, int64_t, kNumber, "") \
  F(arg0, previous_value, FenceValue, kNumber, "")

#define FENCESCOPE_FIELDS_MonitoredValueUpdated(F) \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, monitored_value, FenceValue, kNumber, "") \
  F(arg0, adapter_id, AdapterId, kAdapter, "")

#define FENCESCOPE_FIELDS_CpuWaitBegin(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, waiter_id, int64_t, kNumber, "") \
  F(arg0, group_id, int64_t, kNumber, "") \
  F(flags, wait_mode, uint32_t, kNumber, "")

#define FENCESCOPE_FIELDS_CpuWaitReleased(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, waiter_id, int64_t, kNumber, "") \
  F(arg0, interrupt_event, int64_t, kEvent, "") \
  F(arg1, observed_value, FenceValue, kNumber, "") \
  F(arg2, release_link, ReleaseLink, kEnum, "release_link")

#define FENCESCOPE_FIELDS_WaitPendingAtEnd(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, wait_id, int64_t, kNumber, "") \
  F(arg0, current_value, FenceValue, kNumber, "")

#define FENCESCOPE_FIELDS_CrossAdapterPropagated(F) \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(arg0, from_adapter_id, AdapterId, kAdapter, "") \
  F(arg1, to_adapter_id, AdapterId, kAdapter, "")

#define FENCESCOPE_FIELDS_Interrupt(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, signal_id, int64_t, kNumber, "") \
  F(arg0, adapter_id, AdapterId, kAdapter, "") \
  F(arg1, waiters_released, int64_t, kNumber, "") \
  F(arg2, fences_evaluated, int64_t, kNumber, "") \
  F(flags, interrupt_flags, uint32_t, kFlags, "")

#define FENCESCOPE_FIELDS_LogWrite(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, op_id, int64_t, kNumber, "") \
  F(arg0, entry_index, int64_t, kNumber, "") \
  F(arg1, wraparound_count, int64_t, kNumber, "") \
  F(arg2, observed_ns, int64_t, kTime, "") \
  F(flags, log_type, uint32_t, kFlags, "")

#define FENCESCOPE_FIELDS_LogWraparound(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(arg1, wraparound_count, int64_t, kNumber, "") \
  F(flags, log_type, uint32_t, kFlags, "")

#define FENCESCOPE_FIELDS_LogOverrun(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(arg0, entries_lost, int64_t, kNumber, "") \
  F(arg1, wraparound_count, int64_t, kNumber, "") \
  F(arg2, missing_since_ns, int64_t, kTime, "") \
  F(flags, log_type, uint32_t, kFlags, "")

#define FENCESCOPE_FIELDS_LogFallbackScan(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(arg0, adapter_id, AdapterId, kAdapter, "") \
  F(arg1, fences_scanned, int64_t, kNumber, "")

#define FENCESCOPE_FIELDS_LogFlush(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(arg0, entries_read, int64_t, kNumber, "") \
  F(flags, log_type, uint32_t, kFlags, "")

#define FENCESCOPE_FIELDS_LogResized(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(arg0, size_bytes, int64_t, kNumber, "") \
  F(flags, log_type, uint32_t, kFlags, "")

#define FENCESCOPE_FIELDS_TaskQueued(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(op, task_id, int64_t, kNumber, "") \
  F(arg0, pso_id, PsoId, kPso, "") \
  F(arg1, variant, int64_t, kNumber, "") \
  F(arg2, commit_id, int64_t, kNumber, "")

#define FENCESCOPE_FIELDS_TaskStarted(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(op, task_id, int64_t, kNumber, "") \
  F(flags, priority, uint32_t, kNumber, "")

#define FENCESCOPE_FIELDS_TaskFinished(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(op, task_id, int64_t, kNumber, "")

#define FENCESCOPE_FIELDS_TaskCancelled(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(op, task_id, int64_t, kNumber, "") \
  F(flags, reason, uint32_t, kNumber, "")

#define FENCESCOPE_FIELDS_TaskAbandoned(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(op, task_id, int64_t, kNumber, "") \
  F(arg0, pso_id, PsoId, kPso, "")

#define FENCESCOPE_FIELDS_ModeChanged(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(op, call_id, int64_t, kNumber, "") \
  F(value, result, uint64_t, kNumber, "") \
  F(arg0, mode, BackgroundMode, kEnum, "background_mode") \
  F(arg1, action, MeasurementsAction, kEnum, "measurements_action") \
  F(arg2, commit_id, int64_t, kNumber, "") \
  F(flags, further_measurements_desired, uint32_t, kNumber, "")

#define FENCESCOPE_FIELDS_CommitCompleted(F) \
  F(op, commit_id, int64_t, kNumber, "") \
  F(arg0, tasks, int64_t, kNumber, "") \
  F(arg1, call_id, int64_t, kNumber, "")

#define FENCESCOPE_FIELDS_VariantApplied(F) \
  F(arg0, pso_id, PsoId, kPso, "") \
  F(arg1, variant, int64_t, kNumber, "") \
  F(value, speedup_permille, uint64_t, kNumber, "") \
  F(op, task_id, int64_t, kNumber, "")

#define FENCESCOPE_FIELDS_ApiError(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(op, call_id, int64_t, kNumber, "") \
  F(arg0, mode, BackgroundMode, kEnum, "background_mode") \
  F(arg1, action, MeasurementsAction, kEnum, "measurements_action") \
  F(flags, error, uint32_t, kNumber, "")

#define FENCESCOPE_FIELDS_PsoDestroyed(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(arg0, pso_id, PsoId, kPso, "")

#define FENCESCOPE_FIELDS_PreemptionRequested(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(op, preemption_id, int64_t, kNumber, "") \
  F(arg0, packet_id, int64_t, kNumber, "") \
  F(arg1, requesting_queue_id, QueueId, kQueue, "") \
  F(arg2, engine_id, EngineId, kEngine, "") \
  F(flags, granularity, PreemptionGranularity, kEnum, "preemption_granularity")

#define FENCESCOPE_FIELDS_PreemptionCompleted(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(op, preemption_id, int64_t, kNumber, "") \
  F(value, latency_ns, int64_t, kDuration, "") \
  F(arg0, packet_id, int64_t, kNumber, "") \
  F(arg2, engine_id, EngineId, kEngine, "") \
  F(flags, granularity, PreemptionGranularity, kEnum, "preemption_granularity")

#define FENCESCOPE_FIELDS_Tdr(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(arg0, adapter_id, AdapterId, kAdapter, "") \
  F(arg1, engine_id, EngineId, kEngine, "") \
  F(arg2, packets_lost, int64_t, kNumber, "") \
  F(value, contexts_lost, uint64_t, kNumber, "") \
  F(op, preemption_id, int64_t, kNumber, "")

#define FENCESCOPE_FIELDS_ResourceAccess(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(op, packet_id, int64_t, kNumber, "") \
  F(arg0, resource_id, ResourceId, kResource, "") \
  F(arg1, offset_bytes, int64_t, kNumber, "") \
  F(arg2, length_bytes, int64_t, kNumber, "") \
  F(flags, access, uint32_t, kNumber, "")

#define FENCESCOPE_FIELDS_CpuSlice(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(value, duration_ns, int64_t, kDuration, "") \
  F(arg0, name_sid, StringId, kString, "") \
  F(arg1, category_sid, StringId, kString, "") \
  F(arg2, depth, int64_t, kNumber, "")

#define FENCESCOPE_FIELDS_Instant(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(arg0, name_sid, StringId, kString, "") \
  F(arg1, category_sid, StringId, kString, "") \
  F(flags, scope, uint32_t, kNumber, "")

#define FENCESCOPE_FIELDS_Marker(F) \
  F(queue, queue_id, QueueId, kQueue, "") \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(arg0, name_sid, StringId, kString, "") \
  F(arg1, adapter_id, AdapterId, kAdapter, "") \
  F(flags, marker_type, uint32_t, kNumber, "")

#define FENCESCOPE_FIELDS_AsyncSlice(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(op, async_id, int64_t, kNumber, "") \
  F(value, duration_ns, int64_t, kDuration, "") \
  F(arg0, name_sid, StringId, kString, "") \
  F(arg1, category_sid, StringId, kString, "") \
  F(arg2, process_id, ProcessId, kProcess, "")

#define FENCESCOPE_FIELDS_CpuWaitWithdrawn(F) \
  F(thread, thread_id, ThreadId, kThread, "") \
  F(fence, fence_id, FenceId, kFence, "") \
  F(value, fence_value, FenceValue, kNumber, "") \
  F(op, waiter_id, int64_t, kNumber, "") \
  F(arg0, group_id, int64_t, kNumber, "") \
  F(arg1, satisfied_waiter_id, int64_t, kNumber, "")
