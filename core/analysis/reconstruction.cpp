// Reconstruct: one pass over the time-sorted events pairs records by their op ids into boxes;
// a second step links waits to signals and CPU waits to interrupts; a last step builds the
// per-track index lists; the plain vectors are then packed (reconstruction_tables.h).
#include "core/analysis/reconstruction.h"

#include <algorithm>
#include <array>
#include <map>
#include <type_traits>
#include <unordered_map>

#include "core/analysis/fence_signal_search.h"
#include "core/analysis/id_map.h"
#include "core/analysis/reconstruction_tables.h"
#include "core/model/event_types.h"

namespace core::analysis {
namespace {

// Index recorded for a non-zero operation id, or kNoIndex (id 0 means "no id").
template <typename Map>
uint32_t IndexOfId(const Map& by_id, int64_t id) {
  if (id == 0) return kNoIndex;
  const auto* index = by_id.Find(id);
  return index ? *index : kNoIndex;
}

using core::store::TraceStore;

class Builder {
 public:
  Builder(const TraceStore& store, Reconstruction& out) : m_store(store), m_out(out) {}

  void Run() {
    m_out.start_ns = m_store.start_ns();
    m_out.end_ns = m_store.end_ns();
    const auto& ev = m_store.events;
    Reserve();
    for (size_t i = 0; i < ev.size(); ++i) Record(static_cast<uint32_t>(i));
    CloseOpenSegments();
    LinkWaits();
    LinkCpuWaits();
    LinkInterrupts();
    BuildTrackLists(m_store, m_boxes, m_segments, m_missing, m_queues, m_threads, m_problems);
    m_out.problems = m_problems.Take();
    PackReconstruction(m_boxes, m_queues, m_threads, m_out);
  }

 private:
  void Record(uint32_t i) {
    const auto& ev = m_store.events;
    switch (ev.kind[i]) {
      case EventKind::PacketSubmitted:
        OnPacketSubmitted(events::PacketSubmitted::At(ev, i), i);
        break;
      case EventKind::PacketStarted:
        OnPacketRun(events::PacketStarted::At(ev, i), i);
        break;
      case EventKind::PacketResumed:
        OnPacketRun(events::PacketResumed::At(ev, i), i);
        break;
      case EventKind::PacketPreempted:
        OnPacketStop(events::PacketPreempted::At(ev, i), i);
        break;
      case EventKind::PacketCompleted:
        OnPacketStop(events::PacketCompleted::At(ev, i), i);
        break;
      case EventKind::FenceSignalQueued:
        OnSignalQueued(events::FenceSignalQueued::At(ev, i), i);
        break;
      case EventKind::FenceSignalExecuted:
        OnSignalExecuted(events::FenceSignalExecuted::At(ev, i), i);
        break;
      case EventKind::FenceCpuSignal:
        OnCpuSignal(events::FenceCpuSignal::At(ev, i), i);
        break;
      case EventKind::FenceRewind:
        OnRewind(events::FenceRewind::At(ev, i));
        break;
      case EventKind::FenceWaitQueued:
        OnWaitQueued(events::FenceWaitQueued::At(ev, i), i);
        break;
      case EventKind::FenceWaitUnblocked:
        OnWaitUnblocked(events::FenceWaitUnblocked::At(ev, i), i);
        break;
      case EventKind::CpuWaitBegin:
        OnCpuWaitBegin(events::CpuWaitBegin::At(ev, i), i);
        break;
      case EventKind::CpuWaitReleased:
        OnCpuWaitReleased(events::CpuWaitReleased::At(ev, i), i);
        break;
      case EventKind::CpuWaitWithdrawn:
        OnCpuWaitWithdrawn(events::CpuWaitWithdrawn::At(ev, i));
        break;
      case EventKind::WaitPendingAtEnd:
        OnWaitPending(events::WaitPendingAtEnd::At(ev, i));
        break;
      case EventKind::Interrupt:
        OnInterrupt(events::Interrupt::At(ev, i), i);
        break;
      case EventKind::LogOverrun:
        OnLogOverrun(events::LogOverrun::At(ev, i), i);
        break;
      case EventKind::TaskQueued:
        OnTaskQueued(events::TaskQueued::At(ev, i));
        break;
      case EventKind::TaskStarted:
        OnTaskStarted(events::TaskStarted::At(ev, i));
        break;
      case EventKind::TaskFinished:
        OnTaskEnded(events::TaskFinished::At(ev, i), TaskOutcome::kFinished, 0);
        break;
      case EventKind::TaskCancelled:
        OnTaskEnded(events::TaskCancelled::At(ev, i), TaskOutcome::kCancelled, 0);
        break;
      case EventKind::TaskAbandoned: {
        const auto e = events::TaskAbandoned::At(ev, i);
        OnTaskEnded(e, TaskOutcome::kAbandoned, e.pso_id);
        break;
      }
      case EventKind::ModeChanged:
        OnModeChanged(events::ModeChanged::At(ev, i));
        break;
      case EventKind::CommitCompleted:
        OnCommitCompleted(events::CommitCompleted::At(ev, i));
        break;
      case EventKind::PreemptionRequested:
        OnPreemptionRequested(events::PreemptionRequested::At(ev, i), i);
        break;
      case EventKind::PreemptionCompleted:
        OnPreemptionCompleted(events::PreemptionCompleted::At(ev, i), i);
        break;
      case EventKind::Tdr:
        OnTdr(events::Tdr::At(ev, i), i);
        break;
      default: break;
    }
  }

