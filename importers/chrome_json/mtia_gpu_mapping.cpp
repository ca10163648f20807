#include "importers/chrome_json/mtia_gpu_mapping.h"

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>

#include "importers/common/cuda_stream_timing.h"
#include "importers/common/fence_records.h"
#include "importers/common/import_counters.h"

namespace importers::chrome_json {
namespace {

using cuda::AddQueueSignal;
using cuda::StreamTiming;
using cuda::SyncFences;
using core::model::FenceId;
using core::model::QueueId;
using core::model::ReleaseLink;
using core::model::ThreadId;
namespace events = core::model::events;

// A wait whose fence was signalled before it began finds it so at once; one that lasted longer
// than this while the stream it waits on recorded nothing waited for a record not in the trace.
constexpr TimeNs kSatisfiedAtOnceNs = 1000;

struct StreamRecords {
  FenceId fence = 0;
  std::vector<uint32_t> records;    // indices into the events, by start
  std::vector<int64_t> signal_ops;  // per record
};

class Mapper {
 public:
  Mapper(const std::vector<MtiaStreamEvent>& events, const std::vector<MtiaStreamSync>& syncs,
         const std::vector<CudaPacket>& packets,
         const std::unordered_map<int64_t, CudaRuntimeCall>& calls, RecordSink& sink,
         core::store::TraceWriter& writer, const QueueOfMtiaStream& queue_of,
         const std::function<std::string(QueueId)>& queue_name, FenceOpIds& ids)
      : m_events(events),
        m_syncs(syncs),
        m_packets(packets),
        m_calls(calls),
        m_sink(sink),
        m_writer(writer),
        m_queue_of(queue_of),
        m_queue_name(queue_name),
        m_ids(ids) {}

  void Run() {
    for (uint32_t i = 0; i < m_events.size(); ++i) {
      const MtiaStreamEvent& e = m_events[i];
      if (!e.wait) m_streams[{e.process, e.stream}].records.push_back(i);
    }
    for (auto& [key, stream] : m_streams) {
      std::sort(stream.records.begin(), stream.records.end(), [&](uint32_t a, uint32_t b) {
        return std::tie(m_events[a].ts, m_events[a].end, a) <
               std::tie(m_events[b].ts, m_events[b].end, b);
      });
      MakeSignals(stream);
    }
    for (const MtiaStreamEvent& e : m_events) {
      if (e.wait) PlaceWait(e);
    }
    if (!m_syncs.empty()) {
      CollectStreamWork();
      for (const MtiaStreamSync& sync : m_syncs) PlaceHostSync(sync);
    }
    WriteCounts();
  }

 private:
  struct Call {
    TimeNs ts = 0;
    ThreadId thread = 0;
  };
  // The runtime call that enqueued a device event (recordEvent, waitOnEvent), by correlation
  // id; the event's own start on no thread when the call is not in the trace.
  Call CallOf(const MtiaStreamEvent& e) const {
    auto it = m_calls.find(e.correlation);
    if (e.correlation < 0 || it == m_calls.end() || it->second.ts > e.ts) return {e.ts, 0};
    return {it->second.ts, it->second.thread};
  }

  FenceId FenceOf(QueueId queue) {
    core::model::Fence info;
    info.name = m_queue_name(queue) + " event records";
    info.kind = core::model::FenceKind::kOther;
    return m_writer.AddFence(info);
  }

  // Records execute in stream order: the n-th record of the stream signals value n. Its value
  // counts from the record's start: on HTA's MTIA trace the waits a record releases end
  // 0.18-0.27 us after it starts, while the record itself lasts 1.2 us (it notifies them).
  void MakeSignals(StreamRecords& stream) {
    const QueueId queue = m_events[stream.records.front()].queue;
    stream.fence = FenceOf(queue);
    uint64_t value = 0;
    for (uint32_t i : stream.records) {
      const MtiaStreamEvent& r = m_events[i];
      const Call call = CallOf(r);
      const int64_t op = m_ids.next_signal++;
      ++value;
      stream.signal_ops.push_back(op);
      AddQueueSignal(m_sink, r.queue, call.thread, stream.fence, value, op, call.ts, r.ts);
    }
  }

