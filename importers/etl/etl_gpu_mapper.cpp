#include "importers/etl/etl_gpu_mapper.h"

#include <algorithm>
#include <limits>
#include <tuple>

#include <fmt/format.h>

#include "importers/etl/etl_reader.h"

namespace importers::etl {

using namespace core::model;  // NOLINT: the model's vocabulary
using namespace core::store;  // NOLINT: TraceWriter and EventRecord

namespace {

// A SignalSynchronizationObject2 call belongs to the object-less signal packet its thread queued
// on the same context just before (checked on the sample: all 194 such packets are followed by
// their call within 1 ms on the same thread).
constexpr int64_t kSignalCallWindowNs = 1'000'000;

std::pair<uint64_t, uint64_t> Key(const SyncPair& p) { return {p.object, p.value}; }

// Text markers (marker_type 0) are the ones whose name_sid holds the index of their text in
// m_marker_texts until ResolveText interns it.
constexpr uint32_t kTextMarker = 0;

}  // namespace

EtlGpuMapper::EtlGpuMapper(core::store::TraceWriter& writer, int64_t perf_freq)
    : m_writer(writer), m_perf_freq(perf_freq) {}

void EtlGpuMapper::Prepare(const std::vector<TimedDxgEvent>& events) {
  // Submission-id range of each context that reached the hardware.
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> ranges;
  std::unordered_map<uint64_t, int64_t> first_seen;
  std::unordered_map<uint64_t, uint32_t> ordinals;  // hContext -> SelectContext NodeOrdinal
  for (const auto& e : events) {
    const DxgEvent& ev = e.event;
    switch (ev.type) {
      case DxgEventType::kDmaPacketStart: {
        auto [it, fresh] = ranges.try_emplace(ev.context, ev.submission_id, ev.submission_id);
        if (!fresh) {
          it->second.first = std::min(it->second.first, ev.submission_id);
          it->second.second = std::max(it->second.second, ev.submission_id);
        }
        break;
      }
      case DxgEventType::kQueuePacketStart:
      case DxgEventType::kWaitPacketStart:
      case DxgEventType::kSignalPacketStart: {
        auto it = first_seen.find(ev.context);
        if (it == first_seen.end() || e.ts_ns < it->second) {
          first_seen[ev.context] = e.ts_ns;
          m_context_pid[ev.context] = e.process_id;
        }
        break;
      }
      case DxgEventType::kSignalFromGpu:
      case DxgEventType::kWaitFromGpu:
      case DxgEventType::kWaitFromCpu:
      case DxgEventType::kUnwaitCpuWaiter:
        for (const auto& p : ev.objects) m_monitored[p.object] = true;
        break;
      case DxgEventType::kSelectContext:
        ordinals.try_emplace(ev.context, ev.node_ordinal);
        break;
      default:
        break;
    }
  }
  core::model::Adapter adapter;
  adapter.name = "GPU (DxgKrnl)";
  m_adapter = m_writer.AddAdapter(adapter);

  // uliSubmissionId is the node's own increasing fence: contexts on one node draw from one
  // sequence, so their id ranges interleave. Merge overlapping ranges into nodes. SelectContext
  // names the node ordinal of a context; on the gpuvis sample both groupings agree exactly.
  std::vector<std::pair<std::pair<uint64_t, uint64_t>, uint64_t>> sorted;
  for (const auto& [ctx, range] : ranges) sorted.push_back({range, ctx});
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::vector<uint64_t>> groups;
  uint64_t group_end = 0;
  for (const auto& [range, ctx] : sorted) {
    if (groups.empty() || range.first > group_end) {
      groups.emplace_back();
      group_end = range.second;
    }
    group_end = std::max(group_end, range.second);
    groups.back().push_back(ctx);
  }
  std::unordered_map<uint32_t, int> node_of_ordinal;
  for (const auto& group : groups) {
    std::vector<uint32_t> known;
    for (uint64_t ctx : group) {
      auto it = ordinals.find(ctx);
      if (it != ordinals.end() &&
          std::find(known.begin(), known.end(), it->second) == known.end()) {
        known.push_back(it->second);
      }
    }
    if (known.size() > 1) ++m_counts.node_ordinal_conflicts;
    const int index = static_cast<int>(m_nodes.size());
    Node node;
    core::model::Engine engine;
    engine.adapter = m_adapter;
    engine.type = EngineType::kOther;  // no Context/NodeMetadata events name the engine type
    if (known.empty()) {
      engine.ordinal = 1000 + static_cast<uint32_t>(index);  // no SelectContext: ordinal unknown
      engine.name = fmt::format("node #{} (ordinal unknown)", index);
    } else {
      engine.ordinal = known[0];
      engine.name = fmt::format("node {}", known[0]);
      node_of_ordinal.try_emplace(known[0], index);
      ++m_counts.nodes_with_ordinal;
    }
    node.engine = m_writer.AddEngine(engine);
    node.name = engine.name;
    core::model::Queue queue;
    queue.engine = node.engine;
    queue.adapter = m_adapter;
    queue.type = QueueType::kOther;
    queue.name = fmt::format("GPU {} (hardware queue)", engine.name);
    queue.sort_index = static_cast<int32_t>(engine.ordinal);
    node.queue = m_writer.AddQueue(queue);
    m_nodes.push_back(std::move(node));
    for (uint64_t ctx : group) m_context_node[ctx] = index;
  }
  // Contexts that never reached the hardware in the capture still belong to a node.
  for (const auto& [ctx, ordinal] : ordinals) {
    auto node = node_of_ordinal.find(ordinal);
    if (node != node_of_ordinal.end()) m_context_node.try_emplace(ctx, node->second);
  }
  m_counts.nodes = m_nodes.size();
  m_present_name = m_writer.Intern("Present");
}

uint32_t EtlGpuMapper::Process(uint32_t pid) {
  auto it = m_processes.find(pid);
  if (it != m_processes.end()) return it->second;
  core::model::Process info;
  info.pid = pid;
  auto named = m_process_names.find(pid);
  info.name = named != m_process_names.end() ? named->second
              : pid == 4                     ? std::string("System (pid 4)")
                                             : fmt::format("pid {}", pid);
  uint32_t id = m_writer.AddProcess(info);
  m_processes[pid] = id;
  return id;
}

std::string EtlGpuMapper::ProcessLabel(uint32_t pid) const {
  auto named = m_process_names.find(pid);
  if (named != m_process_names.end()) return fmt::format("{} (pid {})", named->second, pid);
  return pid == 4 ? std::string("System (pid 4)") : fmt::format("pid {}", pid);
}

uint32_t EtlGpuMapper::Thread(uint32_t pid, uint32_t tid) {
  const uint64_t key = (static_cast<uint64_t>(pid) << 32) | tid;
  auto it = m_threads.find(key);
  if (it != m_threads.end()) return it->second;
  core::model::Thread info;
  info.process = Process(pid);
  info.tid = tid;
  info.kind = pid == 4 ? ThreadKind::kOs : ThreadKind::kApplication;
  info.name = fmt::format("tid {}", tid);
  info.sort_index = static_cast<int32_t>(m_threads.size());
  uint32_t id = m_writer.AddThread(info);
  m_threads[key] = id;
  return id;
}

uint32_t EtlGpuMapper::PacketName(bool dma, uint32_t packet_type) {
  const uint64_t key = (static_cast<uint64_t>(dma) << 32) | packet_type;
  auto it = m_names.find(key);
  if (it != m_names.end()) return it->second;
  std::string_view type = QueuePacketTypeName(packet_type);
  std::string name = type.empty() ? fmt::format("packet type {}", packet_type) : std::string(type);
  uint32_t sid = m_writer.Intern(dma ? "DMA " + name : name);
  m_names[key] = sid;
  return sid;
}

EtlGpuMapper::Context& EtlGpuMapper::ContextFor(uint64_t handle, uint32_t pid) {
  auto it = m_contexts.find(handle);
  if (it != m_contexts.end()) return it->second;
  auto owner = m_context_pid.find(handle);
  const uint32_t owner_pid = owner != m_context_pid.end() ? owner->second : pid;
  const uint32_t process = Process(owner_pid);
  Context c;
  auto node = m_context_node.find(handle);
  c.node = node != m_context_node.end() ? node->second : -1;
  core::model::Queue queue;
  queue.engine = c.node >= 0 ? m_nodes[c.node].engine : 0;
  queue.adapter = m_adapter;
  queue.type = QueueType::kSoftware;
  queue.process = process;
  // GPUView's row name: the owning process first (what stays readable when the name is cut
  // off), then the node the context runs on, then the context.
  queue.name = c.node >= 0 ? fmt::format("{}: {} context 0x{:x}", ProcessLabel(owner_pid),
                                         m_nodes[c.node].name, handle)
                           : fmt::format("{}: context 0x{:x} (node unknown)",
                                         ProcessLabel(owner_pid), handle);
  queue.sort_index = static_cast<int32_t>(100 + m_contexts.size());
  c.queue = m_writer.AddQueue(queue);
  core::model::Context context;
  context.process = process;
  context.queue = c.queue;
  context.handle = static_cast<int64_t>(handle);
  context.name = fmt::format("context 0x{:x}", handle);
  c.context = m_writer.AddContext(context);
  return m_contexts.emplace(handle, c).first->second;
}

EtlGpuMapper::FenceState& EtlGpuMapper::Fence(uint64_t handle) {
  auto it = m_fences.find(handle);
  if (it != m_fences.end()) return it->second;
  core::model::Fence info;
  const bool monitored = m_monitored.count(handle) != 0;
  info.name = fmt::format("{} 0x{:x}", monitored ? "monitored fence" : "sync object", handle);
  info.kind = monitored ? FenceKind::kMonitored : FenceKind::kOther;
  info.owner_adapter = m_adapter;
  info.adapter_mask = 1u << (m_adapter - 1);
  info.handle = static_cast<int64_t>(handle);
  FenceState state;
  state.id = m_writer.AddFence(info);
  return m_fences.emplace(handle, state).first->second;
}

EtlGpuMapper::FenceOp& EtlGpuMapper::NewOp(OpKind kind, const SyncPair& pair, uint32_t queue,
                                           uint32_t thread) {
  FenceOp op;
  op.op = static_cast<int64_t>(m_ops.size() + 1);
  op.kind = kind;
  op.handle = pair.object;
  op.fence = Fence(pair.object).id;
  op.value = pair.value;
  op.queue = queue;
  op.thread = thread;
  op.queued_ts = m_now;
  m_ops.push_back(op);
  return m_ops.back();
}

void EtlGpuMapper::Map(const TimedDxgEvent& e) {
  m_now = e.ts_ns;
  switch (e.event.type) {
    case DxgEventType::kQueuePacketStart:
    case DxgEventType::kWaitPacketStart:
    case DxgEventType::kSignalPacketStart:
      OnQueuePacketStart(e);
      break;
    case DxgEventType::kQueuePacketStop: OnQueuePacketStop(e); break;
    case DxgEventType::kSignalSyncObject2: OnSignalCall(e); break;
    case DxgEventType::kSignalFromGpu: OnSignalFromGpu(e); break;
    case DxgEventType::kWaitSyncObject2:
    case DxgEventType::kWaitFromGpu:
      OnWaitCall(e);
      break;
    case DxgEventType::kUnwaitQueuePacket: OnUnwaitQueuePacket(e); break;
    case DxgEventType::kDmaPacketStart: OnDmaStart(e); break;
    case DxgEventType::kDmaPacketInfo: OnDmaInfo(e); break;
    case DxgEventType::kWaitFromCpu: OnCpuWait(e); break;
    case DxgEventType::kUnwaitCpuWaiter: OnCpuUnwait(e); break;
    case DxgEventType::kVSyncDpc: {
      auto [it, fresh] = m_vsync_names.try_emplace(e.event.vidpn_target, 0);
      if (fresh) it->second = m_writer.Intern(fmt::format("VSync (target {})", it->first));
      // The vsync happened at FrameQPCTime; the DPC reporting it runs a little later.
      Emit(events::Marker{
          .ts_ns = e.event.frame_qpc > 0 ? QpcToNs(e.event.frame_qpc, m_perf_freq) : e.ts_ns,
          .name_sid = it->second,
          .adapter_id = m_adapter,
          .marker_type = 1});  // vsync
      ++m_counts.vsyncs;
      break;
    }
    case DxgEventType::kPresent: {
      Emit(events::Marker{.ts_ns = e.ts_ns,
                          .thread_id = Thread(e.process_id, e.thread_id),
                          .name_sid = m_present_name,
                          .adapter_id = m_adapter,
                          .marker_type = 2});  // present
      ++m_counts.presents;
      break;
    }
    // Read and counted, with nothing of their own to show: QueuePacket Info (state changes),
    // DmaPacket Stop (the completion is the Info interrupt), VSyncInterrupt (the DPC is the marker).
    case DxgEventType::kQueuePacketInfo:
    case DxgEventType::kDmaPacketStop:
    case DxgEventType::kVSyncInterrupt:
    case DxgEventType::kSelectContext:
      break;
  }
}

void EtlGpuMapper::OnQueuePacketStart(const TimedDxgEvent& e) {
  const DxgEvent& ev = e.event;
  Context& c = ContextFor(ev.context, e.process_id);
  const uint32_t thread = Thread(e.process_id, e.thread_id);
  SwPacket p;
  p.op = m_next_packet++;
  p.queue = c.queue;
  p.ts = e.ts_ns;
  p.tid = e.thread_id;
  p.render = ev.type == DxgEventType::kQueuePacketStart;
  if (p.render) ++m_counts.render_packets;
  Emit(events::PacketSubmitted{
      .ts_ns = e.ts_ns,
      .queue_id = c.queue,
      .thread_id = thread,
      .packet_id = p.op,
      .context_id = c.context,
      .name_sid = PacketName(false, ev.packet_type),
      .fence_submission_id = ev.sequence,  // SubmitSequence: the context's own submission number
      .packet_flags = (ev.present ? kPacketPresent : 0) |
                      (ev.type == DxgEventType::kWaitPacketStart ? kPacketWait : 0) |
                      (ev.type == DxgEventType::kSignalPacketStart ? kPacketSignal : 0)});
  ++m_counts.queue_packets;
  const auto key = std::make_pair(ev.context, ev.sequence);
  if (ev.type == DxgEventType::kWaitPacketStart) {
    FenceOp& wait = NewOp(OpKind::kGpuWait, ev.objects[0], c.queue, thread);
    Emit(events::FenceWaitQueued{.ts_ns = e.ts_ns,
                                 .queue_id = wait.queue,
                                 .thread_id = thread,
                                 .fence_id = wait.fence,
                                 .fence_value = wait.value,
                                 .wait_id = wait.op});
    p.wait_op = wait.op;
    m_recent_waits[Key(ev.objects[0])].push_back({ev.context, wait.op});
    ++m_counts.waits_queued;
  }
  auto& stored = m_packets[key] = p;
  if (ev.type == DxgEventType::kSignalPacketStart) {
    for (const auto& pair : ev.objects) QueueSignal(e.ts_ns, &stored, c.queue, thread, pair);
    if (ev.objects.empty()) {
      stored.objects_pending = true;
      m_signal_without_objects[ev.context] = key;
    }
  }
  if (ev.queue_packet != 0) m_by_queue_packet[ev.queue_packet] = key;
}

void EtlGpuMapper::QueueSignal(int64_t ts, SwPacket* packet, uint32_t queue, uint32_t thread,
                               const SyncPair& pair) {
  FenceOp& op = NewOp(OpKind::kSignal, pair, queue, thread);
  Emit(events::FenceSignalQueued{.ts_ns = ts,
                                 .queue_id = op.queue,
                                 .thread_id = thread,
                                 .fence_id = op.fence,
                                 .fence_value = op.value,
                                 .signal_id = op.op});
  if (packet) packet->signal_ops.push_back(op.op);
  m_pending_signals[Key(pair)].push_back(op.op);
  ++m_counts.signals_queued;
}

void EtlGpuMapper::ExecuteSignal(int64_t ts, FenceOp& op) {
  if (op.done) return;
  op.done = true;
  op.executed_ts = ts;
  op.executed_record = m_records.size();
  FenceState& fence = Fence(op.handle);
  fence.writes.push_back(m_records.size());
  Emit(events::FenceSignalExecuted{.ts_ns = ts,
                                   .queue_id = op.queue,
                                   .fence_id = op.fence,
                                   .fence_value = op.value,
                                   .signal_id = op.op,
                                   .previous_value = fence.current});
  fence.current = op.value;
  fence.last_signal_op = op.op;
  auto it = m_pending_signals.find({op.handle, op.value});
  if (it != m_pending_signals.end()) {
    auto& ops = it->second;
    ops.erase(std::remove(ops.begin(), ops.end(), op.op), ops.end());
    if (ops.empty()) m_pending_signals.erase(it);
  }
  ++m_counts.signals_executed;
}

void EtlGpuMapper::UnblockWait(int64_t ts, FenceOp& wait) {
  if (wait.done) return;
  wait.done = true;
  FenceState& fence = Fence(wait.handle);
  int64_t released_by = 0;
  if (fence.last_signal_op != 0 && fence.current >= wait.value) {
    released_by = fence.last_signal_op;
  } else {
    // The release is the evidence that a signal queued earlier (whose execution has no event of
    // its own in the capture) has run: the earliest queued signal reaching the waited value.
    auto it = m_pending_signals.lower_bound({wait.handle, wait.value});
    if (it != m_pending_signals.end() && it->first.first == wait.handle && !it->second.empty()) {
      FenceOp& signal = m_ops[it->second.front() - 1];
      ExecuteSignal(ts, signal);
      ++m_counts.signals_inferred_from_unwait;
      released_by = signal.op;
    }
  }
  Emit(events::FenceWaitUnblocked{.ts_ns = ts,
                                  .queue_id = wait.queue,
                                  .fence_id = wait.fence,
                                  .fence_value = wait.value,
                                  .wait_id = wait.op,
                                  .released_by_signal_id = released_by,
                                  // WDDM 2.x: the OS holds GPU waits
                                  .wait_path = WaitPath::kCpuHeld});
  ++m_counts.waits_unblocked;
  if (released_by) ++m_counts.waits_linked_to_signal;
}

void EtlGpuMapper::OnQueuePacketStop(const TimedDxgEvent& e) {
  const DxgEvent& ev = e.event;
  auto it = m_packets.find({ev.context, ev.sequence});
  if (it == m_packets.end()) {
    ++m_counts.stop_without_start;
    return;
  }
  SwPacket& p = it->second;
  Emit(events::PacketCompleted{.ts_ns = e.ts_ns, .queue_id = p.queue, .packet_id = p.op});
  ++m_counts.queue_packets_completed;
  if (p.render) ++m_counts.render_packets_completed;
  if (!p.started) ++m_counts.completed_without_dma;
  for (int64_t op : p.signal_ops) ExecuteSignal(e.ts_ns, m_ops[op - 1]);
  if (p.wait_op && !m_ops[p.wait_op - 1].done) {
    UnblockWait(e.ts_ns, m_ops[p.wait_op - 1]);
    ++m_counts.waits_unblocked_at_retire;
  }
  if (p.objects_pending) m_signal_without_objects.erase(ev.context);
  m_packets.erase(it);
}

void EtlGpuMapper::OnSignalCall(const TimedDxgEvent& e) {
  const DxgEvent& ev = e.event;
  const uint32_t thread = Thread(e.process_id, e.thread_id);
  for (uint64_t ctx : ev.contexts) {
    auto pending = m_signal_without_objects.find(ctx);
    if (pending == m_signal_without_objects.end()) continue;
    auto packet = m_packets.find(pending->second);
    if (packet == m_packets.end()) continue;
    SwPacket& p = packet->second;
    if (p.tid != e.thread_id || e.ts_ns - p.ts > kSignalCallWindowNs) continue;
    p.objects_pending = false;
    m_signal_without_objects.erase(pending);
    for (const auto& pair : ev.objects) QueueSignal(p.ts, &p, p.queue, thread, pair);
    return;
  }
  // A call naming contexts whose signal packets (245 with objects) this thread has just queued is
  // the call behind those packets: nothing new. Otherwise its packets are not in the capture: the
  // signal is queued on the first context's software queue and executes when a SignalFromGpu or
  // a released wait shows it ran.
  const uint32_t queue = ev.contexts.empty() ? 0 : ContextFor(ev.contexts[0], e.process_id).queue;
  for (const auto& pair : ev.objects) {
    if (QueuedByThisThread(pair, thread, e.ts_ns)) {
      ++m_counts.signal_calls_merged;
    } else {
      QueueSignal(e.ts_ns, nullptr, queue, thread, pair);
    }
  }
}

// A signal of (object, value) this thread queued within kSignalCallWindowNs before `ts`, still
// waiting to execute: the call at `ts` is the one behind it, not a signal of its own.
bool EtlGpuMapper::QueuedByThisThread(const SyncPair& pair, uint32_t thread, int64_t ts) const {
  auto it = m_pending_signals.find(Key(pair));
  if (it == m_pending_signals.end()) return false;
  for (int64_t op : it->second) {
    const FenceOp& queued = m_ops[op - 1];
    if (queued.thread == thread && ts - queued.queued_ts <= kSignalCallWindowNs) return true;
  }
  return false;
}

// SignalSynchronizationObjectFromGpu (294) is the kernel call a user-mode driver makes to have a
// context signal a monitored fence: it is logged on the calling thread a few microseconds after
// the signal packet (245) it queues, while earlier packets of the context may still be running.
// It is when the signal was asked for, not when the GPU executed it (that is the signal packet's
// retirement). Taking it for the execution put signals before the packets queued ahead of them
// on their context (seed 001: a queue's Signal updates the fence only after the earlier work).
void EtlGpuMapper::OnSignalFromGpu(const TimedDxgEvent& e) {
  const DxgEvent& ev = e.event;
  const uint32_t thread = Thread(e.process_id, e.thread_id);
  for (const auto& pair : ev.objects) {
    if (QueuedByThisThread(pair, thread, e.ts_ns)) {
      ++m_counts.signal_from_gpu_calls_merged;
      continue;
    }
    // The call's signal packet is not in the capture: the signal is queued at the call and
    // executes when a wait's release shows it ran (UnblockWait), else never in the capture.
    const uint32_t queue = ev.contexts.empty() ? 0 : ContextFor(ev.contexts[0], e.process_id).queue;
    QueueSignal(e.ts_ns, nullptr, queue, thread, pair);
    ++m_counts.signals_from_gpu_without_packet;
  }
}

void EtlGpuMapper::OnWaitCall(const TimedDxgEvent& e) {
  const DxgEvent& ev = e.event;
  for (const auto& pair : ev.objects) {
    auto it = m_recent_waits.find(Key(pair));
    bool merged = false;
    if (it != m_recent_waits.end()) {
      auto& waits = it->second;
      auto w = std::find_if(waits.begin(), waits.end(),
                            [&](const auto& entry) { return entry.first == ev.context; });
      if (w != waits.end()) {
        waits.erase(w);
        if (waits.empty()) m_recent_waits.erase(it);
        merged = true;
      }
    }
    if (merged) {
      ++m_counts.wait_calls_merged;
    } else {
      ++m_counts.wait_calls_without_packet;
    }
  }
}

void EtlGpuMapper::OnUnwaitQueuePacket(const TimedDxgEvent& e) {
  auto key = m_by_queue_packet.find(e.event.queue_packet);
  if (key == m_by_queue_packet.end()) return;
  auto packet = m_packets.find(key->second);
  m_by_queue_packet.erase(key);
  if (packet == m_packets.end() || packet->second.wait_op == 0) return;
  UnblockWait(e.ts_ns, m_ops[packet->second.wait_op - 1]);
}

void EtlGpuMapper::StartNextDma(Node& node, int64_t ts) {
  if (!node.fifo.empty()) RunDma(node, node.fifo.front(), ts);
}

void EtlGpuMapper::RunDma(const Node& node, DmaPacket& dma, int64_t ts) {
  if (dma.started) return;
  dma.started = true;
  if (dma.resumes) {
    Emit(events::PacketResumed{.ts_ns = ts,
                               .queue_id = node.queue,
                               .packet_id = dma.op,
                               .fence_submission_id = static_cast<int64_t>(dma.submission_id)});
    return;
  }
  Emit(events::PacketStarted{
      .ts_ns = ts, .queue_id = node.queue, .packet_id = dma.op, .engine_id = node.engine});
}

void EtlGpuMapper::OnDmaStart(const TimedDxgEvent& e) {
  const DxgEvent& ev = e.event;
  Context& c = ContextFor(ev.context, e.process_id);
  if (c.node < 0) return;  // cannot happen: Prepare saw every DmaPacket Start
  Node& node = m_nodes[c.node];
  DmaPacket dma;
  dma.submission_id = ev.submission_id;
  const auto key = std::make_pair(ev.context, ev.sequence);
  auto preempted = m_preempted.find(key);
  if (preempted != m_preempted.end()) {
    // A preempted packet comes back under a new submission id with the same sequence.
    dma.op = preempted->second;
    dma.resumes = true;
    m_preempted.erase(preempted);
    ++m_counts.dma_resumed;
  } else {
    dma.op = m_next_packet++;
    events::PacketSubmitted r{.ts_ns = e.ts_ns,
                              .queue_id = node.queue,
                              .thread_id = Thread(e.process_id, e.thread_id),
                              .packet_id = dma.op,
                              .context_id = c.context,
                              .name_sid = PacketName(true, ev.packet_type),
                              // the node's scheduler fence id
                              .fence_submission_id = static_cast<int64_t>(ev.submission_id)};
    if (!m_dma_sequences.insert(key).second) r.packet_flags = kPacketResubmission;
    Emit(r);
    ++m_counts.dma_packets;
  }
  node.fifo.push_back(dma);
  StartNextDma(node, e.ts_ns);
  auto packet = m_packets.find({ev.context, ev.sequence});
  if (packet != m_packets.end()) {
    ++m_counts.dma_linked;
    SwPacket& p = packet->second;
    if (!p.started) {
      p.started = true;
      Emit(events::PacketStarted{
          .ts_ns = e.ts_ns, .queue_id = p.queue, .packet_id = p.op, .engine_id = node.engine});
    }
  }
}

void EtlGpuMapper::OnDmaInfo(const TimedDxgEvent& e) {
  const DxgEvent& ev = e.event;
  auto node_it = m_context_node.find(ev.context);
  if (node_it == m_context_node.end()) {
    ++m_counts.dma_info_without_start;
    return;
  }
  Node& node = m_nodes[node_it->second];
  if (ev.interrupt_type == 1) {  // DMA_COMPLETED: the interrupt that retires the packet
    Emit(
        events::Interrupt{.ts_ns = e.ts_ns,
                          .queue_id = node.queue,
                          .adapter_id = m_adapter,
                          .interrupt_flags = static_cast<uint32_t>(InterruptType::kDmaCompletion)});
  }
  auto it = std::find_if(node.fifo.begin(), node.fifo.end(), [&](const DmaPacket& d) {
    return d.submission_id == ev.submission_id;
  });
  if (it == node.fifo.end()) {
    ++m_counts.dma_info_without_start;
    return;
  }
  if (it != node.fifo.begin()) ++m_counts.dma_out_of_order;
  RunDma(node, *it, e.ts_ns);    // completing before reaching the head: it ran, briefly
  if (ev.interrupt_type == 2) {  // DMA_PREEMPTED: resubmitted later under a new submission id
    // Remaining work and granularity: not in the event.
    Emit(events::PacketPreempted{.ts_ns = e.ts_ns, .queue_id = node.queue, .packet_id = it->op});
    m_preempted[{ev.context, ev.sequence}] = it->op;
    ++m_counts.dma_preempted;
  } else {
    Emit(events::PacketCompleted{
        .ts_ns = e.ts_ns, .queue_id = node.queue, .packet_id = it->op, .engine_id = node.engine});
    ++m_counts.dma_completed;
  }
  node.fifo.erase(it);
  StartNextDma(node, e.ts_ns);
}

void EtlGpuMapper::OnCpuWait(const TimedDxgEvent& e) {
  const DxgEvent& ev = e.event;
  const uint32_t thread = Thread(e.process_id, e.thread_id);
  const int64_t group = ++m_cpu_wait_calls;
  for (const auto& pair : ev.objects) {
    FenceOp& op = NewOp(OpKind::kCpuWait, pair, 0, thread);
    Emit(events::CpuWaitBegin{.ts_ns = e.ts_ns,
                              .thread_id = thread,
                              .fence_id = op.fence,
                              .fence_value = op.value,
                              .waiter_id = op.op,
                              .group_id = group,
                              // several objects: wait for all
                              .wait_mode = ev.objects.size() > 1 ? 2u : 0u});
    m_pending_cpu_waits[Key(pair)].push_back(op.op);
    ++m_counts.cpu_waits;
  }
}

void EtlGpuMapper::OnCpuUnwait(const TimedDxgEvent& e) {
  for (const auto& pair : e.event.objects) {
    auto it = m_pending_cpu_waits.find(Key(pair));
    if (it == m_pending_cpu_waits.end() || it->second.empty()) {
      ++m_counts.cpu_unwaits_without_wait;  // the waiter began before the capture
      continue;
    }
    FenceOp& op = m_ops[it->second.front() - 1];
    it->second.pop_front();
    if (it->second.empty()) m_pending_cpu_waits.erase(it);
    op.done = true;
    Emit(events::CpuWaitReleased{.ts_ns = e.ts_ns,
                                 .thread_id = op.thread,
                                 .fence_id = op.fence,
                                 .fence_value = op.value,
                                 .waiter_id = op.op,
                                 .observed_value = pair.value});
    ++m_counts.cpu_waits_released;
  }
}

void EtlGpuMapper::AddTextMarker(int64_t ts_ns, uint32_t pid, uint32_t tid, std::string_view text) {
  const ThreadId thread = Thread(pid, tid);
  m_marker_texts.push_back(text);
  Emit(events::Marker{.ts_ns = ts_ns,
                      .thread_id = thread,
                      .name_sid = static_cast<StringId>(m_marker_texts.size() - 1),
                      .marker_type = kTextMarker});
}

void EtlGpuMapper::ResolveText(EventRecord& record) {
  if (record.kind != EventKind::Marker) return;
  auto marker = events::Marker::Of(record);
  if (marker.marker_type != kTextMarker) return;
  marker.name_sid = m_writer.Intern(m_marker_texts[marker.name_sid]);
  record = marker.Record();
}

void EtlGpuMapper::InferSignalsSkippedInQueueOrder() {
  // seed 001: a queue Signal updates the fence only after all earlier work on that queue has
  // completed. So a signal with no execution event, on a queue where signals queued after it
  // executed, executed no later than the first of those: it is placed there, just before that
  // execution's record (the stable sort by time keeps it first), and counted as inferred.
  struct Placed {
    size_t before = 0;  // index in m_records it goes in front of
    core::store::EventRecord record;
  };
  // Which execution bounds each such signal: one pass from the last op back.
  std::vector<std::pair<FenceOp*, const FenceOp*>> skipped;  // (signal, first later execution)
  std::unordered_map<uint32_t, const FenceOp*> first_later;  // queue -> earliest later execution
  auto earlier = [](const FenceOp& a, const FenceOp& b) {
    return std::tie(a.executed_ts, a.executed_record) < std::tie(b.executed_ts, b.executed_record);
  };
  for (auto it = m_ops.rbegin(); it != m_ops.rend(); ++it) {  // ops are in queued order
    FenceOp& op = *it;
    if (op.kind != OpKind::kSignal || op.queue == 0) continue;
    if (op.done) {
      auto [slot, added] = first_later.try_emplace(op.queue, &op);
      if (!added && earlier(op, *slot->second)) slot->second = &op;
      continue;
    }
    auto later = first_later.find(op.queue);
    if (later != first_later.end()) skipped.push_back({&op, later->second});
  }
  // Then in queued order, so that signals placed at the same spot keep it and each write
  // finds the value of the one before.
  std::vector<Placed> placed;
  for (auto it = skipped.rbegin(); it != skipped.rend(); ++it) {
    FenceOp& op = *it->first;
    const FenceOp& next = *it->second;
    FenceState& fence = Fence(op.handle);
    // The fence's value just before: what its first write from there on found, else its value
    // at the end. That write now finds this signal's value instead.
    uint64_t previous = fence.current;
    auto write = std::lower_bound(fence.writes.begin(), fence.writes.end(), next.executed_record);
    if (write != fence.writes.end()) {
      auto after = events::FenceSignalExecuted::Of(m_records[*write]);
      previous = after.previous_value;
      after.previous_value = op.value;
      m_records[*write] = after.Record();
    } else {
      fence.current = op.value;
      fence.last_signal_op = op.op;
    }
    op.done = true;
    op.executed_ts = next.executed_ts;
    placed.push_back({next.executed_record,
                      events::FenceSignalExecuted{.ts_ns = next.executed_ts,
                                                  .queue_id = op.queue,
                                                  .fence_id = op.fence,
                                                  .fence_value = op.value,
                                                  .signal_id = op.op,
                                                  .previous_value = previous}
                          .Record()});
    ++m_counts.signals_executed_by_queue_order;
  }
  if (placed.empty()) return;
  // One merge instead of an insertion per signal (a hostile file may hold many).
  std::stable_sort(placed.begin(), placed.end(),
                   [](const Placed& a, const Placed& b) { return a.before < b.before; });
  std::vector<core::store::EventRecord> merged;
  merged.reserve(m_records.size() + placed.size());
  size_t next_placed = 0;
  for (size_t i = 0; i < m_records.size(); ++i) {
    while (next_placed < placed.size() && placed[next_placed].before == i) {
      merged.push_back(placed[next_placed++].record);
    }
    merged.push_back(m_records[i]);
  }
  m_records = std::move(merged);
  // m_records indices kept so far (executed_record, writes) are stale from here on; nothing
  // after Finish reads them.
}

void EtlGpuMapper::Finish(int64_t end_ns) {
  InferSignalsSkippedInQueueOrder();
  for (FenceOp& op : m_ops) {
    if (op.done) continue;
    if (op.kind == OpKind::kSignal) {
      ++m_counts.signals_never_executed;
      continue;
    }
    Emit(events::WaitPendingAtEnd{
        .ts_ns = end_ns,
        .queue_id = op.queue,
        .thread_id = op.kind == OpKind::kCpuWait ? op.thread : 0,  // a GPU wait names its queue
        .fence_id = op.fence,
        .fence_value = op.value,
        .wait_id = op.op,
        .current_value = Fence(op.handle).current});
    ++m_counts.waits_pending_at_end;
  }
}

}  // namespace importers::etl