  // ---- packets ----
  uint32_t NewPacket(int64_t packet_id, QueueId queue) {
    Packet p;
    p.packet_id = packet_id;
    p.queue = queue;
    m_boxes.packets.push_back(p);
    m_open_segment.push_back(kNoIndex);
    auto index = static_cast<uint32_t>(m_boxes.packets.size() - 1);
    if (p.packet_id != 0) m_packet_by_id[p.packet_id] = index;
    return index;
  }

  // The packet a started, resumed, preempted or completed record names.
  template <class E>
  uint32_t FindPacket(const E& e, const char* problem, const char* description) {
    const uint32_t* known = m_packet_by_id.Find(e.packet_id);
    if (known && e.packet_id != 0) return *known;
    m_problems.Count(problem, description, e.ts_ns);
    return NewPacket(e.packet_id, e.queue_id);
  }

  void OnPacketSubmitted(const events::PacketSubmitted& e, uint32_t i) {
    const uint32_t* known = m_packet_by_id.Find(e.packet_id);
    uint32_t index;
    if (known && e.packet_id != 0 && m_boxes.packets[*known].submit == kUnknownTime) {
      index = *known;  // started before its submission record (imports)
    } else {
      if (known && e.packet_id != 0) {
        m_problems.Count("packet_id_reused", "packet_submitted with a packet id already used",
                         e.ts_ns);
      }
      index = NewPacket(e.packet_id, e.queue_id);
    }
    Packet& p = m_boxes.packets[index];
    p.submit = e.ts_ns;
    p.thread = e.thread_id;
    p.planned_ns = e.planned_duration_ns;
    p.context = e.context_id;
    p.name = e.name_sid;
    p.flags = e.packet_flags;
    p.submit_event = i;
  }

  // packet_started or packet_resumed.
  template <class E>
  void OnPacketRun(const E& e, uint32_t i) {
    constexpr bool resume = std::is_same_v<E, events::PacketResumed>;
    uint32_t index = FindPacket(e, "packet_started_without_submit",
                                "packet_started or packet_resumed with no packet_submitted");
    Packet& p = m_boxes.packets[index];
    if (p.queue == 0) p.queue = e.queue_id;
    if (!resume && p.start == kUnknownTime) {
      p.start = e.ts_ns;
      p.start_event = i;
    }
    if (m_open_segment[index] != kNoIndex) {
      m_problems.Count("packet_started_twice", "a packet started while already running", e.ts_ns);
      return;
    }
    RunSegment s;
    s.start = e.ts_ns;
    s.packet = index;
    s.resumed = resume;
    m_segments.push_back(s);
    m_open_segment[index] = static_cast<uint32_t>(m_segments.size() - 1);
  }

