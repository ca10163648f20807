#include "importers/common/cuda_sync_mapping.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <unordered_set>

#include "importers/common/cuda_record_choice.h"
#include "importers/common/cuda_stream_timing.h"
#include "importers/common/fence_records.h"

namespace importers::cuda {
namespace {

using core::model::FenceId;
using core::model::QueueId;
using core::model::ReleaseLink;
using core::model::ThreadId;
using core::store::EventRecord;
namespace events = core::model::events;

// How far back on a thread a wait looks for the record it waits for (records of other events
// in between are skipped).
constexpr size_t kRecordSearchDepth = 64;

// A (device, stream) as a sync names it; stream -1: not named.
struct StreamKey {
  uint32_t device = 0;
  int64_t stream = -1;
  bool operator==(const StreamKey& o) const { return device == o.device && stream == o.stream; }
};

// One cudaEventRecord* call.
struct Record {
  int64_t correlation = 0;
  TimeNs ts = 0;
  ThreadId thread = 0;
  // Learnt from the syncs that name or claim it.
  int64_t event_id = -1;
  uint32_t device = kNone;
  bool event_from_capture = false;   // a sync named this record by its correlation id
  QueueId queue = 0;                 // the stream it was recorded on (0: unknown)
  bool stream_from_capture = false;  // wait_on_stream said so
  StreamKey stream;                  // ... which stream
  bool stream_by_launch = false;     // the stream of the last launch its thread made before it
  // The signal made for it.
  FenceId fence = 0;
  uint64_t value = 0;
  int64_t signal_op = 0;  // 0: no signal (stream unknown)
  TimeNs executed = 0;
  // An Event Sync that waited for it returned then: it had executed by that time.
  TimeNs executed_by = std::numeric_limits<TimeNs>::max();
  ReleaseLink Link() const {
    return event_from_capture && stream_from_capture ? ReleaseLink::kFromCapture
                                                     : ReleaseLink::kInferred;
  }
};


class Mapper {
 public:
  Mapper(CudaCollected& c, RecordSink& sink, core::store::TraceWriter& writer,
         const QueueForStream& queue_for, const std::function<std::string(QueueId)>& queue_name,
         FenceOpIds& ids)
      : m_c(c),
        m_sink(sink),
        m_writer(writer),
        m_queue_for(queue_for),
        m_queue_name(queue_name),
        m_next_signal(ids.next_signal),
        m_next_wait(ids.next_wait),
        m_next_waiter(ids.next_waiter) {}

  CudaSyncCounts Run() {
    LinkLaunchesByCorrelation();
    m_timing = std::make_unique<StreamTiming>(m_c.packets);
    CollectRecords();
    PlaceRecordStreamsByLaunch();
    ResolveSyncRecords();
    PlaceRecordStreams();
    BoundExecutionsBySyncReturns();
    MakeRecordSignals();
    for (uint32_t s : m_sync_order) {
      const CudaSync& sync = m_c.syncs[s];
      if (sync.kind == CudaSyncKind::kStreamWait) {
        PlaceGpuWait(s);
      } else {
        PlaceCpuWait(s);
      }
    }
    CountCallsWithoutSync();
    return m_n;
  }

 private:
  // The runtime call that made sync s (cudaStreamWaitEvent, cudaStreamSynchronize, ...), and
  // its time (the sync's own start when the call is not in the trace); looked up once.
  const CudaRuntimeCall* CallOf(uint32_t s) const { return m_sync_calls[s]; }
  TimeNs CallTime(uint32_t s) const {
    return m_sync_calls[s] ? m_sync_calls[s]->ts : m_c.syncs[s].ts;
  }

