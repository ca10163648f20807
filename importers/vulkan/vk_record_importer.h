// Turns the record files of the Vulkan capture layer (vk_record_format.h) into a fencescope
// trace through TraceWriter.
//
// Topology: each file is a process; each VkPhysicalDevice an adapter; each queue family an
// engine (type from its flags: graphics -> 3d, compute -> compute, transfer -> copy, video);
// each VkQueue a HW queue; each thread that called Vulkan a thread. Each VkSemaphore and VkFence
// is a fence, plus one "idle" fence per queue for vkQueueWaitIdle / vkDeviceWaitIdle.
//
// Values: timeline semaphores keep their own values. A binary semaphore or a VkFence counts its
// signals in call order (1, 2, ...), and a wait is for the count at the time of the call (the
// latest signal submitted), which is the signal that satisfies it. A queue's idle fence is
// signalled with value N when its N-th batch completes.
//
// Events: a batch is packet_submitted (CPU time of the call) and, with timestamps,
// packet_started/completed at the GPU times (calibrated to CLOCK_MONOTONIC); its waits are
// fence_wait_queued/unblocked (unblocked when the satisfying signal executed, linked to it), its
// signals and fence fence_signal_queued/executed at the batch's GPU end. vkSignalSemaphore and
// the semaphore/fence of vkAcquireNextImageKHR are fence_cpu_signal. vkWaitForFences,
// vkWaitSemaphores, vkQueueWaitIdle and vkDeviceWaitIdle are cpu_wait_begin/released (with a
// fence flow from the signal that released each), and so is a run of vkGetFenceStatus /
// vkGetSemaphoreCounterValue polls that ended with the object signalled (from the first poll to
// the one that found it signalled; a semaphore's wait is for one more than the value the run
// started at, a fence's for its latest signal submitted by the last poll); presents are
// marker(present), acquires and vkQueueInsertDebugUtilsLabelEXT marker(text).
//
// Names: debug-utils object names name queues and fences; a packet is named by the queue labels
// open at its submission and its command buffers' labels (else their names), joined by " / ".
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/store/trace_writer.h"

namespace importers::vulkan {

struct VulkanImportStats {
  uint64_t files = 0;
  uint64_t records = 0;
  uint64_t batches = 0;
  uint64_t timed_batches = 0;
  uint64_t gpu_waits = 0;
  uint64_t gpu_signals = 0;
  uint64_t cpu_signals = 0;
  uint64_t cpu_waits = 0;
  uint64_t cpu_waits_linked = 0;
  uint64_t cpu_wait_polls = 0;  // CPU waits that were runs of status polls
  uint64_t named_batches = 0;   // batches named by debug-utils labels or object names
  uint64_t presents = 0;
  uint64_t acquires = 0;
  uint64_t events = 0;
};

// True when `path` starts with the layer's file header.
bool IsVulkanRecordFile(const std::filesystem::path& path);

// Imports every file (one per captured process) into `writer`. Throws core::Error when a file
// cannot be read or is not a record file. Does not Commit.
VulkanImportStats ImportVulkanRecords(const std::vector<std::filesystem::path>& files,
                                      core::store::TraceWriter& writer);

// The same for files whose bytes are held in memory (`label` names each in messages).
struct VulkanRecordBytes {
  std::string label;
  std::string_view bytes;
};
VulkanImportStats ImportVulkanRecordBytes(const std::vector<VulkanRecordBytes>& files,
                                          core::store::TraceWriter& writer);

}  // namespace importers::vulkan