  // packet_preempted or packet_completed.
  template <class E>
  void OnPacketStop(const E& e, uint32_t i) {
    constexpr bool preempted = std::is_same_v<E, events::PacketPreempted>;
    uint32_t index = FindPacket(e, "packet_stopped_without_submit",
                                "packet_completed or packet_preempted with no packet_submitted");
    Packet& p = m_boxes.packets[index];
    if (p.queue == 0) p.queue = e.queue_id;
    if constexpr (preempted) {
      ++p.preemptions;
      const uint32_t marker = FindPreemption(e.preemption_id);
      if (marker != kNoIndex) m_boxes.preemptions[marker].preempted = e.ts_ns;
    } else {
      p.end = e.ts_ns;
      p.end_event = i;
    }
    uint32_t open = m_open_segment[index];
    if (open == kNoIndex) {
      if (!preempted) {
        m_problems.Count("packet_completed_without_start",
                         "packet_completed with no packet_started: its run time is unknown",
                         e.ts_ns);
      }
      return;
    }
    m_segments[open].end = e.ts_ns;
    m_segments[open].preempted = preempted;
    m_open_segment[index] = kNoIndex;
  }

  // ---- preemption and TDR (seed 004) ----
  uint32_t FindPreemption(int64_t id) const {
    return IndexOfId(m_preemption_by_id, id);
  }

  // The marker of a preemption_requested or preemption_completed record.
  template <class E>
  uint32_t PreemptionFor(const E& e) {
    uint32_t index = FindPreemption(e.preemption_id);
    if (index != kNoIndex) return index;
    PreemptionMarker m;
    m.preemption_id = e.preemption_id;
    m.queue = e.queue_id;
    m_boxes.preemptions.push_back(m);
    index = static_cast<uint32_t>(m_boxes.preemptions.size() - 1);
    if (m.preemption_id != 0) m_preemption_by_id[m.preemption_id] = index;
    return index;
  }

  uint32_t PacketById(int64_t id) const {
    return IndexOfId(m_packet_by_id, id);
  }

  void OnPreemptionRequested(const events::PreemptionRequested& e, uint32_t i) {
    PreemptionMarker& m = m_boxes.preemptions[PreemptionFor(e)];
    m.requested = e.ts_ns;
    m.packet = PacketById(e.packet_id);
    m.requesting_queue = e.requesting_queue_id;
    m.engine = e.engine_id;
    m.granularity = e.granularity;
    m.requested_event = i;
  }

  void OnPreemptionCompleted(const events::PreemptionCompleted& e, uint32_t i) {
    const uint32_t index = PreemptionFor(e);
    PreemptionMarker& m = m_boxes.preemptions[index];
    if (m.requested == kUnknownTime) {
      m_problems.Count("preemption_completed_without_request",
                       "preemption_completed with no preemption_requested", e.ts_ns);
    }
    m.completed = e.ts_ns;
    m.latency_ns = e.latency_ns;
    m.reached = e.granularity;
    if (m.packet == kNoIndex) m.packet = PacketById(e.packet_id);
    if (m.engine == 0) m.engine = e.engine_id;
    m.completed_event = i;
  }

  void OnTdr(const events::Tdr& e, uint32_t i) {
    TdrMarker t;
    t.ts = e.ts_ns;
    t.queue = e.queue_id;
    t.adapter = e.adapter_id;
    t.engine = e.engine_id;
    t.packets_lost = static_cast<uint64_t>(std::max<int64_t>(0, e.packets_lost));
    t.contexts_lost = e.contexts_lost;
    t.preemption_id = e.preemption_id;
    t.preemption = FindPreemption(t.preemption_id);
    t.event = i;
    m_boxes.tdrs.push_back(t);
    const auto tdr = static_cast<uint32_t>(m_boxes.tdrs.size() - 1);
    if (t.preemption == kNoIndex) {
      m_problems.Count("tdr_without_request",
                       "tdr with no preemption_requested (seed 004: one always comes first)",
                       t.ts);
      return;
    }
    PreemptionMarker& m = m_boxes.preemptions[t.preemption];
    m.tdr = tdr;
    // The hung packet's run ends at the reset; it never completes.
    if (m.packet == kNoIndex) return;
    m_boxes.packets[m.packet].lost = true;
    const uint32_t open = m_open_segment[m.packet];
    if (open != kNoIndex) {
      m_segments[open].end = t.ts;
      m_segments[open].reset = true;
      m_open_segment[m.packet] = kNoIndex;
    }
  }