  // ac2g flows are the usual launch link; a kernel without one (a dropped flow, a graph node
  // whose flow the writer left out) is linked to the runtime call of its correlation id.
  void LinkLaunchesByCorrelation() {
    for (CudaPacket& p : m_c.packets) {
      if (p.thread != 0 || p.correlation < 0) continue;
      auto it = m_c.runtime_by_correlation.find(p.correlation);
      if (it == m_c.runtime_by_correlation.end() || it->second.event_record) continue;
      const CudaRuntimeCall& call = it->second;
      if (call.ts > p.start) continue;  // a launch cannot come after its kernel started
      EventRecord& submitted = m_sink.at(p.submitted_record);
      submitted.ts = call.ts;
      submitted.thread = call.thread;
      p.submit = call.ts;
      p.thread = call.thread;
      if (call.record != kNone && p.started_record != kNone) {
        m_sink.AddFlow(call.record, p.started_record, core::model::FlowKind::kCpuLaunch, 0);
      }
      ++m_n.launches_by_correlation;
    }
  }

  void CollectRecords() {
    for (const auto& [correlation, call] : m_c.runtime_by_correlation) {
      if (!call.event_record) continue;
      Record r;
      r.correlation = correlation;
      r.ts = call.ts;
      r.thread = call.thread;
      m_records.push_back(r);
    }
    std::sort(m_records.begin(), m_records.end(), [](const Record& a, const Record& b) {
      return std::tie(a.thread, a.ts, a.correlation) < std::tie(b.thread, b.ts, b.correlation);
    });
    for (uint32_t i = 0; i < m_records.size(); ++i) {
      m_record_by_correlation[m_records[i].correlation] = i;
    }
    m_calls = m_records.size();
    // Launches per thread, by time: the "launches around a record" clue for its stream.
    for (uint32_t i = 0; i < m_c.packets.size(); ++i) {
      const CudaPacket& p = m_c.packets[i];
      if (p.thread != 0) m_launches.push_back({p.thread, p.submit, i});
    }
    std::sort(m_launches.begin(), m_launches.end());
    m_sync_calls.resize(m_c.syncs.size(), nullptr);
    for (uint32_t s = 0; s < m_sync_calls.size(); ++s) {
      auto it = m_c.runtime_by_correlation.find(m_c.syncs[s].args.correlation);
      if (it != m_c.runtime_by_correlation.end()) m_sync_calls[s] = &it->second;
    }
    // Syncs in host order (their calls), so that records are claimed as the program ran.
    m_sync_order.resize(m_c.syncs.size());
    for (uint32_t s = 0; s < m_sync_order.size(); ++s) m_sync_order[s] = s;
    std::stable_sort(m_sync_order.begin(), m_sync_order.end(),
                     [&](uint32_t a, uint32_t b) { return CallTime(a) < CallTime(b); });
  }

  // The record each Stream Wait Event / Event Sync waits for:
  //   1. the record its wait_on_cuda_event_record_corr_id names (the capture says so);
  //   2. else the one of the candidates (the thread's recent record calls no other CUDA event
  //      has claimed, and the latest record known to be of this event id) that the GPU
  //      timestamps say it waited for (ChooseAmongCandidates; the record then belongs to this
  //      event id);
  //   3. else a record implied on the stream the sync names, or on which the event is recorded
  //      later in the trace.
  void ResolveSyncRecords() {
    m_sync_record.assign(m_c.syncs.size(), kNone);
    m_sync_named.assign(m_c.syncs.size(), false);
    for (uint32_t s : m_sync_order) {
      const CudaSync& sync = m_c.syncs[s];
      if (sync.kind != CudaSyncKind::kStreamWait && sync.kind != CudaSyncKind::kEventSync) {
        continue;
      }
      const int64_t event = sync.args.wait_on_event_id;
      auto named = m_record_by_correlation.find(sync.args.wait_on_record_correlation);
      if (named != m_record_by_correlation.end()) {
        Record& r = m_records[named->second];
        if (r.event_id < 0 || !r.event_from_capture) {
          r.event_id = event;
          r.device = sync.process;
          r.event_from_capture = true;
        }
        if (sync.args.wait_on_stream >= 0 && !r.stream_from_capture) {
          r.queue = m_queue_for(sync.process, sync.args.wait_on_stream);
          r.stream_from_capture = true;
          r.stream = {sync.process, sync.args.wait_on_stream};
        }
        Claim(s, named->second);
        m_sync_named[s] = true;
        continue;
      }
      if (event < 0) continue;
      const CudaRuntimeCall* call = CallOf(s);
      const TimeNs before = CallTime(s);
      uint32_t found = ChooseAmongCandidates(s);
      if (found == kNone && sync.args.wait_on_stream >= 0) {
        found = ImpliedRecord(sync, call, before,
                              m_queue_for(sync.process, sync.args.wait_on_stream), true);
      }
      if (found == kNone) continue;
      Record& r = m_records[found];
      if (r.event_id < 0) {
        r.event_id = event;
        r.device = sync.process;
      }
      Claim(s, found);
    }
    ImplyRecordsFromLaterOnes();
  }

