#include "core/replay/derived_program.h"

#include <algorithm>
#include <future>
#include <map>
#include <unordered_map>

#include "core/model/event_types.h"
#include "core/replay/api_call_name.h"
#include "core/replay/measured_latencies.h"
#include "core/replay/string_flags.h"
#include "core/replay/thread_calls.h"

namespace core::replay {

using analysis::kNoIndex;
using analysis::kUnknownTime;
using core::model::EngineType;
using core::model::FenceKind;
using core::model::QueueType;
using core::sim::Step;
using core::sim::StepOp;
namespace events = core::model::events;

namespace {

EngineType EngineTypeFor(QueueType type) {
  switch (type) {
    case QueueType::k3D: return EngineType::k3D;
    case QueueType::kCompute: return EngineType::kCompute;
    case QueueType::kCopy: return EngineType::kCopy;
    case QueueType::kVideo: return EngineType::kVideo;
    default: return EngineType::kOther;
  }
}

core::sim::FrameExpr Constant(uint64_t value) {
  core::sim::FrameExpr e;
  e.constant = static_cast<int64_t>(value);
  return e;
}

class Deriver {
 public:
  Deriver(const core::store::TraceStore& store, const analysis::Reconstruction& recon)
      : m_store(store), m_recon(recon) {}

  DerivedProgram Run() {
    m_out.origin = m_recon.start_ns;
    m_out.end = m_recon.end_ns;
    core::sim::Scenario& s = m_out.scenario;
    s.name = m_store.MetaOr("scenario", "replay");
    s.source = "replay of " + m_store.path.string();
    s.duration_ns = std::max<DurationNs>(1, m_out.end - m_out.origin);
    // The calls of each thread are gathered on a second core while the latencies, device syncs
    // and topology are measured on this one: both only read the trace (a third of a derivation
    // each; the opportunities wait for it before any replay can start).
    std::future<ThreadCalls> gathering =
        std::async(std::launch::async, [this] { return CollectThreadCalls(m_store, m_recon); });
    m_step_name_of.assign(m_store.strings.size(), kNoName);
    if (!m_store.strings.empty()) m_step_name_of[0] = 0;  // "" is the scenario's name 0 too
    AddAdapters();
    m_queue_latency = MeasureQueueLatencies(m_store, m_recon);
    FindDeviceSyncCalls();
    AddEnginesAndQueues();
    AddFences();
    ThreadCalls calls = gathering.get();
    for (size_t t = 1; t < calls.by_thread.size(); ++t) {
      const core::model::Thread& thread = m_store.threads[t - 1];
      AddThread(thread.name, calls.by_thread[t], static_cast<core::model::ThreadId>(t));
    }
    if (!calls.display.empty()) AddThread("(display)", calls.display, 0);
    for (size_t q = 1; q < calls.by_queue.size(); ++q) {
      if (calls.by_queue[q].empty()) continue;
      StandInLaunchTimes(calls.by_queue[q], static_cast<core::model::QueueId>(q));
      AddThread("(launches not in the trace) " + m_store.queues[q - 1].name, calls.by_queue[q], 0);
      for (const ThreadCall& c : calls.by_queue[q]) {
        if (c.origin == StepOrigin::kPacket) ++m_out.launches_not_in_trace;
      }
    }
    return std::move(m_out);
  }

 private:
  // Adapters of the trace, then a stand-in for queues and fences the trace gives none.
  void AddAdapters() {
    const std::vector<AdapterLatency> latency = MeasureAdapterLatencies(m_store, m_recon);
    const bool write_logs = HasLogs();
    for (size_t i = 0; i <= m_store.adapters.size(); ++i) {
      core::sim::AdapterSpec a;
      if (i < m_store.adapters.size()) {
        const core::model::Adapter& row = m_store.adapters[i];
        a.name = row.name;
        // Native unless its fences were run as monitored ones: fences of an imported GPU trace
        // (kind other) are waited on by the GPU itself.
        a.native_fences = row.native_fences || !HasMonitoredFences(row.id);
        a.optimized_interrupts = row.optimized_interrupts;
        a.preemption.graphics = row.preemption_graphics;
        a.preemption.compute = row.preemption_compute;
        m_out.adapter_ids.push_back(row.id);
      } else {
        a.name = "(no adapter in the trace)";
        m_out.adapter_ids.push_back(0);
      }
      // latency is by adapter id; the stand-in's is that of signals with no adapter (id 0).
      const AdapterLatency& latency_here = latency[i < m_store.adapters.size() ? i + 1 : 0];
      if (latency_here.wake_ns >= 0) a.interrupt_latency_ns = latency_here.wake_ns;
      if (latency_here.held_release_ns >= 0) a.held_wait_release_ns = latency_here.held_release_ns;
      if (latency_here.propagation_ns >= 0) a.propagation_ns = latency_here.propagation_ns;
      a.os_log_read_ns = 0;
      a.write_logs = write_logs;
      m_out.scenario.adapters.push_back(std::move(a));
    }
  }