  void CloseOpenSegments() {
    for (size_t p = 0; p < m_open_segment.size(); ++p) {
      if (m_open_segment[p] == kNoIndex) continue;
      RunSegment& s = m_segments[m_open_segment[p]];
      s.end = std::max(s.start, m_out.end_ns);
      s.open = true;
      m_problems.Count("packet_running_at_end", "a packet was still running when the trace ended",
                       s.start);
    }
  }

  // ---- signals ----
  // A signal box for a fence_signal_queued, fence_signal_executed or fence_cpu_signal record.
  template <class E>
  uint32_t NewSignal(const E& e) {
    SignalBox s;
    s.signal_id = e.signal_id;
    s.fence = e.fence_id;
    s.value = e.fence_value;
    m_boxes.signals.push_back(s);
    auto index = static_cast<uint32_t>(m_boxes.signals.size() - 1);
    if (s.signal_id != 0) m_signal_by_id[s.signal_id] = index;
    return index;
  }

  uint32_t FindSignal(int64_t id) const { return IndexOfId(m_signal_by_id, id); }

  void OnSignalQueued(const events::FenceSignalQueued& e, uint32_t i) {
    uint32_t index = FindSignal(e.signal_id);
    if (index == kNoIndex || m_boxes.signals[index].queued != kUnknownTime) index = NewSignal(e);
    SignalBox& s = m_boxes.signals[index];
    s.queue = e.queue_id;
    s.thread = e.thread_id;
    s.queued = e.ts_ns;
    s.queued_event = i;
  }

  void OnSignalExecuted(const events::FenceSignalExecuted& e, uint32_t i) {
    uint32_t index = FindSignal(e.signal_id);
    if (index == kNoIndex || m_boxes.signals[index].executed != kUnknownTime) {
      m_problems.Count("signal_executed_without_queued",
                       "fence_signal_executed with no fence_signal_queued", e.ts_ns);
      index = NewSignal(e);
    }
    SignalBox& s = m_boxes.signals[index];
    if (s.queue == 0) s.queue = e.queue_id;
    s.fence = e.fence_id;
    s.value = e.fence_value;
    s.executed = e.ts_ns;
    s.previous_value = e.previous_value;
    // seed 001: a fence may be rewound; a lower new value is a rewind.
    if (s.value < s.previous_value) s.rewind = true;
    s.executed_event = i;
    AddExecuted(index);
  }

  void OnCpuSignal(const events::FenceCpuSignal& e, uint32_t i) {
    uint32_t index = NewSignal(e);
    SignalBox& s = m_boxes.signals[index];
    s.cpu = true;
    s.thread = e.thread_id;
    s.queued = s.executed = e.ts_ns;
    s.previous_value = e.previous_value;
    if (s.value < s.previous_value) s.rewind = true;
    s.queued_event = s.executed_event = i;
    AddExecuted(index);
  }

  void OnRewind(const events::FenceRewind& e) {
    uint32_t index = FindSignal(e.signal_id);
    if (index == kNoIndex) return;
    SignalBox& s = m_boxes.signals[index];
    bool was_rewind = s.rewind;
    s.rewind = true;
    if (was_rewind || s.executed == kUnknownTime) return;
    // The rewind record came after the executed record: start a new run there.
    FenceSignals& fs = m_fence_signals[s.fence];
    if (fs.signal.empty() || fs.signal.back() != index) return;
    auto last = static_cast<uint32_t>(fs.signal.size() - 1);
    if (fs.run_starts.back() != last) {
      fs.run_starts.push_back(last);
      fs.run_max.back() = s.value;
    }
  }

  void AddExecuted(uint32_t index) {
    const SignalBox& s = m_boxes.signals[index];
    FenceSignals& fs = m_fence_signals[s.fence];
    bool starts_run = fs.signal.empty() || s.rewind;
    fs.signal.push_back(index);
    fs.executed.push_back(s.executed);
    if (starts_run) {
      fs.run_starts.push_back(static_cast<uint32_t>(fs.signal.size() - 1));
      fs.run_max.push_back(s.value);
    } else {
      fs.run_max.push_back(std::max(fs.run_max.back(), s.value));
    }
  }

