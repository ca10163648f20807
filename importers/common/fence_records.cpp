#include "importers/common/fence_records.h"

namespace importers::cuda {

namespace events = core::model::events;

void AddQueueSignal(RecordSink& sink, core::model::QueueId queue, core::model::ThreadId thread,
                    core::model::FenceId fence, uint64_t value, int64_t op, TimeNs queued_at,
                    TimeNs executed_at) {
  sink.Add(events::FenceSignalQueued{.ts_ns = queued_at,
                                     .queue_id = queue,
                                     .thread_id = thread,
                                     .fence_id = fence,
                                     .fence_value = value,
                                     .signal_id = op});
  sink.Add(events::FenceSignalExecuted{.ts_ns = executed_at,
                                       .queue_id = queue,
                                       .fence_id = fence,
                                       .fence_value = value,
                                       .signal_id = op,
                                       .previous_value = value - 1});
}

std::pair<core::model::FenceId, uint64_t> SyncFences::Next(core::model::QueueId queue) {
  auto [it, added] = m_fences.try_emplace(queue, 0, 0);
  if (added) {
    core::model::Fence info;
    info.name = m_queue_name(queue) + " synchronize";
    info.kind = core::model::FenceKind::kOther;
    it->second.first = m_writer.AddFence(info);
  }
  return {it->second.first, ++it->second.second};
}

}  // namespace importers::cuda