  bool HasMonitoredFences(core::model::AdapterId adapter) const {
    for (const core::model::Fence& f : m_store.fences) {
      if (f.owner_adapter == adapter &&
          (f.kind == FenceKind::kMonitored || f.kind == FenceKind::kCrossAdapter)) {
        return true;
      }
    }
    return false;
  }

  bool HasLogs() const { return m_store.events.kind.Contains(core::model::EventKind::LogWrite); }

  uint32_t AdapterIndex(core::model::AdapterId id) const {
    return id >= 1 && id <= m_store.adapters.size() ? id - 1
                                                     : static_cast<uint32_t>(m_store.adapters.size());
  }

  // The trace's engines; a queue the trace gives no engine (a CUDA stream) runs on one of its
  // own, so that the queues of a device run side by side as they did. So does a software queue
  // (a GPU context's lane of an ETW capture): its packets are submissions whose hardware runs
  // are the DMA packets of the engine's own queue, not work of their own on the engine.
  void AddEnginesAndQueues() {
    core::sim::Scenario& s = m_out.scenario;
    for (const core::model::Engine& e : m_store.engines) {
      s.engines.push_back({e.name, AdapterIndex(e.adapter), e.type});
      m_out.engine_ids.push_back(e.id);
    }
    const std::vector<QueueLatency>& latency = m_queue_latency;
    for (const core::model::Queue& q : m_store.queues) {
      core::sim::QueueSpec spec;
      spec.name = q.name;
      spec.priority = q.priority;
      spec.launch_latency_ns = latency[q.id].launch_ns;
      spec.resume_ns = latency[q.id].resume_ns;
      if (q.engine >= 1 && q.engine <= m_store.engines.size() && q.type != QueueType::kSoftware) {
        spec.engine = q.engine - 1;
        spec.type = core::model::QueueTypeOf(s.engines[spec.engine].type);
      } else {
        spec.engine = static_cast<uint32_t>(s.engines.size());
        s.engines.push_back({q.name, AdapterIndex(q.adapter), EngineTypeFor(q.type)});
        m_out.engine_ids.push_back(0);
        spec.type = q.type;
      }
      s.queues.push_back(std::move(spec));
      m_out.queue_ids.push_back(q.id);
    }
  }

  // The adapters whose queues signal or wait on each fence, by fence id: where the trace
  // gives a fence no adapter (an imported CUDA event), it is opened where it is used.
  std::vector<std::vector<uint32_t>> AdaptersUsingFences() const {
    std::vector<std::vector<uint32_t>> out(m_store.fences.size() + 1);
    auto note = [&](core::model::FenceId fence, core::model::QueueId queue) {
      const core::model::Queue* q = m_store.FindQueue(queue);
      if (fence == 0 || fence >= out.size() || !q) return;
      const uint32_t a = AdapterIndex(q->adapter);
      auto& list = out[fence];
      if (std::find(list.begin(), list.end(), a) == list.end()) list.push_back(a);
    };
    for (const analysis::SignalBox& s : m_recon.signals) note(s.fence, s.queue);
    for (const analysis::WaitBox& w : m_recon.waits) note(w.fence, w.queue);
    return out;
  }