  // ---- GPU waits ----
  // A wait box for a fence_wait_queued, fence_wait_unblocked or wait_pending_at_end record.
  template <class E>
  uint32_t NewWait(const E& e) {
    WaitBox w;
    w.wait_id = e.wait_id;
    w.fence = e.fence_id;
    w.value = e.fence_value;
    w.queue = e.queue_id;
    m_boxes.waits.push_back(w);
    m_wait_released_by.push_back(0);
    auto index = static_cast<uint32_t>(m_boxes.waits.size() - 1);
    if (w.wait_id != 0) m_wait_by_id[w.wait_id] = index;
    return index;
  }

  uint32_t FindWait(int64_t id) const { return IndexOfId(m_wait_by_id, id); }

  void OnWaitQueued(const events::FenceWaitQueued& e, uint32_t i) {
    uint32_t index = FindWait(e.wait_id);
    if (index == kNoIndex || m_boxes.waits[index].queued != kUnknownTime) index = NewWait(e);
    WaitBox& w = m_boxes.waits[index];
    w.thread = e.thread_id;
    w.queued = e.ts_ns;
    w.queued_event = i;
  }

  void OnWaitUnblocked(const events::FenceWaitUnblocked& e, uint32_t i) {
    uint32_t index = FindWait(e.wait_id);
    if (index == kNoIndex || m_boxes.waits[index].unblocked != kUnknownTime) {
      m_problems.Count("wait_unblocked_without_queued",
                       "fence_wait_unblocked with no fence_wait_queued", e.ts_ns);
      index = NewWait(e);
    }
    WaitBox& w = m_boxes.waits[index];
    if (w.queue == 0) w.queue = e.queue_id;
    w.unblocked = e.ts_ns;
    if (e.observed_ns != 0) w.observed = e.observed_ns;
    w.path = e.wait_path;
    w.unblocked_event = i;
    w.link_inferred = e.release_link == ReleaseLink::kInferred;
    m_wait_released_by[index] = e.released_by_signal_id;
  }

  // ---- CPU waits ----
  // A CPU wait box for a cpu_wait_begin, cpu_wait_released, cpu_wait_withdrawn or
  // wait_pending_at_end record (whose wait_id is then the waiter id).
  uint32_t NewCpuWait(int64_t waiter_id, ThreadId thread, FenceId fence, FenceValue value) {
    CpuWait w;
    w.waiter_id = waiter_id;
    w.thread = thread;
    w.fence = fence;
    w.value = value;
    m_boxes.cpu_waits.push_back(w);
    m_cpu_wait_interrupt_rowid.push_back(0);
    auto index = static_cast<uint32_t>(m_boxes.cpu_waits.size() - 1);
    if (w.waiter_id != 0) m_cpu_wait_by_id[w.waiter_id] = index;
    return index;
  }
  template <class E>
  uint32_t NewCpuWait(const E& e) {
    return NewCpuWait(e.waiter_id, e.thread_id, e.fence_id, e.fence_value);
  }

  uint32_t FindCpuWait(int64_t id) const { return IndexOfId(m_cpu_wait_by_id, id); }

  void OnCpuWaitBegin(const events::CpuWaitBegin& e, uint32_t i) {
    uint32_t index = FindCpuWait(e.waiter_id);
    if (index == kNoIndex || m_boxes.cpu_waits[index].begin != kUnknownTime) index = NewCpuWait(e);
    CpuWait& w = m_boxes.cpu_waits[index];
    w.begin = e.ts_ns;
    w.group = e.group_id;
    w.mode = static_cast<uint8_t>(e.wait_mode);
    w.begin_event = i;
  }

  void OnCpuWaitReleased(const events::CpuWaitReleased& e, uint32_t i) {
    uint32_t index = FindCpuWait(e.waiter_id);
    if (index == kNoIndex || m_boxes.cpu_waits[index].released != kUnknownTime) {
      m_problems.Count("cpu_wait_released_without_begin",
                       "cpu_wait_released with no cpu_wait_begin", e.ts_ns);
      index = NewCpuWait(e);
    }
    CpuWait& w = m_boxes.cpu_waits[index];
    w.released = e.ts_ns;
    w.observed_value = e.observed_value;
    w.released_event = i;
    w.link_inferred = e.release_link == ReleaseLink::kInferred;
    m_cpu_wait_interrupt_rowid[index] = e.interrupt_event;
  }