  void PlaceWait(const MtiaStreamEvent& w) {
    FenceId fence = 0;
    uint64_t value = 0;
    int64_t released_by = 0;
    ReleaseLink link = ReleaseLink::kNotGiven;
    const QueueId waited = w.wait_on_stream >= 0 ? m_queue_of(w.process, w.wait_on_stream) : 0;
    if (w.wait_on_stream < 0) {
      ++m_names_no_stream;
    } else if (!waited) {
      ++m_stream_not_in_trace;
    } else if (auto it = m_streams.find({w.process, w.wait_on_stream}); it == m_streams.end()) {
      // The stream is in the trace but recorded nothing: its fence has no signal.
      ++m_release_not_in_trace;
    } else {
      const StreamRecords& s = it->second;
      fence = s.fence;
      // The last record of the waited stream that began by the time the wait ended.
      const auto after = std::upper_bound(s.records.begin(), s.records.end(), w.end,
                                          [&](TimeNs t, uint32_t r) { return t < m_events[r].ts; });
      const size_t n = static_cast<size_t>(after - s.records.begin());  // records begun by then
      const bool found = n > 0;
      const MtiaStreamEvent* r = found ? &m_events[s.records[n - 1]] : nullptr;
      const bool during = found && r->ts >= w.ts;
      const bool at_once = found && r->ts < w.ts && w.end - w.ts <= kSatisfiedAtOnceNs;
      if (during || at_once) {
        value = n;
        released_by = s.signal_ops[n - 1];
        link = ReleaseLink::kInferred;
        ++m_linked;
      } else {
        // It held its stream while the waited stream recorded nothing: it waited for a record
        // the trace does not hold (the next value).
        value = n + 1;
        ++m_release_not_in_trace;
      }
    }
    const Call call = CallOf(w);
    const int64_t op = m_ids.next_wait++;
    m_sink.Add(events::FenceWaitQueued{.ts_ns = call.ts,
                                       .queue_id = w.queue,
                                       .thread_id = call.thread,
                                       .fence_id = fence,
                                       .fence_value = value,
                                       .wait_id = op});
    m_sink.Add(events::FenceWaitUnblocked{.ts_ns = w.end,
                                          .queue_id = w.queue,
                                          .fence_id = fence,
                                          .fence_value = value,
                                          .wait_id = op,
                                          .observed_ns = w.ts,  // when the stream reached it
                                          .released_by_signal_id = released_by,
                                          .release_link = link,
                                          .wait_path = core::model::WaitPath::kGpuNative});
  }

  // A stream runs what it is given in order: its packets, and its records and waits as work
  // too, each given at its host call (else its own start). StreamTiming answers when all that
  // was given before a host time had ended.
  void CollectStreamWork() {
    m_work = m_packets;
    for (const MtiaStreamEvent& e : m_events) {
      CudaPacket given;
      given.queue = e.queue;
      given.process = e.process;
      given.submit = CallOf(e).ts;
      given.start = e.ts;
      given.end = e.end;
      m_work.push_back(given);
    }
    m_timing = std::make_unique<StreamTiming>(m_work);
  }