  void AddFences() {
    const auto used = AdaptersUsingFences();
    for (const core::model::Fence& f : m_store.fences) {
      core::sim::FenceSpec spec;
      spec.name = f.name;
      spec.kind = f.kind == FenceKind::kOther ? FenceKind::kNative : f.kind;
      if (f.owner_adapter != 0 || used[f.id].empty()) {
        spec.adapter = AdapterIndex(f.owner_adapter);
        for (uint32_t bit = 0; bit < 32; ++bit) {
          if ((f.adapter_mask & (1u << bit)) && bit + 1 != f.owner_adapter &&
              bit < m_store.adapters.size()) {
            spec.opened_on.push_back(bit);
          }
        }
      } else {
        spec.adapter = used[f.id].front();
        spec.opened_on.assign(used[f.id].begin() + 1, used[f.id].end());
      }
      spec.initial_value = f.initial_value;
      m_out.scenario.fences.push_back(std::move(spec));
      m_out.fence_ids.push_back(f.id);
    }
  }

  // The host calls that synchronise with a whole device, per thread: a CPU wait made inside one
  // waits for every queue of the device.
  void FindDeviceSyncCalls() {
    namespace events = core::model::events;
    m_device_sync_calls.resize(m_store.threads.size() + 1);
    const std::vector<bool> device_sync_name = FlagStrings(m_store, [](std::string_view text) {
      const std::string_view name = ApiCallName(text);
      return name == "cudaDeviceSynchronize" || name == "hipDeviceSynchronize" ||
             name == "cuCtxSynchronize";
    });
    m_store.events.kind.ForEachEqual(core::model::EventKind::CpuSlice, [&](size_t e) {
      const auto name = events::CpuSlice::name_sid_at(m_store.events, e);
      if (name >= device_sync_name.size() || !device_sync_name[name]) return;
      const auto slice = events::CpuSlice::At(m_store.events, e);
      if (slice.thread_id == 0 || slice.thread_id >= m_device_sync_calls.size()) return;
      m_device_sync_calls[slice.thread_id].push_back({slice.ts_ns, slice.ts_ns + slice.duration_ns});
    });
    // The queues of each adapter that ran anything, by scenario index, in order (each packet's
    // queue field read alone, each queue looked up once).
    std::vector<bool> ran(m_store.queues.size() + 1, false);
    for (size_t i = 0; i < m_recon.packets.size(); ++i) {
      const core::model::QueueId queue = m_recon.packets.Get<&analysis::Packet::queue>(i);
      if (queue < ran.size()) ran[queue] = true;
    }
    for (core::model::QueueId id = 1; id < ran.size(); ++id) {
      const core::model::Queue* q = m_store.FindQueue(id);
      if (ran[id] && q) m_device_queues[q->adapter].push_back(QueueIndex(id));
    }
  }

  bool InDeviceSync(core::model::ThreadId thread, TimeNs t) const {
    if (thread == 0 || thread >= m_device_sync_calls.size()) return false;
    for (const auto& [begin, end] : m_device_sync_calls[thread]) {
      if (t >= begin && t <= end) return true;
    }
    return false;
  }

  // The fence of the replay's own a device sync signals on `queue` (scenario index).
  uint32_t DeviceSyncFence(uint32_t queue) {
    auto [it, added] = m_device_sync_fences.try_emplace(queue, 0);
    if (added) {
      core::sim::FenceSpec spec;
      spec.name = "(device synchronize) " + m_out.scenario.queues[queue].name;
      spec.adapter = m_out.scenario.engines[m_out.scenario.queues[queue].engine].adapter;
      spec.kind = FenceKind::kNative;
      it->second = static_cast<uint32_t>(m_out.scenario.fences.size());
      m_out.scenario.fences.push_back(std::move(spec));
      m_out.fence_ids.push_back(0);
    }
    return it->second;
  }

