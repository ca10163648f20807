#include "importers/vulkan/layer/capture_timing.h"

#include "importers/vulkan/layer/capture_recorder.h"

namespace fencescope_layer {

void Calibrate(DeviceData& d, bool force) {
  if (!d.calibrated || !d.GetCalibratedTimestampsEXT) return;
  const uint64_t now = NowNs();
  uint64_t last = d.last_calibration_ns.load(std::memory_order_relaxed);
  if (!force && now - last < 1000000000ull) return;
  if (!d.last_calibration_ns.compare_exchange_strong(last, now)) return;
  VkCalibratedTimestampInfoEXT infos[2] = {
      {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr, VK_TIME_DOMAIN_DEVICE_EXT},
      {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr,
       VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
  uint64_t values[2] = {};
  uint64_t deviation = 0;
  if (d.GetCalibratedTimestampsEXT(d.device, 2, infos, values, &deviation) == VK_SUCCESS) {
    Out().Write(RecordType::kCalibration,
                CalibrationRecord{H(d.device), values[0], values[1], deviation});
  }
}

void SetupQueue(DeviceData& d, QueueState& q) {
  q.ready = true;
  if (q.family >= d.families.size() || d.families[q.family].timestampValidBits == 0) return;
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0,
                                    q.family};
  if (d.CreateCommandPool(d.device, &pool_info, nullptr, &q.pool) != VK_SUCCESS) return;
  VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                   nullptr,
                                   0,
                                   VK_QUERY_TYPE_TIMESTAMP,
                                   QueueState::kSlots * 2,
                                   0};
  if (d.CreateQueryPool(d.device, &query_info, nullptr, &q.queries) != VK_SUCCESS) return;
  std::vector<VkCommandBuffer> buffers(QueueState::kSlots * 2);
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, q.pool,
                                    VK_COMMAND_BUFFER_LEVEL_PRIMARY, uint32_t(buffers.size())};
  if (d.AllocateCommandBuffers(d.device, &alloc, buffers.data()) != VK_SUCCESS) return;
  q.slots.resize(QueueState::kSlots);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, 0, nullptr};
  for (uint32_t i = 0; i < QueueState::kSlots; ++i) {
    for (int which = 0; which < 2; ++which) {
      VkCommandBuffer cb = buffers[i * 2 + which];
      // Command buffers made by a layer carry the loader's dispatch pointer like the device's.
      if (d.set_loader_data) d.set_loader_data(d.device, cb);
      d.BeginCommandBuffer(cb, &begin);
      if (which == 0) {
        d.CmdResetQueryPool(cb, q.queries, i * 2, 2);
        d.CmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, q.queries, i * 2);
        q.slots[i].begin = cb;
      } else {
        d.CmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, q.queries, i * 2 + 1);
        q.slots[i].end = cb;
      }
      d.EndCommandBuffer(cb);
    }
  }
  q.timed = true;
}

QueueState* QueueOf(DeviceData& d, VkQueue queue) {
  std::lock_guard lock(d.queues_mutex);
  auto it = d.queues.find(queue);
  return it == d.queues.end() ? nullptr : it->second.get();
}

void Collect(DeviceData& d, QueueState& q, bool wait) {
  while (q.timed && q.oldest != q.next) {
    QueueState::Slot& slot = q.slots[q.oldest];
    uint64_t ticks[2] = {};
    VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | (wait ? VK_QUERY_RESULT_WAIT_BIT : 0);
    const VkResult r = d.GetQueryPoolResults(d.device, q.queries, q.oldest * 2, 2, sizeof ticks,
                                             ticks, sizeof(uint64_t), flags);
    if (r == VK_NOT_READY) return;
    if (r == VK_SUCCESS) {
      Out().Write(RecordType::kBatchGpu,
                  BatchGpuRecord{slot.batch_id, H(d.device), ticks[0], ticks[1]});
    }
    slot.batch_id = 0;
    q.oldest = (q.oldest + 1) % QueueState::kSlots;
  }
}

QueueState::Slot* TakeSlot(DeviceData& d, QueueState& q, uint64_t batch_id) {
  if (!q.timed) return nullptr;
  if ((q.next + 1) % QueueState::kSlots == q.oldest) {
    QueueState::Slot& slot = q.slots[q.oldest];
    uint64_t ticks[2] = {};
    if (d.GetQueryPoolResults(d.device, q.queries, q.oldest * 2, 2, sizeof ticks, ticks,
                              sizeof(uint64_t),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS) {
      Out().Write(RecordType::kBatchGpu,
                  BatchGpuRecord{slot.batch_id, H(d.device), ticks[0], ticks[1]});
    }
    q.oldest = (q.oldest + 1) % QueueState::kSlots;
  }
  QueueState::Slot* slot = &q.slots[q.next];
  slot->batch_id = batch_id;
  q.next = (q.next + 1) % QueueState::kSlots;
  return slot;
}

void CollectAll(DeviceData& d) {
  std::vector<QueueState*> queues;
  {
    std::lock_guard lock(d.queues_mutex);
    for (auto& [handle, state] : d.queues) queues.push_back(state.get());
  }
  for (QueueState* q : queues) {
    std::lock_guard lock(q->mutex);
    Collect(d, *q, false);
  }
}

}  // namespace fencescope_layer