  // The host blocked in synchronizeStream until the stream's earlier work had ended: a CPU wait
  // for the call, released by a signal of the stream executed then (the stream is named by the
  // call; the work it waited for follows from stream order).
  void PlaceHostSync(const MtiaStreamSync& sync) {
    const QueueId queue = sync.process != kNone ? m_queue_of(sync.process, sync.stream) : 0;
    FenceId fence = 0;
    uint64_t value = 0;
    ReleaseLink link = ReleaseLink::kNotGiven;
    if (queue) {
      std::tie(fence, value) = m_sync_fences.Next(queue);
      TimeNs executed = m_timing->CompletedAfter(queue, sync.ts).at;
      if (executed > sync.end) {
        // The call returned before the device's timestamps say the work ended: the clocks
        // disagree; the return is the fact kept.
        ++m_syncs_before_work_end;
        executed = sync.end;
      }
      const int64_t op = m_ids.next_signal++;
      AddQueueSignal(m_sink, queue, sync.thread, fence, value, op, sync.ts, executed);
      link = ReleaseLink::kFromCapture;
    } else {
      ++m_syncs_stream_not_in_trace;
    }
    const int64_t waiter = m_ids.next_waiter++;
    m_sink.Add(events::CpuWaitBegin{.ts_ns = sync.ts,
                                    .thread_id = sync.thread,
                                    .fence_id = fence,
                                    .fence_value = value,
                                    .waiter_id = waiter});
    m_sink.Add(events::CpuWaitReleased{.ts_ns = sync.end,
                                       .thread_id = sync.thread,
                                       .fence_id = fence,
                                       .fence_value = value,
                                       .waiter_id = waiter,
                                       .observed_value = value,
                                       .release_link = link});
  }

  void WriteCounts() {
    const importers::ImportCounter rows[] = {
        {"mtia_wait_linked_by_timing", m_linked,
         "MTIA event_wait events linked to the last event_record of the stream they wait on "
         "(wait_on_stream) that began by the time the wait ended: the device names the stream, "
         "not the record (release_link = inferred)"},
        {"mtia_wait_release_not_in_trace", m_release_not_in_trace,
         "MTIA event_wait events that held their stream while the stream they wait on recorded "
         "nothing: what released them is not in the trace, placed unlinked"},
        {"mtia_wait_stream_not_in_trace", m_stream_not_in_trace,
         "MTIA event_wait events whose wait_on_stream has no event in the trace: placed "
         "unlinked, on no fence"},
        {"mtia_wait_names_no_stream", m_names_no_stream,
         "MTIA event_wait events without a wait_on_stream argument: placed unlinked, on no "
         "fence"},
        {"mtia_sync_stream_not_in_trace", m_syncs_stream_not_in_trace,
         "MTIA synchronizeStream calls whose device stream (args.device, args.stream_id) has no "
         "event in the trace: CPU waits placed unlinked"},
        {"mtia_sync_before_work_end", m_syncs_before_work_end,
         "MTIA synchronizeStream calls that returned before the device's timestamps of the work "
         "they waited for ended (host and device clocks disagree); the signal is placed at the "
         "return"},
    };
    importers::CountNonZero(m_writer, rows);
  }

  const std::vector<MtiaStreamEvent>& m_events;
  const std::vector<MtiaStreamSync>& m_syncs;
  const std::vector<CudaPacket>& m_packets;
  const std::unordered_map<int64_t, CudaRuntimeCall>& m_calls;
  RecordSink& m_sink;
  core::store::TraceWriter& m_writer;
  const QueueOfMtiaStream& m_queue_of;
  const std::function<std::string(QueueId)>& m_queue_name;
  FenceOpIds& m_ids;
  std::map<std::pair<uint32_t, int64_t>, StreamRecords> m_streams;  // (device, stream)
  uint64_t m_linked = 0, m_release_not_in_trace = 0, m_stream_not_in_trace = 0;
  uint64_t m_names_no_stream = 0, m_syncs_stream_not_in_trace = 0, m_syncs_before_work_end = 0;
  std::vector<CudaPacket> m_work;  // what the streams were given (CollectStreamWork)
  std::unique_ptr<StreamTiming> m_timing;
  SyncFences m_sync_fences{m_writer, m_queue_name};
};

}  // namespace

void MapMtiaSynchronisation(const std::vector<MtiaStreamEvent>& events,
                            const std::vector<MtiaStreamSync>& syncs,
                            const std::vector<CudaPacket>& packets,
                            const std::unordered_map<int64_t, CudaRuntimeCall>& runtime_calls,
                            RecordSink& sink, core::store::TraceWriter& writer,
                            const QueueOfMtiaStream& queue_of,
                            const std::function<std::string(QueueId)>& queue_name,
                            FenceOpIds& ids) {
  Mapper(events, syncs, packets, runtime_calls, sink, writer, queue_of, queue_name, ids).Run();
}

}  // namespace importers::chrome_json
