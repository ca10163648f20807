#include "importers/vulkan/layer/capture_intercept.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "importers/vulkan/layer/capture_device.h"
#include "importers/vulkan/layer/capture_recorder.h"
#include "importers/vulkan/layer/capture_timing.h"

namespace fencescope_layer {

namespace {

bool HasDeviceGroupInfo(const void* next) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO) return true;
  }
  return false;
}

template <class T>
const T* FindInChain(const void* next, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext) {
    if (s->sType == type) return reinterpret_cast<const T*>(s);
  }
  return nullptr;
}

void WriteSync(uint64_t batch, uint64_t object, uint64_t value, uint64_t stages, SyncRole role) {
  Out().Write(RecordType::kBatchSync,
              BatchSyncRecord{batch, object, value, stages, uint32_t(role), 0});
}

// Before a submission on `q` (the app's synchronisation of the queue covers the layer's state):
// set up its timestamps on first use (and, without calibrated timestamps, calibrate on the
// still idle queue), read finished batches' timestamps, calibrate when due.
// A fence-only submission (no batches, a fence): the fence is signalled when the queue's earlier
// work is done, so it is recorded as an empty, untimed batch that signals it.
void WriteFenceOnlyBatch(VkQueue queue, VkFence fence, uint64_t now, uint32_t submit2,
                         VkResult result) {
  const uint64_t id = g_next_id.fetch_add(1);
  Out().Write(RecordType::kBatch, BatchRecord{id, H(queue), now, 0, 0, submit2, uint32_t(result)});
  WriteSync(id, H(fence), 0, 0, SyncRole::kFence);
}

void PrepareQueue(DeviceData& d, QueueState& q) {
  if (!q.ready) {
    SetupQueue(d, q);
    CalibrateBySamples(d, q, d.last_calibration_ns.load() == 0);
  }
  Collect(d, q, false);
  Calibrate(d, false);
}

// ---- Intercepted device functions --------------------------------------------------------

void GetDeviceQueueCommon(DeviceData& d, uint32_t family, uint32_t index, VkQueue queue) {
  if (!queue) return;
  {
    std::lock_guard lock(d.queues_mutex);
    auto& state = d.queues[queue];
    if (state) return;
    state = std::make_unique<QueueState>();
    state->queue = queue;
    state->family = family;
    state->index = index;
  }
  const VkQueueFamilyProperties props =
      family < d.families.size() ? d.families[family] : VkQueueFamilyProperties{};
  Out().Write(RecordType::kQueue, QueueRecord{H(d.device), H(queue), family, index,
                                              props.queueFlags, props.timestampValidBits});
}

VKAPI_ATTR void VKAPI_CALL Layer_GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index,
                                                VkQueue* queue) {
  DeviceData& d = *DeviceOf(device);
  d.GetDeviceQueue(device, family, index, queue);
  GetDeviceQueueCommon(d, family, index, *queue);
}