  // A wait on an event none of whose records is in the trace before it (the event was recorded
  // before the capture began) and that names no stream: where the same event id is recorded
  // later in the trace, on a stream the trace shows, the record is implied on that stream just
  // before the wait's call (an event is most often recorded on the same stream each time).
  void ImplyRecordsFromLaterOnes() {
    std::map<std::pair<uint32_t, int64_t>, std::vector<uint32_t>> recorded;  // by ts
    for (uint32_t i = 0; i < m_records.size(); ++i) {
      const Record& r = m_records[i];
      if (r.event_id >= 0 && r.queue != 0) recorded[{r.device, r.event_id}].push_back(i);
    }
    for (auto& [key, list] : recorded) {
      std::sort(list.begin(), list.end(),
                [&](uint32_t a, uint32_t b) { return m_records[a].ts < m_records[b].ts; });
    }
    for (uint32_t s : m_sync_order) {
      const CudaSync& sync = m_c.syncs[s];
      if (m_sync_record[s] != kNone || sync.args.wait_on_event_id < 0 ||
          (sync.kind != CudaSyncKind::kStreamWait && sync.kind != CudaSyncKind::kEventSync)) {
        continue;
      }
      auto it = recorded.find({sync.process, sync.args.wait_on_event_id});
      if (it == recorded.end()) continue;
      const TimeNs before = CallTime(s);
      auto later = std::find_if(it->second.begin(), it->second.end(),
                                [&](uint32_t r) { return m_records[r].ts > before; });
      if (later == it->second.end()) continue;
      const QueueId queue = m_records[*later].queue;
      const uint32_t implied = ImpliedRecord(sync, CallOf(s), before, queue, false);
      ++m_n.records_implied_from_later;
      m_sync_record[s] = implied;
      // Later waits on the event find its later records first; this one is only this wait's.
    }
  }

  // The record call is not in the trace, but the sync names the stream it was recorded on: the
  // record is taken to be the latest it can be, just before the wait's call. The release it
  // gives is then the latest possible one (all the stream's work launched before the wait).
  // stream_named: the sync names the stream (wait_on_stream), else it is inferred.
  uint32_t ImpliedRecord(const CudaSync& sync, const CudaRuntimeCall* call, TimeNs before,
                         QueueId queue, bool stream_named) {
    Record r;
    r.correlation = -1;
    r.ts = before;
    r.thread = call ? call->thread : 0;
    r.event_id = sync.args.wait_on_event_id;
    r.device = sync.process;
    r.queue = queue;
    r.stream_from_capture = stream_named;
    if (stream_named) {
      r.stream = {sync.process, sync.args.wait_on_stream};
      ++m_n.records_implied;
    }
    m_records.push_back(r);
    return static_cast<uint32_t>(m_records.size() - 1);
  }

  void Claim(uint32_t sync, uint32_t record) {
    m_sync_record[sync] = record;
    const Record& r = m_records[record];
    auto [it, added] = m_latest_of_event.try_emplace(r.event_id, record);
    if (!added && m_records[it->second].ts < r.ts) it->second = record;
  }

