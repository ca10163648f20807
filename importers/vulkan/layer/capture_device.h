// The layer's per-instance and per-device dispatch data, found by the loader's dispatch key.
#pragma once

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace fencescope_layer {

inline void* DispatchKey(const void* object) {
  return *static_cast<void* const*>(object);
}

struct InstanceData {
  VkInstance instance;
  PFN_vkGetInstanceProcAddr gipa;
  PFN_vkDestroyInstance DestroyInstance;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties;
  PFN_vkGetPhysicalDeviceQueueFamilyProperties GetPhysicalDeviceQueueFamilyProperties;
  PFN_vkEnumerateDeviceExtensionProperties EnumerateDeviceExtensionProperties;
  PFN_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT GetCalibrateableTimeDomains;
};

struct QueueState;

// Debug-utils names and labels of the device's command buffers, for naming the batches that
// submit them: the buffer's object name and the outermost labels begun in its recording.
struct CommandBufferLabels {
  std::string name;
  std::vector<std::string> labels;
  uint32_t depth = 0;
};

struct DeviceData {
  VkDevice device;
  VkPhysicalDevice physical;
  PFN_vkGetDeviceProcAddr gdpa;
  PFN_vkSetDeviceLoaderData set_loader_data;
  std::vector<VkQueueFamilyProperties> families;
  bool calibrated = false;  // VK_EXT_calibrated_timestamps enabled by the layer
  float timestamp_period_ns = 1;
// The next layer's (or the driver's) device functions the layer calls; those of extensions the
// device does not have stay null.
#define FS_DEVICE_FUNCS(X)                                                                   \
  X(DestroyDevice)                                                                           \
  X(GetDeviceQueue)                                                                          \
  X(GetDeviceQueue2)                                                                         \
  X(QueueSubmit)                                                                             \
  X(QueueSubmit2) X(QueueSubmit2KHR) X(QueueWaitIdle) X(DeviceWaitIdle) X(WaitForFences)     \
      X(WaitSemaphores) X(WaitSemaphoresKHR) X(SignalSemaphore) X(SignalSemaphoreKHR)        \
          X(CreateSemaphore) X(CreateFence) X(DestroyFence) X(ResetFences) X(GetFenceStatus) \
              X(GetSemaphoreCounterValue) X(GetSemaphoreCounterValueKHR) X(QueuePresentKHR)  \
                  X(AcquireNextImageKHR) X(AcquireNextImage2KHR) X(CreateCommandPool)        \
                      X(DestroyCommandPool) X(AllocateCommandBuffers) X(FreeCommandBuffers)  \
                          X(BeginCommandBuffer) X(EndCommandBuffer) X(CmdResetQueryPool)     \
                              X(CmdWriteTimestamp) X(CreateQueryPool) X(DestroyQueryPool)    \
                                  X(GetQueryPoolResults) X(GetCalibratedTimestampsEXT)       \
                                      X(SetDebugUtilsObjectNameEXT)                          \
                                          X(QueueBeginDebugUtilsLabelEXT)                    \
                                              X(QueueEndDebugUtilsLabelEXT)                  \
                                                  X(QueueInsertDebugUtilsLabelEXT)           \
                                                      X(CmdBeginDebugUtilsLabelEXT)          \
                                                          X(CmdEndDebugUtilsLabelEXT)
#define FS_MEMBER(name) PFN_vk##name name = nullptr;
  FS_DEVICE_FUNCS(FS_MEMBER)
#undef FS_MEMBER
  std::mutex queues_mutex;  // guards the map only
  std::unordered_map<VkQueue, std::unique_ptr<QueueState>> queues;
  std::atomic<uint64_t> last_calibration_ns{0};
  std::atomic<bool> paired_calibration_failed{false};  // a sample timed out: take no more
  std::mutex labels_mutex;  // guards command_buffers only; never held across a driver call
  std::unordered_map<VkCommandBuffer, CommandBufferLabels> command_buffers;
  std::atomic<bool> any_command_buffer_labels{false};
};

extern std::mutex g_maps_mutex;
extern std::unordered_map<void*, std::unique_ptr<InstanceData>> g_instances;
extern std::unordered_map<void*, std::unique_ptr<DeviceData>> g_devices;
// Physical device -> its instance's data (physical devices share the instance's key).
InstanceData* InstanceOf(const void* object);
DeviceData* DeviceOf(const void* object);

}  // namespace fencescope_layer