  // A packet the trace gives no launch for is submitted by the stand-in its queue's launch
  // latency before it started, so that it starts when it did unless the replay holds it; one
  // that was queued behind the stand-in's packet before it on the queue (it started within
  // kQueuedBehindNs of its end) is submitted with that one, so that it follows it in the replay
  // as it did, sooner when that one ends sooner. The calls stay in their order.
  void StandInLaunchTimes(std::vector<ThreadCall>& calls, core::model::QueueId queue) const {
    // The packet that ran before each of the queue's packets, by start.
    std::unordered_map<uint32_t, uint32_t> before;
    uint32_t previous = kNoIndex;
    for (uint32_t index : m_recon.queues[queue].packets) {
      if (previous != kNoIndex) before.emplace(index, previous);
      previous = index;
    }
    const ThreadCall* last_packet = nullptr;  // the call just before, when it is a packet's
    for (ThreadCall& c : calls) {
      if (c.origin != StepOrigin::kPacket) {
        last_packet = nullptr;
        continue;
      }
      const analysis::Packet p = m_recon.packets[c.index];
      if (SubmittedAtStart(p)) {  // (the stand-in's packets have no thread)
        c.ts = p.start - m_queue_latency[p.queue].launch_ns;
        auto it = before.find(c.index);
        if (last_packet && it != before.end() && it->second == last_packet->index) {
          const TimeNs end = m_recon.packets.Get<&analysis::Packet::end>(it->second);
          if (end != kUnknownTime && p.start >= end && p.start - end <= kQueuedBehindNs) {
            c.ts = last_packet->ts;
          }
        }
      }
      last_packet = &c;
    }
    // Stable: a packet queued behind another keeps its place after it at the same time.
    std::stable_sort(calls.begin(), calls.end());
  }

  // The step name of a trace string, added to the scenario's names where first used.
  core::sim::StepName NameOf(core::model::StringId sid) {
    if (sid >= m_step_name_of.size()) return 0;
    core::sim::StepName& name = m_step_name_of[sid];
    if (name == kNoName) {
      name = static_cast<core::sim::StepName>(m_out.scenario.step_names.size());
      m_out.scenario.step_names.push_back(m_store.strings[sid]);
    }
    return name;
  }

  uint32_t QueueIndex(core::model::QueueId id) const { return id - 1; }
  uint32_t FenceIndex(core::model::FenceId id) const { return id - 1; }

  // A packet's GPU time in the replay: what it ran in the trace. A packet preempted in the
  // trace runs the time it was planned (when the trace says: a simulated one) or the sum of
  // its runs; one that never completed, what it was planned or what it ran until the end.
  DurationNs RunTime(const analysis::Packet& p, uint32_t index) const {
    if (p.preemptions > 0 && p.planned_ns > 0) return p.planned_ns;
    if (p.end != kUnknownTime && p.start != kUnknownTime && p.preemptions == 0) {
      return p.end - p.start;
    }
    if (p.segments > 0) {
      DurationNs sum = 0;
      const analysis::QueueTrack& track = m_recon.queues[p.queue];
      for (uint32_t k = 0; k < p.segments; ++k) {
        const analysis::RunSegment seg = track.segments[p.first_segment + k];
        if (seg.packet == index) sum += seg.end - seg.start;
      }
      if (p.end != kUnknownTime || p.planned_ns == 0) return sum;
    }
    return p.planned_ns;
  }

  void AddThread(const std::string& name, const std::vector<ThreadCall>& calls,
                 core::model::ThreadId id) {
    core::sim::ThreadSpec spec;
    spec.name = name;
    spec.frames = 1;
    spec.api_call_ns = 0;  // the CPU time between calls is measured, call by call
    std::vector<StepSource> sources;
    if (!calls.empty()) spec.start_ns = calls.front().ts - m_out.origin;
    TimeNs cursor = calls.empty() ? 0 : calls.front().ts;
    // At most a CPU gap and a step per call but for device syncs: reserved so that the steps
    // are not copied as the vector grows, which was most of the derivation.
    spec.steps.reserve(2 * calls.size());
    sources.reserve(2 * calls.size());
    auto add = [&](Step&& step, StepSource source) {
      spec.steps.push_back(std::move(step));
      sources.push_back(source);
    };
    for (size_t k = 0; k < calls.size(); ++k) {
      const ThreadCall& call = calls[k];
      m_later_calls = k + 1 < calls.size();
      if (call.ts > cursor) {
        Step work;
        work.op = StepOp::kCpuWork;
        work.duration_ns = call.ts - cursor;
        // A thread of the trace spends it; a stand-in (id 0) only waits for the trace's time.
        add(std::move(work), {id != 0 ? StepOrigin::kCpuWork : StepOrigin::kStandInGap, kNoIndex});
        cursor = call.ts;
      }
      cursor = std::max(cursor, AddCall(call, add));
    }
    m_out.scenario.threads.push_back(std::move(spec));
    m_out.sources.push_back(std::move(sources));
    m_out.thread_ids.push_back(id);
  }