  // A record can be the one a sync waited for unless the sync names the stream it was recorded
  // on and the record is known to be on another.
  static bool OnStream(const Record& r, const StreamKey& named) {
    return named.stream < 0 || r.stream.stream < 0 || r.stream == named;
  }

  // The record calls a wait on `event` may have waited for: on the thread that made the wait's
  // call, the most recent ones before it that no other CUDA event id has claimed (at most
  // kRecordSearchDepth back, records of other events in between skipped), then the latest
  // record already known to be of this event id, on any thread. A sync that names the
  // recorded stream rules out records known to be on another one.
  void GatherCandidates(uint32_t s, std::vector<uint32_t>& out) const {
    out.clear();
    const CudaSync& sync = m_c.syncs[s];
    const int64_t event = sync.args.wait_on_event_id;
    const StreamKey named_stream{sync.process, sync.args.wait_on_stream};
    const TimeNs before = CallTime(s);
    if (const CudaRuntimeCall* call = CallOf(s)) {
      // Only the record calls of the trace (implied records, appended after them, are not calls).
      const auto end = m_records.begin() + static_cast<ptrdiff_t>(m_calls);
      auto pos = std::lower_bound(m_records.begin(), end, std::make_pair(call->thread, before),
                                  [](const Record& r, const std::pair<ThreadId, TimeNs>& k) {
                                    return std::tie(r.thread, r.ts) < std::tie(k.first, k.second);
                                  });
      for (size_t depth = 0; depth < kRecordSearchDepth && pos != m_records.begin(); ++depth) {
        --pos;
        if (pos->thread != call->thread) break;
        if ((pos->event_id < 0 || pos->event_id == event) && OnStream(*pos, named_stream)) {
          out.push_back(static_cast<uint32_t>(pos - m_records.begin()));
        }
      }
    }
    // Syncs are resolved in call order, so the latest record claimed so far is the latest one
    // before this call (a claimed record always precedes the call that claimed it).
    auto known = m_latest_of_event.find(event);
    if (known != m_latest_of_event.end()) {
      const Record& r = m_records[known->second];
      if (r.ts < before && OnStream(r, named_stream) &&
          std::find(out.begin(), out.end(), known->second) == out.end()) {
        out.push_back(known->second);
      }
    }
  }

  // When everything launched on `queue` before host time t had completed. A legacy NULL
  // stream's work also waits for the earlier work of every blocking stream of its device.
  TimeNs WorkDoneAfter(QueueId queue, TimeNs t) const {
    TimeNs at = m_timing->CompletedAfter(queue, t).at;
    auto blocking = m_c.null_stream_waits_for.find(queue);
    if (blocking != m_c.null_stream_waits_for.end()) {
      for (QueueId q : blocking->second) at = std::max(at, m_timing->CompletedAfter(q, t).at);
    }
    return at;
  }

  // When a record executed: the device's timestamp where the trace gives one (Nsight's
  // CUDA_EVENT rows), else as far as the GPU timestamps say (its stream's earlier work done).
  TimeNs ExecutionOf(const Record& r) const {
    if (!r.queue) return kExecutionUnknown;
    if (r.correlation >= 0) {
      auto call = m_c.runtime_by_correlation.find(r.correlation);
      if (call != m_c.runtime_by_correlation.end() && call->second.executed > 0) {
        return std::max(r.ts, call->second.executed);
      }
    }
    return WorkDoneAfter(r.queue, r.ts);
  }