  void OnCpuWaitWithdrawn(const events::CpuWaitWithdrawn& e) {
    uint32_t index = FindCpuWait(e.waiter_id);
    if (index == kNoIndex) {
      m_problems.Count("cpu_wait_withdrawn_without_begin",
                       "cpu_wait_withdrawn with no cpu_wait_begin", e.ts_ns);
      index = NewCpuWait(e);
    }
    m_boxes.cpu_waits[index].withdrawn = e.ts_ns;
  }

  void OnWaitPending(const events::WaitPendingAtEnd& e) {
    if (e.queue_id != 0 || e.thread_id == 0) {
      uint32_t index = FindWait(e.wait_id);
      if (index == kNoIndex) {
        m_problems.Count("pending_wait_without_queued",
                         "wait_pending_at_end for a GPU wait with no fence_wait_queued", e.ts_ns);
        index = NewWait(e);
      }
      m_boxes.waits[index].pending_at_end = true;
      m_boxes.waits[index].value_at_end = e.current_value;
    } else {
      uint32_t index = FindCpuWait(e.wait_id);
      if (index == kNoIndex) {
        m_problems.Count("pending_cpu_wait_without_begin",
                         "wait_pending_at_end for a CPU wait with no cpu_wait_begin", e.ts_ns);
        index = NewCpuWait(e.wait_id, e.thread_id, e.fence_id, e.fence_value);
      }
      m_boxes.cpu_waits[index].pending_at_end = true;
      m_boxes.cpu_waits[index].value_at_end = e.current_value;
    }
  }

  // ---- interrupts and logs ----
  void OnInterrupt(const events::Interrupt& e, uint32_t i) {
    Interrupt x;
    x.ts = e.ts_ns;
    x.queue = e.queue_id;
    x.fence = e.fence_id;
    x.value = e.fence_value;
    x.signal_id = e.signal_id;
    x.adapter = e.adapter_id;
    x.waiters_released = static_cast<uint32_t>(std::max<int64_t>(0, e.waiters_released));
    x.fences_evaluated = static_cast<uint32_t>(std::max<int64_t>(0, e.fences_evaluated));
    x.flags = e.interrupt_flags;
    x.event = i;
    m_boxes.interrupts.push_back(x);
    m_interrupt_by_event[i] = static_cast<uint32_t>(m_boxes.interrupts.size() - 1);
  }

  void OnLogOverrun(const events::LogOverrun& e, uint32_t i) {
    MissingWindow w;
    w.queue = e.queue_id;
    w.end = e.ts_ns;
    w.start =
        e.missing_since_ns != 0 ? std::min<TimeNs>(e.missing_since_ns, w.end) : m_out.start_ns;
    w.entries_lost = static_cast<uint64_t>(std::max<int64_t>(0, e.entries_lost));
    w.log = static_cast<LogType>(e.log_type);
    w.event = i;
    m_missing.push_back(w);
  }

  // ---- background tasks and PGO passes ----
  uint32_t FindOrNewTask(int64_t task_id, TimeNs ts, bool expect_existing) {
    if (const uint32_t* known = m_task_by_id.Find(task_id)) return *known;
    if (expect_existing) {
      m_problems.Count("task_without_queued", "a background task record with no task_queued", ts);
    }
    BackgroundTask t;
    t.task_id = task_id;
    m_boxes.tasks.push_back(t);
    auto index = static_cast<uint32_t>(m_boxes.tasks.size() - 1);
    m_task_by_id[t.task_id] = index;
    return index;
  }

  void OnTaskQueued(const events::TaskQueued& e) {
    BackgroundTask& t = m_boxes.tasks[FindOrNewTask(e.task_id, e.ts_ns, false)];
    t.queued = e.ts_ns;
    t.queued_by = e.thread_id;
    t.pso = e.pso_id;
    t.variant = e.variant;
    t.commit = e.commit_id;
  }

  void OnTaskStarted(const events::TaskStarted& e) {
    BackgroundTask& t = m_boxes.tasks[FindOrNewTask(e.task_id, e.ts_ns, true)];
    t.started = e.ts_ns;
    t.thread = e.thread_id;
    t.priority = static_cast<uint8_t>(e.priority);
  }