VKAPI_ATTR void VKAPI_CALL Layer_GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info,
                                                 VkQueue* queue) {
  DeviceData& d = *DeviceOf(device);
  d.GetDeviceQueue2(device, info, queue);
  GetDeviceQueueCommon(d, info->queueFamilyIndex, info->queueIndex, *queue);
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_QueueSubmit(VkQueue queue, uint32_t count,
                                                 const VkSubmitInfo* submits, VkFence fence) {
  DeviceData& d = *DeviceOf(queue);
  QueueState* q = QueueOf(d, queue);
  if (!q || !Out().active()) return d.QueueSubmit(queue, count, submits, fence);
  const uint64_t now = NowNs();
  PrepareQueue(d, *q);
  std::vector<VkSubmitInfo> copies(submits, submits + count);
  std::vector<std::vector<VkCommandBuffer>> buffers(count);
  std::vector<uint64_t> ids(count);
  std::vector<bool> timed(count, false);
  for (uint32_t i = 0; i < count; ++i) {
    ids[i] = g_next_id.fetch_add(1);
    if (HasDeviceGroupInfo(submits[i].pNext)) continue;
    QueueState::Slot* slot = TakeSlot(*q, ids[i]);
    if (!slot) continue;
    auto& list = buffers[i];
    list.reserve(submits[i].commandBufferCount + 2);
    list.push_back(slot->begin);
    list.insert(list.end(), submits[i].pCommandBuffers,
                submits[i].pCommandBuffers + submits[i].commandBufferCount);
    list.push_back(slot->end);
    copies[i].commandBufferCount = uint32_t(list.size());
    copies[i].pCommandBuffers = list.data();
    timed[i] = true;
  }
  const VkResult result = d.QueueSubmit(queue, count, copies.data(), fence);
  for (uint32_t i = 0; i < count; ++i) {
    const VkSubmitInfo& s = submits[i];
    Out().Write(RecordType::kBatch, BatchRecord{ids[i], H(queue), now, s.commandBufferCount,
                                                timed[i] ? 1u : 0u, 0, uint32_t(result)});
    WriteBatchName(ids[i], BatchLabel(d, s.pCommandBuffers, s.commandBufferCount));
    auto* values = FindInChain<VkTimelineSemaphoreSubmitInfo>(
        s.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
    for (uint32_t w = 0; w < s.waitSemaphoreCount; ++w) {
      const uint64_t value =
          values && w < values->waitSemaphoreValueCount && values->pWaitSemaphoreValues
              ? values->pWaitSemaphoreValues[w]
              : 0;
      WriteSync(ids[i], H(s.pWaitSemaphores[w]), value,
                s.pWaitDstStageMask ? s.pWaitDstStageMask[w] : 0, SyncRole::kWait);
    }
    for (uint32_t g = 0; g < s.signalSemaphoreCount; ++g) {
      const uint64_t value =
          values && g < values->signalSemaphoreValueCount && values->pSignalSemaphoreValues
              ? values->pSignalSemaphoreValues[g]
              : 0;
      WriteSync(ids[i], H(s.pSignalSemaphores[g]), value, 0, SyncRole::kSignal);
    }
    if (fence && i + 1 == count) WriteSync(ids[i], H(fence), 0, 0, SyncRole::kFence);
  }
  if (count == 0 && fence) WriteFenceOnlyBatch(queue, fence, now, 0, result);
  return result;
}

VkResult QueueSubmit2Common(PFN_vkQueueSubmit2 next, VkQueue queue, uint32_t count,
                            const VkSubmitInfo2* submits, VkFence fence) {
  DeviceData& d = *DeviceOf(queue);
  QueueState* q = QueueOf(d, queue);
  if (!q || !Out().active()) return next(queue, count, submits, fence);
  const uint64_t now = NowNs();
  PrepareQueue(d, *q);
  std::vector<VkSubmitInfo2> copies(submits, submits + count);
  std::vector<std::vector<VkCommandBufferSubmitInfo>> buffers(count);
  std::vector<uint64_t> ids(count);
  std::vector<bool> timed(count, false);
  for (uint32_t i = 0; i < count; ++i) {
    ids[i] = g_next_id.fetch_add(1);
    QueueState::Slot* slot = TakeSlot(*q, ids[i]);
    if (!slot) continue;
    auto& list = buffers[i];
    list.reserve(submits[i].commandBufferInfoCount + 2);
    list.push_back({VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, slot->begin, 0});
    list.insert(list.end(), submits[i].pCommandBufferInfos,
                submits[i].pCommandBufferInfos + submits[i].commandBufferInfoCount);
    list.push_back({VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, slot->end, 0});
    copies[i].commandBufferInfoCount = uint32_t(list.size());
    copies[i].pCommandBufferInfos = list.data();
    timed[i] = true;
  }
  const VkResult result = next(queue, count, copies.data(), fence);
  for (uint32_t i = 0; i < count; ++i) {
    const VkSubmitInfo2& s = submits[i];
    Out().Write(RecordType::kBatch, BatchRecord{ids[i], H(queue), now, s.commandBufferInfoCount,
                                                timed[i] ? 1u : 0u, 1, uint32_t(result)});
    WriteBatchName(ids[i], BatchLabel(d, s.pCommandBufferInfos, s.commandBufferInfoCount));
    for (uint32_t w = 0; w < s.waitSemaphoreInfoCount; ++w) {
      const auto& info = s.pWaitSemaphoreInfos[w];
      WriteSync(ids[i], H(info.semaphore), info.value, info.stageMask, SyncRole::kWait);
    }
    for (uint32_t g = 0; g < s.signalSemaphoreInfoCount; ++g) {
      const auto& info = s.pSignalSemaphoreInfos[g];
      WriteSync(ids[i], H(info.semaphore), info.value, info.stageMask, SyncRole::kSignal);
    }
    if (fence && i + 1 == count) WriteSync(ids[i], H(fence), 0, 0, SyncRole::kFence);
  }
  if (count == 0 && fence) WriteFenceOnlyBatch(queue, fence, now, 1, result);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_QueueSubmit2(VkQueue queue, uint32_t count,
                                                  const VkSubmitInfo2* submits, VkFence fence) {
  return QueueSubmit2Common(DeviceOf(queue)->QueueSubmit2, queue, count, submits, fence);
}
VKAPI_ATTR VkResult VKAPI_CALL Layer_QueueSubmit2KHR(VkQueue queue, uint32_t count,
                                                     const VkSubmitInfo2* submits, VkFence fence) {
  return QueueSubmit2Common(DeviceOf(queue)->QueueSubmit2KHR, queue, count, submits, fence);
}

void WaitItem(uint64_t group, uint64_t object, uint64_t value, CpuWaitObject kind) {
  Out().Write(RecordType::kCpuWaitItem, CpuWaitItemRecord{group, object, value, uint32_t(kind), 0});
}
void WaitDone(uint64_t group, uint64_t begin, uint64_t timeout, VkResult result, bool all) {
  Out().Write(RecordType::kCpuWaitDone,
              CpuWaitDoneRecord{group, begin, NowNs(), timeout, int32_t(result), all ? 1u : 0u});
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_QueueWaitIdle(VkQueue queue) {
  DeviceData& d = *DeviceOf(queue);
  const uint64_t group = g_next_id.fetch_add(1);
  const uint64_t begin = NowNs();
  WaitItem(group, H(queue), 0, CpuWaitObject::kQueue);
  const VkResult result = d.QueueWaitIdle(queue);
  WaitDone(group, begin, UINT64_MAX, result, true);
  if (QueueState* q = QueueOf(d, queue)) {
    Collect(d, *q, false);
    // The queue is idle: a paired calibration sample costs no waiting for the app's work.
    if (result == VK_SUCCESS) CalibrateBySamples(d, *q, false);
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_DeviceWaitIdle(VkDevice device) {
  DeviceData& d = *DeviceOf(device);
  const uint64_t group = g_next_id.fetch_add(1);
  const uint64_t begin = NowNs();
  WaitItem(group, H(device), 0, CpuWaitObject::kDevice);
  const VkResult result = d.DeviceWaitIdle(device);
  WaitDone(group, begin, UINT64_MAX, result, true);
  CollectAll(d);
  if (result == VK_SUCCESS) {
    if (QueueState* q = AnyTimedQueue(d)) CalibrateBySamples(d, *q, false);
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_WaitForFences(VkDevice device, uint32_t count,
                                                   const VkFence* fences, VkBool32 all,
                                                   uint64_t timeout) {
  DeviceData& d = *DeviceOf(device);
  const uint64_t group = g_next_id.fetch_add(1);
  const uint64_t begin = NowNs();
  for (uint32_t i = 0; i < count; ++i) WaitItem(group, H(fences[i]), 0, CpuWaitObject::kFence);
  const VkResult result = d.WaitForFences(device, count, fences, all, timeout);
  WaitDone(group, begin, timeout, result, all || count == 1);
  if (result == VK_SUCCESS) CollectAll(d);
  return result;
}

VkResult WaitSemaphoresCommon(PFN_vkWaitSemaphores next, VkDevice device,
                              const VkSemaphoreWaitInfo* info, uint64_t timeout) {
  const uint64_t group = g_next_id.fetch_add(1);
  const uint64_t begin = NowNs();
  for (uint32_t i = 0; i < info->semaphoreCount; ++i) {
    WaitItem(group, H(info->pSemaphores[i]), info->pValues[i], CpuWaitObject::kSemaphore);
  }
  const VkResult result = next(device, info, timeout);
  const bool any = (info->flags & VK_SEMAPHORE_WAIT_ANY_BIT) && info->semaphoreCount > 1;
  WaitDone(group, begin, timeout, result, !any);
  if (result == VK_SUCCESS) CollectAll(*DeviceOf(device));
  return result;
}
VKAPI_ATTR VkResult VKAPI_CALL Layer_WaitSemaphores(VkDevice device,
                                                    const VkSemaphoreWaitInfo* info,
                                                    uint64_t timeout) {
  return WaitSemaphoresCommon(DeviceOf(device)->WaitSemaphores, device, info, timeout);
}
VKAPI_ATTR VkResult VKAPI_CALL Layer_WaitSemaphoresKHR(VkDevice device,
                                                       const VkSemaphoreWaitInfo* info,
                                                       uint64_t timeout) {
  return WaitSemaphoresCommon(DeviceOf(device)->WaitSemaphoresKHR, device, info, timeout);
}

// vkSignalSemaphore and its KHR alias: the host signal is stamped before the call, as the value
// may release a GPU wait before the call returns.
VkResult SignalSemaphoreCommon(PFN_vkSignalSemaphore next, VkDevice device,
                               const VkSemaphoreSignalInfo* info) {
  const uint64_t now = NowNs();
  const VkResult result = next(device, info);
  if (result == VK_SUCCESS) {
    Out().Write(RecordType::kHostSignal, HostSignalRecord{H(info->semaphore), info->value, now});
  }
  return result;
}
VKAPI_ATTR VkResult VKAPI_CALL Layer_SignalSemaphore(VkDevice device,
                                                     const VkSemaphoreSignalInfo* info) {
  return SignalSemaphoreCommon(DeviceOf(device)->SignalSemaphore, device, info);
}
VKAPI_ATTR VkResult VKAPI_CALL Layer_SignalSemaphoreKHR(VkDevice device,
                                                        const VkSemaphoreSignalInfo* info) {
  return SignalSemaphoreCommon(DeviceOf(device)->SignalSemaphoreKHR, device, info);
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_CreateSemaphore(VkDevice device,
                                                     const VkSemaphoreCreateInfo* info,
                                                     const VkAllocationCallbacks* allocator,
                                                     VkSemaphore* semaphore) {
  DeviceData& d = *DeviceOf(device);
  const VkResult result = d.CreateSemaphore(device, info, allocator, semaphore);
  if (result == VK_SUCCESS) {
    auto* type = FindInChain<VkSemaphoreTypeCreateInfo>(
        info->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
    const bool timeline = type && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
    Out().Write(RecordType::kSemaphore, SemaphoreRecord{H(device), H(*semaphore),
                                                        uint32_t(timeline ? SemaphoreKind::kTimeline
                                                                          : SemaphoreKind::kBinary),
                                                        0, timeline ? type->initialValue : 0});
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_CreateFence(VkDevice device, const VkFenceCreateInfo* info,
                                                 const VkAllocationCallbacks* allocator,
                                                 VkFence* fence) {
  DeviceData& d = *DeviceOf(device);
  const VkResult result = d.CreateFence(device, info, allocator, fence);
  if (result == VK_SUCCESS) {
    Out().Write(RecordType::kSemaphore,
                SemaphoreRecord{H(device), H(*fence), uint32_t(SemaphoreKind::kFence),
                                (info->flags & VK_FENCE_CREATE_SIGNALED_BIT) ? 1u : 0u, 0});
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* info) {
  DeviceData& d = *DeviceOf(queue);
  const uint64_t now = NowNs();
  const VkResult result = d.QueuePresentKHR(queue, info);
  for (uint32_t i = 0; i < info->swapchainCount; ++i) {
    const VkResult one = info->pResults ? info->pResults[i] : result;
    Out().Write(RecordType::kPresent, PresentRecord{H(queue), H(info->pSwapchains[i]), now,
                                                    info->pImageIndices[i], int32_t(one)});
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_AcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                         uint64_t timeout, VkSemaphore semaphore,
                                                         VkFence fence, uint32_t* index) {
  DeviceData& d = *DeviceOf(device);
  const uint64_t begin = NowNs();
  const VkResult result =
      d.AcquireNextImageKHR(device, swapchain, timeout, semaphore, fence, index);
  Out().Write(RecordType::kAcquire,
              AcquireRecord{H(swapchain), H(semaphore), H(fence), begin, NowNs(),
                            result >= 0 ? *index : UINT32_MAX, int32_t(result)});
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_AcquireNextImage2KHR(VkDevice device,
                                                          const VkAcquireNextImageInfoKHR* info,
                                                          uint32_t* index) {
  DeviceData& d = *DeviceOf(device);
  const uint64_t begin = NowNs();
  const VkResult result = d.AcquireNextImage2KHR(device, info, index);
  Out().Write(RecordType::kAcquire,
              AcquireRecord{H(info->swapchain), H(info->semaphore), H(info->fence), begin, NowNs(),
                            result >= 0 ? *index : UINT32_MAX, int32_t(result)});
  return result;
}

}  // namespace

PFN_vkVoidFunction InterceptedFunction(const char* name) {
  static const NamedFunction kEntries[] = {
      FS_LAYER_FUNCTION(GetDeviceQueue) FS_LAYER_FUNCTION(GetDeviceQueue2)
          FS_LAYER_FUNCTION(QueueSubmit) FS_LAYER_FUNCTION(QueueSubmit2)
              FS_LAYER_FUNCTION(QueueSubmit2KHR) FS_LAYER_FUNCTION(QueueWaitIdle)
                  FS_LAYER_FUNCTION(DeviceWaitIdle) FS_LAYER_FUNCTION(WaitForFences)
                      FS_LAYER_FUNCTION(WaitSemaphores) FS_LAYER_FUNCTION(WaitSemaphoresKHR)
                          FS_LAYER_FUNCTION(SignalSemaphore) FS_LAYER_FUNCTION(SignalSemaphoreKHR)
                              FS_LAYER_FUNCTION(CreateSemaphore) FS_LAYER_FUNCTION(CreateFence)
                                  FS_LAYER_FUNCTION(QueuePresentKHR)
                                      FS_LAYER_FUNCTION(AcquireNextImageKHR)
                                          FS_LAYER_FUNCTION(AcquireNextImage2KHR)};
  if (PFN_vkVoidFunction own = FindFunction(kEntries, name)) return own;
  if (PFN_vkVoidFunction own = PollFunction(name)) return own;
  return LabelFunction(name);
}

}  // namespace fencescope_layer