  // What the trace saw of wait s: for an Event Sync its call and its return, for a Stream Wait
  // Event when its stream could have run the next packet and when that packet started.
  WaitTiming TimingOf(uint32_t s) {
    const CudaSync& sync = m_c.syncs[s];
    WaitTiming t;
    if (sync.kind == CudaSyncKind::kEventSync) {
      t.known = true;
      t.free_at = CallTime(s);
      t.went_on = sync.end;
      return t;
    }
    const QueueId queue = WaitQueue(sync);
    const uint32_t next = queue ? m_timing->NextLaunched(queue, CallTime(s)) : kNone;
    if (next == kNone) return t;
    const CudaPacket& p = m_c.packets[next];
    t.known = true;
    t.free_at = std::max(p.submit, m_timing->CompletedAfter(queue, CallTime(s)).at);
    t.went_on = p.start;
    return t;
  }

  // The record a wait on an event id waited for, when the trace does not name it
  // (cuda_record_choice.h); kNone when there is no candidate.
  uint32_t ChooseAmongCandidates(uint32_t s) {
    const CudaSync& sync = m_c.syncs[s];
    GatherCandidates(s, m_candidate_records);
    if (m_candidate_records.empty()) return kNone;
    const QueueId waiting =
        sync.kind == CudaSyncKind::kStreamWait ? WaitQueue(sync) : QueueId{0};
    m_candidates.clear();
    for (uint32_t i = 0; i < m_candidate_records.size(); ++i) {
      const Record& r = m_records[m_candidate_records[i]];
      m_candidates.push_back({.executed = ExecutionOf(r),
                              .known_of_event = r.event_id == sync.args.wait_on_event_id,
                              .on_waiting_stream = waiting != 0 && r.queue == waiting,
                              .recency = i});
    }
    const RecordChoice choice = ChooseRecord(m_candidates, TimingOf(s));
    if (choice.timing_contradicts) ++m_n.records_against_timing;
    return choice.candidate == kNone ? kNone : m_candidate_records[choice.candidate];
  }

  // Every record call's stream where its thread launched work before it (PyTorch records an
  // event on the stream it has just launched work on): the GPU timestamps then say when each
  // record executed, which is what tells the records a wait may have waited for apart.
  void PlaceRecordStreamsByLaunch() {
    for (uint32_t i = 0; i < m_calls; ++i) {
      Record& r = m_records[i];
      auto pos = std::lower_bound(m_launches.begin(), m_launches.end(), Launch{r.thread, r.ts, 0});
      if (pos != m_launches.begin() && std::prev(pos)->thread == r.thread) {
        r.queue = m_c.packets[std::prev(pos)->packet].queue;
        r.stream_by_launch = true;
      }
    }
  }

  // The stream a record was recorded on, when no sync said it (wait_on_stream = -1):
  //   1. the stream of the last kernel / memcpy the same thread launched before the record
  //      call (PyTorch records an event on the stream it has just launched work on);
  //   2. else GPU timing: the packet on another stream of the device whose end is the latest
  //      before the waiting stream's next packet started (what the wait evidently waited for).
  void PlaceRecordStreams() {
    std::vector<uint32_t> first_wait(m_records.size(), kNone);
    for (uint32_t s : m_sync_order) {
      const uint32_t r = m_sync_record[s];
      if (r != kNone && first_wait[r] == kNone &&
          m_c.syncs[s].kind == CudaSyncKind::kStreamWait) {
        first_wait[r] = s;
      }
    }
    for (uint32_t i = 0; i < m_records.size(); ++i) {
      Record& r = m_records[i];
      if (r.event_id < 0) continue;
      if (r.queue != 0) {
        if (r.stream_by_launch && !r.stream_from_capture) ++m_n.streams_by_launch;
        continue;
      }
      if (first_wait[i] != kNone) {
        const CudaSync& sync = m_c.syncs[first_wait[i]];
        const QueueId waiting = WaitQueue(sync);
        const uint32_t next =
            waiting ? m_timing->NextLaunched(waiting, CallTime(first_wait[i])) : kNone;
        const uint32_t before =
            next == kNone
                ? kNone
                : m_timing->LatestEndBefore(sync.process, waiting, r.ts, m_c.packets[next].start);
        if (before != kNone) {
          r.queue = m_c.packets[before].queue;
          ++m_n.streams_by_timing;
          continue;
        }
      }
      ++m_n.streams_unknown;
    }
  }

