// GPU timestamps around batches: per queue, a ring of command buffer pairs that write
// timestamps before and after each batch, read back without waiting at later calls (the
// queue's own submissions and waits, and any thread's fence and semaphore waits and polls that
// returned signalled, so that the batches an application waited for have their times even if
// it is killed before its next call).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <mutex>
#include <vector>

#include "importers/vulkan/layer/capture_device.h"

namespace fencescope_layer {

// Per queue. Set up, submitted to and calibrated only inside calls that Vulkan requires the
// application to synchronise with every other use of the queue (vkQueueSubmit*,
// vkQueueWaitIdle, and vkDeviceWaitIdle and vkDestroyDevice for all of the device's queues).
// The ring's indices are also read by collections from other threads: `ring` guards them and is
// never held across a call into the driver.
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
  bool timed = false;  // under `ring` (set once, at setup)
  bool ready = false;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkQueryPool queries = VK_NULL_HANDLE;     // two per slot, then one for calibration samples
  VkCommandBuffer sample = VK_NULL_HANDLE;  // writes the calibration query
  VkFence sample_fence = VK_NULL_HANDLE;
  std::vector<Slot> slots;
  std::mutex ring;
  uint32_t next = 0;        // slot to use next
  uint32_t oldest = 0;      // oldest slot whose results are not read yet
  bool collecting = false;  // a thread is reading the oldest slot's results
};

// The calibration query's index in a queue's query pool.
inline constexpr uint32_t kSampleQuery = QueueState::kSlots * 2;

// With VK_EXT_calibrated_timestamps: writes a calibration record (at most once a second unless
// `force`). capture_calibration.cpp.
void Calibrate(DeviceData& d, bool force);
// Without it: calibrates by paired samples on `q`, which must be idle (its first submission, or
// right after a queue or device wait-idle): a timestamp query written by a submission of its
// own, bracketed by CLOCK_MONOTONIC readings before the submission and after its fence wait;
// several samples, narrowed to the times every sample allows. At most once a second unless
// `force`. capture_calibration.cpp.
void CalibrateBySamples(DeviceData& d, QueueState& q, bool force);
// Creates the queue's command buffers and query pool (where its family has timestamps).
void SetupQueue(DeviceData& d, QueueState& q);
QueueState* QueueOf(DeviceData& d, VkQueue queue);
// Reads the results of finished batches, oldest first; with `wait`, waits for all of them. One
// thread at a time per queue: returns at once while another is reading.
void Collect(DeviceData& d, QueueState& q, bool wait);
// A slot for a new batch, or nullptr when the queue has no timestamps or every slot waits for
// its results (the batch then goes without GPU times rather than waiting).
QueueState::Slot* TakeSlot(QueueState& q, uint64_t batch_id);
// Collect on every queue of the device, without waiting.
void CollectAll(DeviceData& d);
// A queue of the device with timestamps set up, or nullptr.
QueueState* AnyTimedQueue(DeviceData& d);

}  // namespace fencescope_layer