  // Adds the steps of one call; returns when the thread went on after it in the trace.
  template <class Add>
  TimeNs AddCall(const ThreadCall& call, Add& add) {
    Step step;
    switch (call.origin) {
      case StepOrigin::kPacket: {
        const analysis::Packet p = m_recon.packets[call.index];
        step.op = StepOp::kExecute;
        step.queue = QueueIndex(p.queue);
        step.duration_ns = std::max<DurationNs>(0, RunTime(p, call.index));
        step.name = NameOf(p.name);
        step.packet_id = p.packet_id;
        step.present = (p.flags & core::model::kPacketPresent) != 0;
        step.paging = (p.flags & core::model::kPacketPaging) != 0;
        add(std::move(step), {call.origin, call.index});
        return call.ts;
      }
      case StepOrigin::kGpuSignal:
      case StepOrigin::kCpuSignal: {
        const analysis::SignalBox sig = m_recon.signals[call.index];
        if (sig.fence == 0) return call.ts;
        step.op = call.origin == StepOrigin::kGpuSignal ? StepOp::kSignal : StepOp::kCpuSignal;
        step.queue = sig.queue ? QueueIndex(sig.queue) : 0;
        step.fence = FenceIndex(sig.fence);
        step.value = Constant(sig.value);
        add(std::move(step), {call.origin, call.index});
        return call.ts;
      }
      case StepOrigin::kGpuWait: {
        const analysis::WaitBox w = m_recon.waits[call.index];
        step.queue = QueueIndex(w.queue);
        const core::model::Fence* fence = m_store.FindFence(w.fence);
        const bool met_at_start = fence && w.value <= fence->initial_value;
        if (w.signal == kNoIndex && w.unblocked != kUnknownTime && !met_at_start) {
          // Nothing in the trace reaches its value (nor did the fence start there), yet it was
          // released: the queue pauses for as long as it held it, from when it reached it.
          const TimeNs reached = w.observed != kUnknownTime ? w.observed : w.queued;
          step.op = StepOp::kGpuDelay;
          step.duration_ns = std::max<DurationNs>(0, w.unblocked - reached);
          ++m_out.fixed_delays.count;
          m_out.fixed_delays.total_ns += step.duration_ns;
          add(std::move(step), {StepOrigin::kFixedGpuDelay, call.index});
          return call.ts;
        }
        if (w.fence == 0) return call.ts;
        step.op = StepOp::kWait;
        step.fence = FenceIndex(w.fence);
        step.value = Constant(w.value);
        add(std::move(step), {call.origin, call.index});
        return call.ts;
      }
      case StepOrigin::kCpuWait: return AddCpuWait(call, add);
      case StepOrigin::kMarker: {
        const auto marker = events::Marker::At(m_store.events, call.index);
        step.op = StepOp::kMarker;
        step.name = NameOf(marker.name_sid);
        step.marker_type = marker.marker_type;
        step.marker_adapter = marker.adapter_id >= 1 && marker.adapter_id <= m_store.adapters.size()
                                  ? static_cast<int32_t>(marker.adapter_id - 1)
                                  : -1;
        add(std::move(step), {call.origin, call.index});
        return call.ts;
      }
      case StepOrigin::kSliceBegin:
      case StepOrigin::kSliceEnd: {
        const auto slice = events::CpuSlice::At(m_store.events, call.index);
        step.op = call.origin == StepOrigin::kSliceBegin ? StepOp::kSliceBegin : StepOp::kSliceEnd;
        step.name = NameOf(slice.name_sid);
        add(std::move(step), {call.origin, call.index});
        return call.ts;
      }
      default: return call.ts;
    }
  }