  // An Event Sync returned when its record had executed: where the GPU timestamps put the
  // record's execution after that return, the two clocks disagree and the return is the fact
  // kept (as for Stream Syncs), so that the CPU wait is released by the signal it waited for.
  void BoundExecutionsBySyncReturns() {
    for (uint32_t s = 0; s < m_c.syncs.size(); ++s) {
      const uint32_t r = m_sync_record[s];
      if (r == kNone || m_c.syncs[s].kind != CudaSyncKind::kEventSync || !CallOf(s)) continue;
      m_records[r].executed_by = std::min(m_records[r].executed_by, m_c.syncs[s].end);
    }
  }

  QueueId WaitQueue(const CudaSync& sync) const {
    const int64_t stream = sync.stream >= 0 ? sync.stream : sync.args.stream;
    return stream >= 0 ? m_queue_for(sync.process, stream) : 0;
  }

  FenceId FenceOfEvent(uint32_t device, int64_t event) {
    auto [it, added] = m_event_fences.try_emplace({device, event}, 0);
    if (added) {
      core::model::Fence info;
      info.name = fmt::format("CUDA event {}", event);
      info.kind = core::model::FenceKind::kOther;
      info.handle = event;
      it->second = m_writer.AddFence(info);
    }
    return it->second;
  }

  // One fence per (device, CUDA event id); the n-th record of the event signals value n.
  void MakeRecordSignals() {
    std::map<std::pair<uint32_t, int64_t>, std::vector<uint32_t>> by_event;
    for (uint32_t i = 0; i < m_records.size(); ++i) {
      if (m_records[i].event_id >= 0) {
        by_event[{m_records[i].device, m_records[i].event_id}].push_back(i);
      } else {
        ++m_n.records_unclaimed;
      }
    }
    for (auto& [key, list] : by_event) {
      std::sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
        return std::tie(m_records[a].ts, m_records[a].correlation) <
               std::tie(m_records[b].ts, m_records[b].correlation);
      });
      const FenceId fence = FenceOfEvent(key.first, key.second);
      uint64_t value = 0;
      for (uint32_t i : list) {
        Record& r = m_records[i];
        r.fence = fence;
        r.value = ++value;
        if (r.queue == 0) continue;
        r.signal_op = m_next_signal++;
        r.executed = ExecutionOf(r);
        if (r.executed > r.executed_by) {
          r.executed = std::max(r.ts, r.executed_by);
          ++m_n.syncs_before_work_end;
        }
        AddQueueSignal(m_sink, r.queue, r.thread, fence, r.value, r.signal_op, r.ts, r.executed);
      }
    }
  }



  // A Stream Wait Event: queued at the cudaStreamWaitEvent call; the stream reaches it when its
  // earlier work has completed (observed); it holds the stream until the record executed. The
  // wait box ends when the stream went on: at the start of the next packet launched on it, when
  // that packet had been launched by the time the record executed (the wait held it back), or
  // at the release itself when the next launch came later (the stream then waited for the host,
  // which is not this wait's doing).
  // From the capture only when the sync named its record and the record's stream is named;
  // a record found by the rules of ResolveSyncRecords is an inference.
  ReleaseLink LinkOf(uint32_t s) const {
    const uint32_t r = m_sync_record[s];
    if (r == kNone || m_records[r].signal_op == 0) return ReleaseLink::kNotGiven;
    return m_sync_named[s] ? m_records[r].Link() : ReleaseLink::kInferred;
  }

