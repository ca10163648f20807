// GPU timestamps around batches: per queue, a ring of command buffer pairs that write
// timestamps before and after each batch, read back without waiting at later calls.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>
#include <vector>

#include "importers/vulkan/layer/capture_device.h"

namespace fencescope_layer {

// Per queue; touched only inside calls on that queue, which the application synchronises
// (vkQueueSubmit*, vkQueueWaitIdle, vkQueuePresentKHR), and at device destruction.
struct QueueState {
  static constexpr uint32_t kSlots = 256;
  struct Slot {
    VkCommandBuffer begin = VK_NULL_HANDLE;
    VkCommandBuffer end = VK_NULL_HANDLE;
    uint64_t batch_id = 0;  // 0: free
  };
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;
  uint32_t index = 0;
  bool timed = false;
  bool ready = false;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;
  std::vector<Slot> slots;
  uint32_t next = 0;    // slot to use next
  uint32_t oldest = 0;  // oldest slot whose results are not read yet
  // Guards the slots between a submission on the queue and device-level collection
  // (vkDeviceWaitIdle); never held across a call into the driver.
  std::mutex mutex;
};

// Writes a calibration record (at most once a second unless `force`).
void Calibrate(DeviceData& d, bool force);
// Creates the queue's command buffers and query pool (where its family has timestamps).
void SetupQueue(DeviceData& d, QueueState& q);
QueueState* QueueOf(DeviceData& d, VkQueue queue);
// Reads the results of finished batches, oldest first; with `wait`, waits for all of them.
void Collect(DeviceData& d, QueueState& q, bool wait);
// A slot for a new batch; when the ring is full the oldest batch's results are waited for.
QueueState::Slot* TakeSlot(DeviceData& d, QueueState& q, uint64_t batch_id);
// Collect on every queue of the device, without waiting.
void CollectAll(DeviceData& d);

}  // namespace fencescope_layer