  // A CPU wait (its group, for WaitForMultipleObjects): a wait for the same fences and values,
  // released in the replay by whatever reaches them there; one the trace shows no signal for
  // is replayed as measured.
  template <class Add>
  TimeNs AddCpuWait(const ThreadCall& call, Add& add) {
    const analysis::CpuWait first = m_recon.cpu_waits[call.index];
    Step step;
    step.op = StepOp::kCpuWait;
    step.mode = static_cast<core::sim::WaitMode>(first.mode);
    std::vector<uint32_t> fences;
    std::vector<core::sim::FrameExpr> values;
    bool linked = false;
    TimeNs released = first.released;
    for (uint32_t i = call.index; i < m_recon.cpu_waits.size(); ++i) {
      const analysis::CpuWait w = m_recon.cpu_waits[i];
      if (i > call.index && (first.group == 0 || w.group != first.group || w.thread != first.thread ||
                             w.begin != first.begin)) {
        break;
      }
      if (w.fence != 0) {
        fences.push_back(FenceIndex(w.fence));
        values.push_back(Constant(w.value));
      }
      if (w.signal != kNoIndex) linked = true;
      if (w.released != kUnknownTime) released = w.released;
    }
    if (released == kUnknownTime && m_later_calls) {
      // The trace has no release, yet the thread went on to make more calls: the release is
      // missing from the capture. The time to the next call is the thread's, as for any call.
      ++m_out.cpu_waits_without_release;
      return call.ts;
    }
    if (!linked && released != kUnknownTime) {
      Step delay;
      delay.op = StepOp::kCpuWork;
      delay.duration_ns = std::max<DurationNs>(0, released - first.begin);
      ++m_out.fixed_delays.count;
      m_out.fixed_delays.total_ns += delay.duration_ns;
      add(std::move(delay), {StepOrigin::kFixedCpuDelay, call.index});
      return released;
    }
    // A device sync: a signal on every queue of the device that ran anything, and a wait for
    // them all (the importer tied it to the one stream whose work ended last in the capture).
    if (linked && first.signal != kNoIndex && InDeviceSync(first.thread, first.begin)) {
      const core::model::QueueId signalled =
          m_recon.signals.Get<&analysis::SignalBox::queue>(first.signal);
      const core::model::Queue* q = m_store.FindQueue(signalled);
      auto device = q ? m_device_queues.find(q->adapter) : m_device_queues.end();
      if (device != m_device_queues.end()) {
        fences.clear();
        values.clear();
        for (uint32_t queue : device->second) {
          Step signal;
          signal.op = StepOp::kSignal;
          signal.queue = queue;
          signal.fence = DeviceSyncFence(queue);
          signal.value = Constant(++m_device_sync_values[queue]);
          fences.push_back(signal.fence);
          values.push_back(signal.value);
          add(std::move(signal), {StepOrigin::kDeviceSyncSignal, call.index});
        }
        step.mode = core::sim::WaitMode::kAll;
        ++m_out.device_syncs;
      }
    }
    if (fences.empty()) return call.ts;
    if (fences.size() == 1) {
      step.fence = fences.front();
      step.value = values.front();
    }
    core::sim::StepDetail& wait = step.detail.edit();
    wait.fences = std::move(fences);
    wait.values = std::move(values);
    add(std::move(step), {StepOrigin::kCpuWait, call.index});
    return released != kUnknownTime ? released : call.ts;
  }

  const core::store::TraceStore& m_store;
  const analysis::Reconstruction& m_recon;
  std::vector<QueueLatency> m_queue_latency;  // [queue id]
  bool m_later_calls = false;  // the call being added is not its thread's last
  // Device syncs: the host calls per thread id, the queues per adapter id that ran anything,
  // the fence of the replay's own per queue and its last value.
  std::vector<std::vector<std::pair<TimeNs, TimeNs>>> m_device_sync_calls;
  std::map<core::model::AdapterId, std::vector<uint32_t>> m_device_queues;
  std::map<uint32_t, uint32_t> m_device_sync_fences;
  std::map<uint32_t, uint64_t> m_device_sync_values;
  // Per trace string, its step name (kNoName until a step uses it).
  static constexpr core::sim::StepName kNoName = ~core::sim::StepName{0};
  std::vector<core::sim::StepName> m_step_name_of;
  DerivedProgram m_out;
};

}  // namespace

DerivedProgram DeriveProgram(const core::store::TraceStore& store,
                             const analysis::Reconstruction& recon) {
  return Deriver(store, recon).Run();
}

}  // namespace core::replay