  // task_finished, task_cancelled or task_abandoned (`pso`: the abandoned record's pso_id).
  template <class E>
  void OnTaskEnded(const E& e, TaskOutcome outcome, PsoId pso) {
    BackgroundTask& t = m_boxes.tasks[FindOrNewTask(e.task_id, e.ts_ns, true)];
    t.ended = e.ts_ns;
    t.outcome = outcome;
    if (outcome == TaskOutcome::kAbandoned && t.pso == 0) t.pso = pso;
  }

  void OnModeChanged(const events::ModeChanged& e) {
    ModeChange m;
    m.ts = e.ts_ns;
    m.thread = e.thread_id;
    m.call_id = e.call_id;
    m.result = static_cast<int64_t>(e.result);
    m.mode = e.mode;
    m.action = e.action;
    m.commit = e.commit_id;
    m.further_measurements_desired = e.further_measurements_desired != 0;
    m_boxes.mode_changes.push_back(m);
    if (m.commit != 0) m_mode_by_commit[m.commit] = m_boxes.mode_changes.size() - 1;
  }

  void OnCommitCompleted(const events::CommitCompleted& e) {
    const size_t* mode = m_mode_by_commit.Find(e.commit_id);
    if (!mode) {
      m_problems.Count("commit_without_mode_change",
                       "commit_completed with no mode_changed that started it", e.ts_ns);
      return;
    }
    m_boxes.mode_changes[*mode].commit_completed = e.ts_ns;
    m_boxes.mode_changes[*mode].commit_tasks = e.tasks;
  }

  // ---- linking ----
  uint32_t ByValue(FenceId fence, FenceValue value, TimeNs queued, TimeNs until) const {
    auto it = m_fence_signals.find(fence);
    if (it == m_fence_signals.end()) return kNoIndex;
    return FindReleasingSignal(it->second, value, queued, until);
  }

  void LinkWaits() {
    for (size_t w = 0; w < m_boxes.waits.size(); ++w) {
      WaitBox& box = m_boxes.waits[w];
      if (box.unblocked == kUnknownTime) continue;
      uint32_t explicit_signal = FindSignal(m_wait_released_by[w]);
      if (explicit_signal != kNoIndex) {
        box.signal = explicit_signal;
        box.link = SignalLink::kExplicit;
        continue;
      }
      if (m_wait_released_by[w] != 0) {
        m_problems.Count("wait_released_by_unknown_signal",
                         "released_by_signal_id names a signal with no record", box.unblocked);
      }
      box.signal = ByValue(box.fence, box.value, box.queued, box.unblocked);
      if (box.signal != kNoIndex) {
        box.link = SignalLink::kByValue;
      } else {
        m_problems.Count("wait_unlinked", "an unblocked GPU wait with no signal found reaching "
                         "its value", box.unblocked);
      }
    }
  }

  void LinkCpuWaits() {
    for (size_t w = 0; w < m_boxes.cpu_waits.size(); ++w) {
      CpuWait& box = m_boxes.cpu_waits[w];
      if (box.released == kUnknownTime) continue;
      int64_t rowid = m_cpu_wait_interrupt_rowid[w];
      if (rowid != 0) {
        size_t event = m_store.IndexOfRowId(rowid);
        const uint32_t* x =
            event != SIZE_MAX ? m_interrupt_by_event.Find(static_cast<uint32_t>(event)) : nullptr;
        if (x) {
          box.interrupt = *x;
          ++m_boxes.interrupts[*x].cpu_waits_linked;
        } else {
          m_problems.Count("cpu_wait_interrupt_missing",
                           "cpu_wait_released names an interrupt record that is not in the trace",
                           box.released);
        }
      }
      box.signal = ByValue(box.fence, box.value, box.begin, box.released);
      if (box.signal == kNoIndex) {
        m_problems.Count("cpu_wait_unlinked",
                         "a released CPU wait with no signal found reaching its value",
                         box.released);
      }
    }
  }

  void LinkInterrupts() {
    for (Interrupt& x : m_boxes.interrupts) {
      x.signal = FindSignal(x.signal_id);
      if (x.signal != kNoIndex) {
        ++m_boxes.signals[x.signal].interrupts;
      } else if (x.signal_id != 0) {
        m_problems.Count("interrupt_signal_missing",
                         "an interrupt names a signal with no record", x.ts);
      }
    }
    LinkHeldWaitsToInterrupts();
    for (Interrupt& x : m_boxes.interrupts) {
      bool fence_interrupt = x.Type() != InterruptType::kDmaCompletion;
      x.spurious = fence_interrupt && x.waiters_released == 0 && x.cpu_waits_linked == 0 &&
                   x.gpu_waits_linked == 0;
    }
  }

