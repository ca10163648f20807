#include "importers/chrome_json/kineto_gpu_mapping.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace importers::chrome_json {
namespace {

using core::model::EventKind;
using core::model::FenceId;
using core::model::QueueId;
using core::model::Severity;
using core::store::EventRecord;

struct RecordInfo {
  int64_t correlation = 0;
  TimeNs ts = 0;
  core::model::ThreadId thread = 0;
  uint32_t process = kNone;
  int64_t stream = -1;
  int64_t event_id = -1;
  // Filled when the signal is made.
  FenceId fence = 0;
  uint64_t value = 0;
  int64_t signal_op = 0;
  TimeNs executed = 0;
};

// Per queue: packets by submit time with the running maximum of their end times, so that "when
// has everything launched before t completed" is one binary search (CUDA runs a stream in order).
class StreamOrder {
 public:
  explicit StreamOrder(const std::vector<KinetoPacket>& packets) {
    for (const KinetoPacket& p : packets) m_by_queue[p.queue].push_back({p.submit, p.end});
    for (auto& [queue, list] : m_by_queue) {
      std::sort(list.begin(), list.end());
      TimeNs running = list.empty() ? 0 : list.front().second;
      for (auto& entry : list) {
        running = std::max(running, entry.second);
        entry.second = running;
      }
    }
  }
  TimeNs CompletedAfter(QueueId queue, TimeNs ts) const {
    auto it = m_by_queue.find(queue);
    if (it == m_by_queue.end()) return ts;
    const auto& list = it->second;
    auto pos = std::upper_bound(list.begin(), list.end(), std::make_pair(ts, INT64_MAX));
    if (pos == list.begin()) return ts;
    return std::max(ts, std::prev(pos)->second);
  }

 private:
  std::map<QueueId, std::vector<std::pair<TimeNs, TimeNs>>> m_by_queue;
};

}  // namespace