  void PlaceGpuWait(uint32_t s) {
    const CudaSync& sync = m_c.syncs[s];
    const QueueId queue = WaitQueue(sync);
    if (!queue) {
      ++m_n.waits_without_stream;
      return;
    }
    const CudaRuntimeCall* call = CallOf(s);
    const TimeNs queued_at = CallTime(s);
    const uint32_t ri = m_sync_record[s];
    const Record* r = ri == kNone ? nullptr : &m_records[ri];
    const bool signalled = r && r->signal_op != 0;
    const TimeNs observed = m_timing->CompletedAfter(queue, queued_at).at;
    const TimeNs released = signalled ? std::max(observed, r->executed) : observed;
    TimeNs unblocked = released;
    const uint32_t next = m_timing->NextLaunched(queue, queued_at);
    if (next != kNone) {
      const CudaPacket& p = m_c.packets[next];
      if (p.start < released) {
        ++m_n.released_before_signal;
        unblocked = std::max(observed, p.start);
      } else if (p.submit <= released) {
        unblocked = p.start;
      }
    }
    if (!r) ++m_n.waits_without_record;
    const ReleaseLink link = LinkOf(s);
    if (link == ReleaseLink::kInferred) ++m_n.gpu_waits_inferred;
    const int64_t op = m_next_wait++;
    const FenceId fence = r ? r->fence
                            : (sync.args.wait_on_event_id >= 0
                                   ? FenceOfEvent(sync.process, sync.args.wait_on_event_id)
                                   : 0);
    const uint64_t value = r ? r->value : 0;
    m_sink.Add(events::FenceWaitQueued{.ts_ns = queued_at,
                                       .queue_id = queue,
                                       .thread_id = call ? call->thread : 0,
                                       .fence_id = fence,
                                       .fence_value = value,
                                       .wait_id = op});
    m_sink.Add(
        events::FenceWaitUnblocked{.ts_ns = unblocked,
                                   .queue_id = queue,
                                   .fence_id = fence,
                                   .fence_value = value,
                                   .wait_id = op,
                                   .observed_ns = observed,  // when the stream reached the wait
                                   .released_by_signal_id = signalled ? r->signal_op : 0,
                                   .release_link = link,
                                   .wait_path = core::model::WaitPath::kGpuNative});
  }

