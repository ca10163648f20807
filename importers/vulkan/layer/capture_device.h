// The layer's per-instance and per-device dispatch data, found by the loader's dispatch key.
#pragma once

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
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

struct DeviceData {
  VkDevice device;
  VkPhysicalDevice physical;
  PFN_vkGetDeviceProcAddr gdpa;
  PFN_vkSetDeviceLoaderData set_loader_data;
  std::vector<VkQueueFamilyProperties> families;
  bool calibrated = false;
#define FS_DEVICE_FUNCS(X)                                                                         \
  X(DestroyDevice)                                                                                 \
  X(GetDeviceQueue)                                                                                \
  X(GetDeviceQueue2) X(QueueSubmit) X(QueueSubmit2) X(QueueSubmit2KHR) X(QueueWaitIdle)            \
      X(DeviceWaitIdle) X(WaitForFences) X(WaitSemaphores) X(WaitSemaphoresKHR) X(SignalSemaphore) \
          X(SignalSemaphoreKHR) X(CreateSemaphore) X(CreateFence) X(QueuePresentKHR)               \
              X(AcquireNextImageKHR) X(AcquireNextImage2KHR) X(CreateCommandPool)                  \
                  X(DestroyCommandPool) X(AllocateCommandBuffers) X(BeginCommandBuffer)            \
                      X(EndCommandBuffer) X(CmdResetQueryPool) X(CmdWriteTimestamp)                \
                          X(CreateQueryPool) X(DestroyQueryPool) X(GetQueryPoolResults)            \
                              X(GetCalibratedTimestampsEXT) X(SetDebugUtilsObjectNameEXT)
#define FS_MEMBER(name) PFN_vk##name name = nullptr;
  FS_DEVICE_FUNCS(FS_MEMBER)
#undef FS_MEMBER
  std::mutex queues_mutex;  // guards the map only
  std::unordered_map<VkQueue, std::unique_ptr<QueueState>> queues;
  std::atomic<uint64_t> last_calibration_ns{0};
};

extern std::mutex g_maps_mutex;
extern std::unordered_map<void*, std::unique_ptr<InstanceData>> g_instances;
extern std::unordered_map<void*, std::unique_ptr<DeviceData>> g_devices;
// Physical device -> its instance's data (physical devices share the instance's key).
InstanceData* InstanceOf(const void* object);
DeviceData* DeviceOf(const void* object);

}  // namespace fencescope_layer