void MapKinetoSynchronisation(const KinetoCollected& collected, RecordSink& sink,
                              core::store::TraceWriter& writer, const QueueForStream& queue_for) {
  // 1. The cudaEventRecord calls, by correlation id.
  std::unordered_map<int64_t, RecordInfo> records;
  for (const auto& [correlation, call] : collected.runtime_by_correlation) {
    if (!call.event_record) continue;
    RecordInfo info;
    info.correlation = correlation;
    info.ts = call.ts;
    info.thread = call.thread;
    records.emplace(correlation, info);
  }
  // 2. Learn each record's stream and CUDA event id from the syncs that name it.
  for (const KinetoSync& sync : collected.syncs) {
    auto it = records.find(sync.args.wait_on_record_correlation);
    if (it == records.end() || it->second.stream >= 0) continue;
    if (sync.args.wait_on_stream < 0 || sync.args.wait_on_event_id < 0) continue;
    it->second.process = sync.process;
    it->second.stream = sync.args.wait_on_stream;
    it->second.event_id = sync.args.wait_on_event_id;
  }
  // 3. One fence per (device, CUDA event id); the n-th record of the event signals value n.
  std::map<std::pair<uint32_t, int64_t>, std::vector<RecordInfo*>> by_event;
  uint64_t unlinked_records = 0;
  for (auto& [correlation, info] : records) {
    if (info.stream < 0) {
      ++unlinked_records;
      continue;
    }
    by_event[{info.process, info.event_id}].push_back(&info);
  }
  if (unlinked_records) {
    writer.CountProblem("kineto_event_record_unlinked", Severity::kInfo,
                        "cudaEventRecord calls that no cuda_sync event names: the stream and "
                        "CUDA event they recorded are not in the trace, so no fence signal was "
                        "made for them",
                        unlinked_records);
  }
  const StreamOrder order(collected.packets);
  int64_t next_signal = 1;
  for (auto& [key, list] : by_event) {
    std::sort(list.begin(), list.end(), [](const RecordInfo* a, const RecordInfo* b) {
      return a->ts != b->ts ? a->ts < b->ts : a->correlation < b->correlation;
    });
    core::store::FenceInfo fence_info;
    fence_info.name = fmt::format("CUDA event {}", key.second);
    fence_info.kind = core::model::FenceKind::kOther;
    fence_info.handle = key.second;
    const FenceId fence = writer.AddFence(fence_info);
    uint64_t value = 0;
    for (RecordInfo* info : list) {
      info->fence = fence;
      info->value = ++value;
      info->signal_op = next_signal++;
      const QueueId queue = queue_for(info->process, info->stream);
      info->executed = order.CompletedAfter(queue, info->ts);
      EventRecord queued;
      queued.ts = info->ts;
      queued.kind = EventKind::FenceSignalQueued;
      queued.queue = queue;
      queued.thread = info->thread;
      queued.fence = fence;
      queued.value = info->value;
      queued.op = info->signal_op;
      sink.Add(queued);
      EventRecord executed;
      executed.ts = info->executed;
      executed.kind = EventKind::FenceSignalExecuted;
      executed.queue = queue;
      executed.fence = fence;
      executed.value = info->value;
      executed.op = info->signal_op;
      executed.arg0 = static_cast<int64_t>(info->value - 1);
      sink.Add(executed);
    }
  }

  // The record a sync waits for: by the record's correlation id when present, else the latest
  // record of the same CUDA event at or before `before`.
  auto find_record = [&](const KinetoSync& sync, TimeNs before) -> const RecordInfo* {
    auto it = records.find(sync.args.wait_on_record_correlation);
    if (it != records.end() && it->second.fence != 0) return &it->second;
    auto event = by_event.find({sync.process, sync.args.wait_on_event_id});
    if (event == by_event.end()) return nullptr;
    const RecordInfo* best = nullptr;
    for (const RecordInfo* info : event->second) {
      if (info->ts <= before) best = info;
    }
    return best;
  };

  uint64_t unlinked_waits = 0, calls_missing = 0, event_syncs_unlinked = 0;
  int64_t next_wait = 1, next_waiter = 1;
  for (const KinetoSync& sync : collected.syncs) {
    auto call_it = collected.runtime_by_correlation.find(sync.args.correlation);
    const KinetoRuntimeCall* call =
        call_it == collected.runtime_by_correlation.end() ? nullptr : &call_it->second;
    if (sync.kind == KinetoSyncKind::kStreamWait) {
      const TimeNs queued_at = call ? call->ts : sync.ts;
      const RecordInfo* record = find_record(sync, queued_at);
      if (!record) {
        ++unlinked_waits;
        continue;
      }
      const int64_t stream = sync.stream >= 0 ? sync.stream : sync.args.stream;
      const QueueId queue = queue_for(sync.process, stream);
      const int64_t op = next_wait++;
      EventRecord queued;
      queued.ts = queued_at;
      queued.kind = EventKind::FenceWaitQueued;
      queued.queue = queue;
      queued.thread = call ? call->thread : 0;
      queued.fence = record->fence;
      queued.value = record->value;
      queued.op = op;
      sink.Add(queued);
      EventRecord unblocked;
      // The stream cannot pass the wait before the record has executed on its own stream.
      unblocked.ts = std::max(sync.end, record->executed);
      unblocked.kind = EventKind::FenceWaitUnblocked;
      unblocked.queue = queue;
      unblocked.fence = record->fence;
      unblocked.value = record->value;
      unblocked.op = op;
      unblocked.arg0 = sync.ts;  // when the device stream reached the wait
      unblocked.arg1 = record->signal_op;
      unblocked.flags = static_cast<uint32_t>(core::model::WaitPath::kGpuNative);
      sink.Add(unblocked);
      continue;
    }
    if (!call) {
      ++calls_missing;
      continue;
    }
    const RecordInfo* record = nullptr;
    if (sync.kind == KinetoSyncKind::kEventSync) {
      record = find_record(sync, call->ts);
      if (!record) ++event_syncs_unlinked;
    }
    const int64_t op = next_waiter++;
    EventRecord begin;
    begin.ts = sync.ts;
    begin.kind = EventKind::CpuWaitBegin;
    begin.thread = call->thread;
    begin.fence = record ? record->fence : 0;
    begin.value = record ? record->value : 0;
    begin.op = op;
    sink.Add(begin);
    EventRecord released = begin;
    released.ts = sync.end;
    released.kind = EventKind::CpuWaitReleased;
    released.arg1 = record ? static_cast<int64_t>(record->value) : 0;
    sink.Add(released);
  }
  if (unlinked_waits) {
    writer.CountProblem("kineto_wait_unlinked", Severity::kInfo,
                        "cuda_sync \"Stream Wait Event\" events whose cudaEventRecord is not in "
                        "the trace (or names no stream): no fence wait was made for them",
                        unlinked_waits);
  }
  if (calls_missing) {
    writer.CountProblem("kineto_sync_without_call", Severity::kInfo,
                        "cuda_sync Event/Stream/Context Sync events with no CUDA runtime call of "
                        "the same correlation id: the waiting CPU thread is unknown, no CPU wait "
                        "was made",
                        calls_missing);
  }
  if (event_syncs_unlinked) {
    writer.CountProblem("kineto_event_sync_unlinked", Severity::kInfo,
                        "cuda_sync \"Event Sync\" events whose cudaEventRecord is not in the "
                        "trace: the CPU wait was made without a fence",
                        event_syncs_unlinked);
  }
}

}  // namespace importers::chrome_json