  // The queue whose work a Context Sync waited for: the device's stream that finished last.
  QueueId LastToFinish(uint32_t device, TimeNs t) {
    if (m_device_queues.empty()) {
      for (const CudaPacket& p : m_c.packets) m_device_queues[p.process].push_back(p.queue);
      for (auto& [d, list] : m_device_queues) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
      }
    }
    QueueId best = 0;
    TimeNs best_at = 0;
    auto it = m_device_queues.find(device);
    if (it == m_device_queues.end()) return 0;
    for (QueueId q : it->second) {
      const StreamTiming::Completion c = m_timing->CompletedAfter(q, t);
      if (c.packet == kNone) continue;
      const TimeNs at = m_c.packets[c.packet].end;
      if (best == 0 || at > best_at) best = q, best_at = at;
    }
    return best;
  }

  void PlaceCpuWait(uint32_t s) {
    const CudaSync& sync = m_c.syncs[s];
    const CudaRuntimeCall* call = CallOf(s);
    if (!call) {
      ++m_n.syncs_without_call;
      return;
    }
    FenceId fence = 0;
    uint64_t value = 0;
    ReleaseLink link = ReleaseLink::kNotGiven;
    if (sync.kind == CudaSyncKind::kEventSync) {
      const uint32_t ri = m_sync_record[s];
      if (ri != kNone) {
        const Record& r = m_records[ri];
        fence = r.fence;
        value = r.value;
        link = LinkOf(s);
      } else if (sync.args.wait_on_event_id >= 0) {
        fence = FenceOfEvent(sync.process, sync.args.wait_on_event_id);
      }
    } else {
      const QueueId queue = sync.kind == CudaSyncKind::kStreamSync
                                ? WaitQueue(sync)
                                : LastToFinish(sync.process, call->ts);
      if (queue) {
        // The fence a Stream / Context Sync waits on: "<stream> synchronize", signalled once
        // per sync at the point the sync waited for.
        std::tie(fence, value) = m_sync_fences.Next(queue);
        TimeNs executed = WorkDoneAfter(queue, call->ts);
        if (executed > sync.end) {
          // The host returned from the sync before the GPU timestamps say the work ended: the
          // two clocks disagree; the release is the fact we keep.
          ++m_n.syncs_before_work_end;
          executed = sync.end;
        }
        AddQueueSignal(m_sink, queue, call->thread, fence, value, m_next_signal++, call->ts,
                       executed);
        // The stream is named by the sync (Context Sync: by the device); the work it waited for
        // follows from stream order.
        link = ReleaseLink::kFromCapture;
      }
    }
    if (link == ReleaseLink::kInferred) ++m_n.cpu_waits_inferred;
    const int64_t op = m_next_waiter++;
    m_sink.Add(events::CpuWaitBegin{.ts_ns = sync.ts,
                                    .thread_id = call->thread,
                                    .fence_id = fence,
                                    .fence_value = value,
                                    .waiter_id = op});
    m_sink.Add(events::CpuWaitReleased{.ts_ns = sync.end,
                                       .thread_id = call->thread,
                                       .fence_id = fence,
                                       .fence_value = value,
                                       .waiter_id = op,
                                       .observed_value = value,
                                       .release_link = link});
  }

  // Stream-wait calls that no synchronisation record names (traces from before Kineto wrote
  // cuda_sync events): the call names neither the waiting stream nor the event.
  void CountCallsWithoutSync() {
    std::unordered_set<int64_t> synced;
    for (const CudaSync& sync : m_c.syncs) synced.insert(sync.args.correlation);
    for (const auto& [correlation, call] : m_c.runtime_by_correlation) {
      if (call.stream_wait && !synced.count(correlation)) ++m_n.stream_wait_calls_without_sync;
    }
  }

  struct Launch {
    ThreadId thread = 0;
    TimeNs ts = 0;
    uint32_t packet = 0;
    bool operator<(const Launch& o) const {
      return std::tie(thread, ts, packet) < std::tie(o.thread, o.ts, o.packet);
    }
  };

  CudaCollected& m_c;
  RecordSink& m_sink;
  core::store::TraceWriter& m_writer;
  const QueueForStream& m_queue_for;
  const std::function<std::string(QueueId)>& m_queue_name;
  std::unique_ptr<StreamTiming> m_timing;
  std::vector<Record> m_records;  // the record calls by (thread, ts), then implied records
  size_t m_calls = 0;             // how many of m_records are calls
  std::unordered_map<int64_t, uint32_t> m_record_by_correlation;
  std::vector<Launch> m_launches;
  std::vector<const CudaRuntimeCall*> m_sync_calls;  // per sync
  std::vector<uint32_t> m_sync_order;
  std::vector<uint32_t> m_sync_record;  // per sync: index into m_records or kNone
  std::vector<uint32_t> m_candidate_records;  // scratch of ChooseAmongCandidates
  std::vector<RecordCandidate> m_candidates;
  std::vector<bool> m_sync_named;       // per sync: it named its record (correlation id)
  std::unordered_map<int64_t, uint32_t> m_latest_of_event;
  std::map<std::pair<uint32_t, int64_t>, FenceId> m_event_fences;
  SyncFences m_sync_fences{m_writer, m_queue_name};
  std::unordered_map<uint32_t, std::vector<QueueId>> m_device_queues;
  CudaSyncCounts m_n;
  int64_t& m_next_signal;
  int64_t& m_next_wait;
  int64_t& m_next_waiter;
};

}  // namespace

CudaSyncCounts MapCudaSynchronisation(CudaCollected& collected, RecordSink& sink,
                                      core::store::TraceWriter& writer,
                                      const QueueForStream& queue_for,
                                      const std::function<std::string(QueueId)>& queue_name,
                                      FenceOpIds& ids) {
  return Mapper(collected, sink, writer, queue_for, queue_name, ids).Run();
}

}  // namespace importers::cuda
