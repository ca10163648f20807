#include "importers/vulkan/layer/capture_timing.h"

#include "importers/vulkan/layer/capture_recorder.h"

namespace fencescope_layer {

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
                                   kSampleQuery + 1,
                                   0};
  if (d.CreateQueryPool(d.device, &query_info, nullptr, &q.queries) != VK_SUCCESS) return;
  std::vector<VkCommandBuffer> buffers(QueueState::kSlots * 2 + 1);
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
  VkCommandBuffer sample = buffers.back();
  if (d.set_loader_data) d.set_loader_data(d.device, sample);
  d.BeginCommandBuffer(sample, &begin);
  d.CmdResetQueryPool(sample, q.queries, kSampleQuery, 1);
  d.CmdWriteTimestamp(sample, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, q.queries, kSampleQuery);
  d.EndCommandBuffer(sample);
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, nullptr, 0};
  if (d.CreateFence(d.device, &fence_info, nullptr, &q.sample_fence) == VK_SUCCESS) {
    q.sample = sample;
  }
  std::lock_guard lock(q.ring);
  q.timed = true;
}

QueueState* QueueOf(DeviceData& d, VkQueue queue) {
  std::lock_guard lock(d.queues_mutex);
  auto it = d.queues.find(queue);
  return it == d.queues.end() ? nullptr : it->second.get();
}

void Collect(DeviceData& d, QueueState& q, bool wait) {
  for (;;) {
    uint32_t index = 0;
    uint64_t batch = 0;
    {
      std::lock_guard lock(q.ring);
      if (!q.timed || q.collecting || q.oldest == q.next) return;
      q.collecting = true;
      index = q.oldest;
      batch = q.slots[index].batch_id;
    }
    uint64_t ticks[2] = {};
    const VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | (wait ? VK_QUERY_RESULT_WAIT_BIT : 0);
    const VkResult r = d.GetQueryPoolResults(d.device, q.queries, index * 2, 2, sizeof ticks, ticks,
                                             sizeof(uint64_t), flags);
    if (r == VK_SUCCESS) {
      Out().Write(RecordType::kBatchGpu, BatchGpuRecord{batch, H(d.device), ticks[0], ticks[1]});
    }
    std::lock_guard lock(q.ring);
    q.collecting = false;
    if (r == VK_NOT_READY) return;
    q.slots[index].batch_id = 0;
    q.oldest = (index + 1) % QueueState::kSlots;
  }
}

QueueState::Slot* TakeSlot(QueueState& q, uint64_t batch_id) {
  std::lock_guard lock(q.ring);
  if (!q.timed || (q.next + 1) % QueueState::kSlots == q.oldest) return nullptr;
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
  for (QueueState* q : queues) Collect(d, *q, false);
}

QueueState* AnyTimedQueue(DeviceData& d) {
  std::lock_guard lock(d.queues_mutex);
  for (auto& [handle, state] : d.queues) {
    std::lock_guard ring(state->ring);
    if (state->timed) return state.get();
  }
  return nullptr;
}

}  // namespace fencescope_layer
