// Fence records the GPU mappings share (cuda_sync_mapping.h, and the MTIA mapping of
// importers/chrome_json): a stream's signal, and the "<queue> synchronize" fences of host syncs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/store/trace_writer.h"
#include "importers/common/cuda_sync_types.h"
#include "importers/common/record_sink.h"

namespace importers::cuda {

// A signal of `fence` to `value` on `queue`: queued at `queued_at` by `thread` (0: no thread),
// executed at `executed_at` (the value before it: value - 1).
void AddQueueSignal(RecordSink& sink, core::model::QueueId queue, core::model::ThreadId thread,
                    core::model::FenceId fence, uint64_t value, int64_t op, TimeNs queued_at,
                    TimeNs executed_at);

// One fence per queue a host thread synchronised with ("<queue> synchronize"), signalled once
// per sync: the n-th sync of a queue waits for value n.
class SyncFences {
 public:
  SyncFences(core::store::TraceWriter& writer,
             const std::function<std::string(core::model::QueueId)>& queue_name)
      : m_writer(writer), m_queue_name(queue_name) {}
  // The queue's fence (made on first use) and the value of its next sync.
  std::pair<core::model::FenceId, uint64_t> Next(core::model::QueueId queue);

 private:
  core::store::TraceWriter& m_writer;
  const std::function<std::string(core::model::QueueId)>& m_queue_name;
  std::unordered_map<core::model::QueueId, std::pair<core::model::FenceId, uint64_t>> m_fences;
};

}  // namespace importers::cuda
