#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "importers/vulkan/vk_record_format.h"
#include "importers/vulkan/vk_record_importer_state.h"

namespace importers::vulkan::detail {

// GPU times placed by a calibration are estimates (paired samples: within +-its deviation);
// the order the CPU saw is a fact. When the first pass places a batch before its submission or
// a host signal it waited for, or after a CPU wait its signal released returned, the times of
// that calibration are shifted (vk_record_clock.cpp) and the events built again.
void FileImporter::BuildEvents() {
  const EventsMark mark{m_events.size(), m_flows.size(), m_next_op, m_stats};
  EmitEvents();
  const size_t first_clock_problem = m_problems.size();
  if (KeepCausalOrder()) {
    std::vector<PendingProblem> clock(m_problems.begin() + first_clock_problem, m_problems.end());
    ResetEvents(mark);
    EmitEvents();
    m_problems.insert(m_problems.end(), clock.begin(), clock.end());
  }
  for (const PendingProblem& p : m_problems) {
    m_writer.CountProblem(p.name, p.severity, p.description);
  }
  m_problems.clear();
}

void FileImporter::ResetEvents(const EventsMark& mark) {
  m_events.resize(mark.events);
  m_flows.resize(mark.flows);
  m_next_op = mark.next_op;
  m_stats = mark.stats;
  for (auto& [handle, f] : m_fences) {
    f.signals.clear();
    f.count = 0;
  }
  for (auto& [handle, q] : m_queues) q.batches.clear();
  for (auto& [handle, d] : m_devices) d.have_offset = false, d.offset_ns = 0;
  m_submitted.clear();
  m_done_waits.clear();
  m_gpu_waits.clear();
  m_cpu_items.clear();
  m_idle_values.clear();
  m_idle_fences.clear();
  m_causal_bounds.clear();
  m_problems.clear();
}

void FileImporter::EmitEvents() {
  PlaceBatches();
  DescribeGpuClock();
  NameBatches();
  const std::vector<Op> ops = OrderOps();
  m_cpu_items.assign(m_done_waits.size(), {});
  m_batch_name = m_writer.Intern("vkQueueSubmit batch");
  m_batch2_name = m_writer.Intern("vkQueueSubmit2 batch");
  for (const Op& op : ops) {
    switch (op.kind) {
      case OpKind::kBatch:
        EmitBatch(*m_submitted[op.index]);
        break;
      case OpKind::kAcquire:
        EmitAcquire(m_acquires[op.index]);
        break;
      case OpKind::kHostSignal:
        EmitHostSignal(m_host_signals[op.index]);
        break;
      case OpKind::kCpuWait:
        GatherCpuWait(op.index);
        break;
    }
  }
  EmitQueueIdleSignals();
  EmitExecutedSignals();
  EmitGpuWaits();
  EmitCpuWaits();
  EmitPresents();
  EmitQueueLabelMarkers();
}

// GPU times of the batches, and per-queue order.
void FileImporter::PlaceBatches() {
  for (auto& [id, b] : m_batches) {
    if (!m_queues.count(b.record.queue) || b.record.cpu_ns == 0) continue;
    m_submitted.push_back(&b);
  }
  std::stable_sort(m_submitted.begin(), m_submitted.end(), [](const Batch* a, const Batch* b) {
    return a->record.cpu_ns < b->record.cpu_ns ||
           (a->record.cpu_ns == b->record.cpu_ns && a->record.batch_id < b->record.batch_id);
  });
  for (auto& [handle, device] : m_devices) {
    if (!device.calibrations.empty()) continue;
    // No calibration: the GPU clock is placed so that no batch starts before its submission.
    const double period =
        device.record.timestamp_period_ns > 0 ? device.record.timestamp_period_ns : 1.0;
    for (Batch* b : m_submitted) {
      if (!b->has_gpu || b->device != handle) continue;
      const double offset = double(b->record.cpu_ns) - double(b->start_ticks) * period;
      if (!device.have_offset || offset > device.offset_ns) device.offset_ns = offset;
      device.have_offset = true;
    }
    if (device.have_offset) {
      Problem("vulkan_uncalibrated_gpu_clock", Severity::kInfo,
              "the device has no VK_EXT_calibrated_timestamps: GPU times are placed so that no "
              "batch starts before its submission");
    }
  }
  for (Batch* b : m_submitted) {
    QueueState& q = m_queues[b->record.queue];
    q.batches.push_back(b->record.batch_id);
    b->ordinal = q.batches.size();
    if (b->has_gpu && m_devices.count(b->device)) {
      DeviceState& d = m_devices[b->device];
      b->gpu_start = GpuTime(d, b->start_ticks);
      b->gpu_end = std::max(b->gpu_start, GpuTime(d, b->end_ticks));
    }
  }
}

// Values of binary semaphores and VkFences follow the call order of everything that signals
// or waits on them: batches (at submission), acquires (at return), CPU waits (at entry).
std::vector<FileImporter::Op> FileImporter::OrderOps() {
  std::vector<Op> ops;
  for (size_t i = 0; i < m_submitted.size(); ++i) {
    ops.push_back(
        {m_submitted[i]->record.cpu_ns, OpKind::kBatch, i, m_submitted[i]->record.batch_id});
  }
  for (size_t i = 0; i < m_acquires.size(); ++i) {
    ops.push_back({m_acquires[i].record.end_cpu_ns, OpKind::kAcquire, i, 0});
  }
  for (size_t i = 0; i < m_host_signals.size(); ++i) {
    ops.push_back({m_host_signals[i].record.cpu_ns, OpKind::kHostSignal, i, 0});
  }
  for (auto& [group, w] : m_waits) {
    if (!w.done) continue;
    m_done_waits.push_back(&w);
    // A call waits for what was submitted when it began; polls for what was submitted by the
    // poll that found the object signalled.
    const uint64_t at = w.poll ? w.result.end_cpu_ns : w.result.begin_cpu_ns;
    ops.push_back({at, OpKind::kCpuWait, m_done_waits.size() - 1, group});
  }
  std::stable_sort(ops.begin(), ops.end(), [](const Op& a, const Op& b) {
    return a.time < b.time || (a.time == b.time && a.key < b.key);
  });
  return ops;
}

void FileImporter::EmitBatch(Batch& b) {
  QueueState& q = m_queues[b.record.queue];
  const ThreadId thread = Thread(b.tid);
  ++m_stats.batches;
  Emit(events::PacketSubmitted{.ts_ns = TimeNs(b.record.cpu_ns),
                               .queue_id = q.id,
                               .thread_id = thread,
                               .packet_id = int64_t(b.record.batch_id),
                               .name_sid = !b.name.empty()    ? m_writer.Intern(b.name)
                                           : b.record.submit2 ? m_batch2_name
                                                              : m_batch_name});
  if (b.has_gpu) {
    ++m_stats.timed_batches;
    m_causal_bounds.push_back({&b, false, TimeNs(b.record.cpu_ns)});
    Emit(events::PacketStarted{
        .ts_ns = b.gpu_start, .queue_id = q.id, .packet_id = int64_t(b.record.batch_id)});
    Emit(events::PacketCompleted{
        .ts_ns = b.gpu_end, .queue_id = q.id, .packet_id = int64_t(b.record.batch_id)});
  }
  for (const BatchSyncRecord& s : b.syncs) {
    const SyncRole role = SyncRole(s.role);
    FenceState& f =
        Fence(s.object, role == SyncRole::kFence ? SemaphoreKind::kFence : SemaphoreKind::kBinary);
    if (role == SyncRole::kWait) {
      const uint64_t value = f.kind == SemaphoreKind::kTimeline ? s.value : f.count;
      m_gpu_waits.push_back({&b, s.object, value});
      continue;
    }
    const uint64_t value = f.kind == SemaphoreKind::kTimeline ? s.value : ++f.count;
    const int64_t signal_id = m_next_op++;
    ++m_stats.gpu_signals;
    Emit(events::FenceSignalQueued{.ts_ns = TimeNs(b.record.cpu_ns),
                                   .queue_id = q.id,
                                   .thread_id = thread,
                                   .fence_id = f.id,
                                   .fence_value = value,
                                   .signal_id = signal_id});
    // Executed at the batch's GPU end; without timestamps, at its submission.
    const TimeNs executed = b.has_gpu ? b.gpu_end : TimeNs(b.record.cpu_ns);
    f.signals.push_back({value, executed, signal_id, SIZE_MAX, b.has_gpu ? &b : nullptr});
  }
}

void FileImporter::EmitAcquire(const Acquire& a) {
  ++m_stats.acquires;
  const ThreadId thread = Thread(a.tid);
  Emit(events::Marker{
      .ts_ns = TimeNs(a.record.end_cpu_ns),
      .thread_id = thread,
      .name_sid = m_writer.Intern(fmt::format("vkAcquireNextImageKHR swapchain {:#x} image {}",
                                              a.record.swapchain, a.record.image_index)),
      .marker_type = 0});
  if (a.record.result < 0) return;
  for (uint64_t handle : {a.record.semaphore, a.record.fence}) {
    if (!handle) continue;
    FenceState& f =
        Fence(handle, handle == a.record.fence ? SemaphoreKind::kFence : SemaphoreKind::kBinary);
    const uint64_t value = ++f.count;
    const int64_t signal_id = m_next_op++;
    ++m_stats.cpu_signals;
    const size_t event = Emit(events::FenceCpuSignal{.ts_ns = TimeNs(a.record.end_cpu_ns),
                                                     .thread_id = thread,
                                                     .fence_id = f.id,
                                                     .fence_value = value,
                                                     .signal_id = signal_id,
                                                     .previous_value = value - 1});
    f.signals.push_back({value, TimeNs(a.record.end_cpu_ns), signal_id, event});
  }
}

void FileImporter::EmitHostSignal(const HostSignal& h) {
  FenceState& f = Fence(h.record.semaphore, SemaphoreKind::kTimeline);
  const int64_t signal_id = m_next_op++;
  ++m_stats.cpu_signals;
  uint64_t previous = f.initial;
  for (const Signal& s : f.signals) {
    if (s.executed <= TimeNs(h.record.cpu_ns)) previous = std::max(previous, s.value);
  }
  const size_t event = Emit(events::FenceCpuSignal{.ts_ns = TimeNs(h.record.cpu_ns),
                                                   .thread_id = Thread(h.tid),
                                                   .fence_id = f.id,
                                                   .fence_value = h.record.value,
                                                   .signal_id = signal_id,
                                                   .previous_value = previous});
  f.signals.push_back({h.record.value, TimeNs(h.record.cpu_ns), signal_id, event, nullptr, true});
}

void FileImporter::GatherCpuWait(size_t index) {
  CpuWait& w = *m_done_waits[index];
  for (const CpuWaitItemRecord& item : w.items) {
    switch (CpuWaitObject(item.object_kind)) {
      case CpuWaitObject::kFence: {
        FenceState& f = Fence(item.object, SemaphoreKind::kFence);
        m_cpu_items[index].push_back({&w, item.object, f.count});
        break;
      }
      case CpuWaitObject::kSemaphore:
        Fence(item.object, SemaphoreKind::kTimeline);
        m_cpu_items[index].push_back({&w, item.object, item.value});
        break;
      case CpuWaitObject::kQueue:
      case CpuWaitObject::kDevice: {
        std::vector<uint64_t> queues;
        if (CpuWaitObject(item.object_kind) == CpuWaitObject::kQueue) {
          queues.push_back(item.object);
        } else if (m_devices.count(item.object)) {
          queues = m_devices[item.object].queues;
        }
        for (uint64_t queue : queues) {
          if (!m_queues.count(queue)) continue;
          QueueState& q = m_queues[queue];
          if (!q.idle_fence) {
            core::model::Fence info;
            info.name = fmt::format("{} (idle)",
                                    fmt::format("VkQueue {}.{}", q.record.family, q.record.index));
            info.kind = FenceKind::kOther;
            info.handle = int64_t(queue);
            q.idle_fence = m_writer.AddFence(info);
          }
          // Idle after the batches submitted so far.
          uint64_t submitted = 0;
          for (uint64_t id : q.batches) {
            if (m_batches[id].record.cpu_ns <= w.result.begin_cpu_ns) ++submitted;
          }
          m_idle_values[queue].push_back(submitted);
          m_cpu_items[index].push_back({&w, queue, submitted});
        }
        break;
      }
    }
  }
}

// Queue idle fences: a signal at the completion of each batch some idle wait waited for.
void FileImporter::EmitQueueIdleSignals() {
  for (auto& [queue, values] : m_idle_values) {
    QueueState& q = m_queues[queue];
    FenceState& f = m_idle_fences[queue];
    f.id = q.idle_fence;
    f.kind = SemaphoreKind::kTimeline;
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    uint64_t previous = 0;
    for (uint64_t value : values) {
      if (value == 0 || value > q.batches.size()) continue;
      Batch& b = m_batches[q.batches[value - 1]];
      const TimeNs executed = b.has_gpu ? b.gpu_end : TimeNs(b.record.cpu_ns);
      const int64_t signal_id = m_next_op++;
      Emit(events::FenceSignalQueued{.ts_ns = TimeNs(b.record.cpu_ns),
                                     .queue_id = q.id,
                                     .thread_id = Thread(b.tid),
                                     .fence_id = f.id,
                                     .fence_value = value,
                                     .signal_id = signal_id});
      const size_t event = Emit(events::FenceSignalExecuted{.ts_ns = executed,
                                                            .queue_id = q.id,
                                                            .fence_id = f.id,
                                                            .fence_value = value,
                                                            .signal_id = signal_id,
                                                            .previous_value = previous});
      previous = value;
      f.signals.push_back({value, executed, signal_id, event, b.has_gpu ? &b : nullptr});
    }
  }
}

// Executed GPU signals, with the value each fence held before.
void FileImporter::EmitExecutedSignals() {
  for (auto& [handle, f] : m_fences) {
    std::vector<Signal*> order;
    for (Signal& s : f.signals) order.push_back(&s);
    std::stable_sort(order.begin(), order.end(),
                     [](const Signal* a, const Signal* b) { return a->executed < b->executed; });
    uint64_t current = f.initial;
    for (Signal* s : order) {
      if (s->event == SIZE_MAX) {
        // A batch signal: find its queue through the queued record's signal id.
        s->event = Emit(events::FenceSignalExecuted{.ts_ns = s->executed,
                                                    .fence_id = f.id,
                                                    .fence_value = s->value,
                                                    .signal_id = s->signal_id,
                                                    .previous_value = current});
      }
      current = std::max(current, s->value);
    }
  }
  // The queue of each executed batch signal is the queue of its queued record.
  {
    std::unordered_map<uint64_t, QueueId> queue_of_signal;
    for (const Gathered& g : m_events) {
      if (g.record.kind == EventKind::FenceSignalQueued) {
        queue_of_signal[events::FenceSignalQueued::Of(g.record).signal_id] =
            events::FenceSignalQueued::Of(g.record).queue_id;
      }
    }
    for (Gathered& g : m_events) {
      if (g.record.kind != EventKind::FenceSignalExecuted) continue;
      auto e = events::FenceSignalExecuted::Of(g.record);
      if (e.queue_id == 0) {
        e.queue_id = queue_of_signal[e.signal_id];
        g.record = e.Record();
      }
    }
  }
}

// GPU waits: unblocked when the satisfying signal executed (not before the submission).
void FileImporter::EmitGpuWaits() {
  for (const GpuWait& gw : m_gpu_waits) {
    FenceState& f = m_fences[gw.fence];
    QueueState& q = m_queues[gw.batch->record.queue];
    const int64_t wait_id = m_next_op++;
    ++m_stats.gpu_waits;
    const TimeNs queued = TimeNs(gw.batch->record.cpu_ns);
    Emit(events::FenceWaitQueued{.ts_ns = queued,
                                 .queue_id = q.id,
                                 .thread_id = Thread(gw.batch->tid),
                                 .fence_id = f.id,
                                 .fence_value = gw.value,
                                 .wait_id = wait_id});
    const Signal* signal = SatisfyingSignal(f, gw.value);
    const bool at_once = gw.value <= f.initial && f.kind == SemaphoreKind::kTimeline;
    if (signal && signal->host && gw.batch->has_gpu) {
      m_causal_bounds.push_back({gw.batch, false, signal->executed});
    }
    if (signal || at_once) {
      const TimeNs unblocked = signal ? std::max(queued, signal->executed) : queued;
      const ReleaseLink link =
          f.kind == SemaphoreKind::kTimeline ? ReleaseLink::kFromCapture : ReleaseLink::kInferred;
      Emit(events::FenceWaitUnblocked{.ts_ns = unblocked,
                                      .queue_id = q.id,
                                      .fence_id = f.id,
                                      .fence_value = gw.value,
                                      .wait_id = wait_id,
                                      .observed_ns = unblocked,
                                      .released_by_signal_id = signal ? signal->signal_id : 0,
                                      .release_link = signal ? link : ReleaseLink::kNotGiven,
                                      .wait_path = WaitPath::kGpuNative});
    } else if (gw.batch->has_gpu) {
      // The batch ran, so something outside the capture satisfied the wait.
      Problem("vulkan_wait_signal_not_captured", Severity::kInfo,
              "a GPU wait whose signal the capture did not see (the batch ran)");
      Emit(events::FenceWaitUnblocked{.ts_ns = gw.batch->gpu_start,
                                      .queue_id = q.id,
                                      .fence_id = f.id,
                                      .fence_value = gw.value,
                                      .wait_id = wait_id,
                                      .observed_ns = gw.batch->gpu_start});
    }
  }
}

// CPU waits: begin at the call, released at its return, linked to the satisfying signal.
void FileImporter::EmitCpuWaits() {
  for (size_t i = 0; i < m_done_waits.size(); ++i) {
    CpuWait& w = *m_done_waits[i];
    const auto& items = m_cpu_items[i];
    if (items.empty()) continue;
    if (w.result.result != kVkSuccess) {
      Problem("vulkan_cpu_wait_not_satisfied", Severity::kInfo,
              "CPU wait calls that returned without the wait satisfied (a "
              "timeout or an error); not shown as waits");
      continue;
    }
    ++m_stats.cpu_waits;
    if (w.poll) ++m_stats.cpu_wait_polls;
    const ThreadId thread = Thread(w.tid);
    const int64_t group = m_next_op++;
    const uint32_t mode = items.size() <= 1 ? 0 : (w.result.wait_all ? 2 : 1);
    // For wait-any, the member whose signal executed first was released; the others withdrawn.
    size_t satisfied = SIZE_MAX;
    TimeNs satisfied_at = 0;
    std::vector<const Signal*> signals(items.size(), nullptr);
    // Queue and device idle waits wait on the queues' idle fences.
    const CpuWaitObject object = CpuWaitObject(w.items.front().object_kind);
    const bool idle = object == CpuWaitObject::kQueue || object == CpuWaitObject::kDevice;
    for (size_t k = 0; k < items.size(); ++k) {
      FenceState& f = WaitedFence(items[k].fence, idle);
      signals[k] = items[k].value == 0 ? nullptr : SatisfyingSignal(f, items[k].value);
      const TimeNs at = signals[k] ? signals[k]->executed : TimeNs(w.result.begin_cpu_ns);
      if (satisfied == SIZE_MAX || at < satisfied_at) satisfied = k, satisfied_at = at;
    }
    std::vector<int64_t> waiter_ids(items.size());
    for (size_t k = 0; k < items.size(); ++k) {
      FenceState& f = WaitedFence(items[k].fence, idle);
      waiter_ids[k] = m_next_op++;
      Emit(events::CpuWaitBegin{.ts_ns = TimeNs(w.result.begin_cpu_ns),
                                .thread_id = thread,
                                .fence_id = f.id,
                                .fence_value = items[k].value,
                                .waiter_id = waiter_ids[k],
                                .group_id = group,
                                .wait_mode = mode});
    }
    bool linked = false;
    for (size_t k = 0; k < items.size(); ++k) {
      FenceState& f = WaitedFence(items[k].fence, idle);
      const TimeNs end = TimeNs(w.result.end_cpu_ns);
      if (mode == 1 && k != satisfied) {
        Emit(events::CpuWaitWithdrawn{.ts_ns = end,
                                      .thread_id = thread,
                                      .fence_id = f.id,
                                      .fence_value = items[k].value,
                                      .waiter_id = waiter_ids[k],
                                      .group_id = group,
                                      .satisfied_waiter_id = waiter_ids[satisfied]});
        continue;
      }
      const Signal* s = signals[k];
      const ReleaseLink link = !s                                   ? ReleaseLink::kNotGiven
                               : f.kind == SemaphoreKind::kTimeline ? ReleaseLink::kFromCapture
                                                                    : ReleaseLink::kInferred;
      const size_t released =
          Emit(events::CpuWaitReleased{.ts_ns = end,
                                       .thread_id = thread,
                                       .fence_id = f.id,
                                       .fence_value = items[k].value,
                                       .waiter_id = waiter_ids[k],
                                       .observed_value = s ? s->value : items[k].value,
                                       .release_link = link});
      if (s && s->batch) m_causal_bounds.push_back({s->batch, true, end});
      if (s && s->event != SIZE_MAX) {
        m_flows.push_back({s->event, released});
        linked = true;
      }
    }
    if (linked) ++m_stats.cpu_waits_linked;
  }
}

// Presents: one marker per swapchain image presented.
void FileImporter::EmitPresents() {
  for (const Present& p : m_presents) {
    if (!m_queues.count(p.record.queue)) continue;
    QueueState& q = m_queues[p.record.queue];
    ++m_stats.presents;
    AdapterId adapter = 0;
    for (auto& [handle, d] : m_devices) {
      if (handle == q.record.device) adapter = d.adapter;
    }
    Emit(events::Marker{
        .ts_ns = TimeNs(p.record.cpu_ns),
        .queue_id = q.id,
        .thread_id = Thread(p.tid),
        .name_sid = m_writer.Intern(fmt::format("vkQueuePresentKHR swapchain {:#x} image {}",
                                                p.record.swapchain, p.record.image_index)),
        .adapter_id = adapter,
        .marker_type = 2});
  }
}

}  // namespace importers::vulkan::detail