  // A GPU wait the OS held on the CPU is released through the interrupt its signal raised.
  void LinkHeldWaitsToInterrupts() {
    IdMap<uint32_t, uint32_t> first_interrupt;  // signal -> interrupt (by time)
    first_interrupt.Reserve(m_boxes.interrupts.size());
    for (uint32_t x = 0; x < m_boxes.interrupts.size(); ++x) {
      if (m_boxes.interrupts[x].signal != kNoIndex) {
        first_interrupt.TryEmplace(m_boxes.interrupts[x].signal, x);
      }
    }
    for (WaitBox& w : m_boxes.waits) {
      if (w.path == WaitPath::kGpuNative || w.signal == kNoIndex) continue;
      const uint32_t* first = first_interrupt.Find(w.signal);
      if (!first) continue;
      TimeNs ts = m_boxes.interrupts[*first].ts;
      // an interrupt before the queue reached the wait (FenceObservedGpuTimestamp, else the
      // queue time) did not release it: the wait was already satisfied when reached
      TimeNs reached = w.observed != kUnknownTime ? w.observed : w.queued;
      if (ts > w.unblocked || (reached != kUnknownTime && ts < reached)) continue;
      w.interrupt = *first;
      ++m_boxes.interrupts[*first].gpu_waits_linked;
    }
  }

  // Room for what the records will add (the maps would otherwise rehash as they grow).
  void Reserve() {
    std::array<size_t, 256> count{};
    for (EventKind kind : m_store.events.kind) ++count[static_cast<uint8_t>(kind)];
    auto of = [&](EventKind kind) { return count[static_cast<uint8_t>(kind)]; };
    const size_t packets = std::max(of(EventKind::PacketSubmitted), of(EventKind::PacketStarted));
    m_packet_by_id.Reserve(packets);
    m_boxes.packets.reserve(packets);
    m_open_segment.reserve(packets);
    const size_t signals = of(EventKind::FenceSignalQueued) + of(EventKind::FenceCpuSignal);
    m_signal_by_id.Reserve(signals);
    m_boxes.signals.reserve(signals);
    m_wait_by_id.Reserve(of(EventKind::FenceWaitQueued));
    m_boxes.waits.reserve(of(EventKind::FenceWaitQueued));
    m_cpu_wait_by_id.Reserve(of(EventKind::CpuWaitBegin));
    m_interrupt_by_event.Reserve(of(EventKind::Interrupt));
    m_boxes.cpu_waits.reserve(of(EventKind::CpuWaitBegin));
  }

  const TraceStore& m_store;
  Reconstruction& m_out;
  Boxes m_boxes;
  std::vector<PlainQueueTrack> m_queues;
  std::vector<PlainThreadTrack> m_threads;
  ProblemCounter m_problems;
  IdMap<int64_t, uint32_t> m_packet_by_id;
  std::vector<uint32_t> m_open_segment;  // [packet] -> index into m_segments, or kNoIndex
  std::vector<RunSegment> m_segments;
  IdMap<int64_t, uint32_t> m_signal_by_id;
  std::unordered_map<FenceId, FenceSignals> m_fence_signals;
  IdMap<int64_t, uint32_t> m_wait_by_id;
  std::vector<int64_t> m_wait_released_by;  // [wait] -> released_by_signal_id
  IdMap<int64_t, uint32_t> m_cpu_wait_by_id;
  std::vector<int64_t> m_cpu_wait_interrupt_rowid;  // [cpu wait] -> interrupt rowid
  IdMap<uint32_t, uint32_t> m_interrupt_by_event;
  std::vector<MissingWindow> m_missing;
  IdMap<int64_t, uint32_t> m_task_by_id;
  IdMap<int64_t, size_t> m_mode_by_commit;
  IdMap<int64_t, uint32_t> m_preemption_by_id;
};

}  // namespace

TimeNs WaitBox::Begin() const { return FirstKnown(queued, observed, unblocked); }

Reconstruction Reconstruct(const core::store::TraceStore& store) {
  Reconstruction out;
  Builder(store, out).Run();
  return out;
}

}  // namespace core::analysis
