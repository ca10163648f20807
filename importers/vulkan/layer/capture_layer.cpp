// VK_LAYER_FENCESCOPE_capture: records queue submissions, semaphore and fence waits and signals,
// host waits and presents of a Vulkan application into a record file
// (importers/vulkan/vk_record_format.h), which `fencescope capture` turns into a trace.
//
// Output: $FENCESCOPE_CAPTURE_OUT names the file, or a directory that receives <pid>.fsvk (so
// child processes of a captured application each write their own); default ./fencescope-<pid>.fsvk.
//
// Cost on the application's threads: a record is copied into the calling thread's own buffer
// (a mutex that only the writer thread contends for while swapping buffers); a background thread
// writes the buffers to the file every few milliseconds. No lock of the layer is held across a
// call into the driver. Around each batch the layer adds two small command buffers that write
// timestamps (where the queue family has them); their results are read without waiting at
// later submissions, queue or device waits and device destruction.
//
// This file is the loader interface: instance and device creation and destruction, function
// lookup and the exported entry points. capture_intercept.cpp records the intercepted device
// calls, capture_timing.cpp the GPU timestamps, capture_recorder.cpp writes the records.
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "importers/vulkan/layer/capture_device.h"
#include "importers/vulkan/layer/capture_intercept.h"
#include "importers/vulkan/layer/capture_recorder.h"
#include "importers/vulkan/layer/capture_timing.h"
#include "importers/vulkan/vk_record_format.h"

#define FS_EXPORT extern "C" __attribute__((visibility("default")))

namespace fencescope_layer {

std::mutex g_maps_mutex;
std::unordered_map<void*, std::unique_ptr<InstanceData>> g_instances;
std::unordered_map<void*, std::unique_ptr<DeviceData>> g_devices;

InstanceData* InstanceOf(const void* object) {
  std::lock_guard lock(g_maps_mutex);
  auto it = g_instances.find(DispatchKey(object));
  return it == g_instances.end() ? nullptr : it->second.get();
}
DeviceData* DeviceOf(const void* object) {
  std::lock_guard lock(g_maps_mutex);
  auto it = g_devices.find(DispatchKey(object));
  return it == g_devices.end() ? nullptr : it->second.get();
}

}  // namespace fencescope_layer

namespace {

using namespace fencescope_layer;

constexpr char kLayerName[] = "VK_LAYER_FENCESCOPE_capture";

// Takes a dispatchable handle's data out of its map under the maps' lock, so that the caller
// tears it down without holding the lock; null when the handle is unknown.
template <typename Map>
typename Map::mapped_type TakeEntry(Map& map, const void* object) {
  std::lock_guard lock(g_maps_mutex);
  auto it = map.find(DispatchKey(object));
  if (it == map.end()) return nullptr;
  typename Map::mapped_type owned = std::move(it->second);
  map.erase(it);
  return owned;
}

VKAPI_ATTR void VKAPI_CALL Layer_DestroyDevice(VkDevice device,
                                               const VkAllocationCallbacks* allocator) {
  std::unique_ptr<DeviceData> owned = TakeEntry(g_devices, device);
  if (!owned) return;
  DeviceData& d = *owned;
  for (auto& [handle, q] : d.queues) {
    // No other call can use the device any more.
    if (q->timed) {
      d.QueueWaitIdle(handle);
      Collect(d, *q, true);
    }
    if (q->sample_fence) d.DestroyFence(device, q->sample_fence, nullptr);
    if (q->pool) d.DestroyCommandPool(device, q->pool, nullptr);
    if (q->queries) d.DestroyQueryPool(device, q->queries, nullptr);
  }
  d.DestroyDevice(device, allocator);
}

PFN_vkVoidFunction DeviceFunction(const char* name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL Layer_GetDeviceProcAddr(VkDevice device,
                                                                 const char* name) {
  DeviceData* d = device ? DeviceOf(device) : nullptr;
  if (!d) return nullptr;
  PFN_vkVoidFunction next = d->gdpa(device, name);
  // Functions the device does not have stay absent.
  if (!next) return nullptr;
  if (PFN_vkVoidFunction own = DeviceFunction(name)) return own;
  return next;
}

// ---- Instance level ----------------------------------------------------------------------

template <class Info, class Link>
Info* FindLayerInfo(const void* next, VkStructureType type, VkLayerFunction function) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext) {
    auto* info = reinterpret_cast<Info*>(const_cast<VkBaseInStructure*>(s));
    if (s->sType == type && info->function == function) return info;
  }
  return nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_CreateInstance(const VkInstanceCreateInfo* info,
                                                    const VkAllocationCallbacks* allocator,
                                                    VkInstance* instance) {
  auto* link = FindLayerInfo<VkLayerInstanceCreateInfo, VkLayerInstanceLink>(
      info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO, VK_LAYER_LINK_INFO);
  if (!link || !link->u.pLayerInfo) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer reads its own link
  auto create = reinterpret_cast<PFN_vkCreateInstance>(gipa(VK_NULL_HANDLE, "vkCreateInstance"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;
  const VkResult result = create(info, allocator, instance);
  if (result != VK_SUCCESS) return result;
  auto data = std::make_unique<InstanceData>();
  data->instance = *instance;
  data->gipa = gipa;
#define FS_GET(member, name) \
  data->member = reinterpret_cast<decltype(data->member)>(gipa(*instance, name))
  FS_GET(DestroyInstance, "vkDestroyInstance");
  FS_GET(GetPhysicalDeviceProperties, "vkGetPhysicalDeviceProperties");
  FS_GET(GetPhysicalDeviceQueueFamilyProperties, "vkGetPhysicalDeviceQueueFamilyProperties");
  FS_GET(EnumerateDeviceExtensionProperties, "vkEnumerateDeviceExtensionProperties");
  FS_GET(GetCalibrateableTimeDomains, "vkGetPhysicalDeviceCalibrateableTimeDomainsEXT");
#undef FS_GET
  {
    std::lock_guard lock(g_maps_mutex);
    g_instances[DispatchKey(*instance)] = std::move(data);
  }
  Out().Start();
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL Layer_DestroyInstance(VkInstance instance,
                                                 const VkAllocationCallbacks* allocator) {
  std::unique_ptr<InstanceData> owned = TakeEntry(g_instances, instance);
  if (!owned) return;
  owned->DestroyInstance(instance, allocator);
  Out().Stop();
}

bool CanCalibrate(InstanceData& inst, VkPhysicalDevice physical) {
  uint32_t count = 0;
  inst.EnumerateDeviceExtensionProperties(physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  inst.EnumerateDeviceExtensionProperties(physical, nullptr, &count, extensions.data());
  bool has = false;
  for (auto& e : extensions) {
    if (std::strcmp(e.extensionName, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME) == 0) has = true;
  }
  if (!has || !inst.GetCalibrateableTimeDomains) return false;
  count = 0;
  inst.GetCalibrateableTimeDomains(physical, &count, nullptr);
  std::vector<VkTimeDomainEXT> domains(count);
  inst.GetCalibrateableTimeDomains(physical, &count, domains.data());
  bool device = false, monotonic = false;
  for (auto domain : domains) {
    device |= domain == VK_TIME_DOMAIN_DEVICE_EXT;
    monotonic |= domain == VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT;
  }
  return device && monotonic;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_CreateDevice(VkPhysicalDevice physical,
                                                  const VkDeviceCreateInfo* info,
                                                  const VkAllocationCallbacks* allocator,
                                                  VkDevice* device) {
  InstanceData* inst = InstanceOf(physical);
  auto* link = FindLayerInfo<VkLayerDeviceCreateInfo, VkLayerDeviceLink>(
      info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO, VK_LAYER_LINK_INFO);
  auto* callback = FindLayerInfo<VkLayerDeviceCreateInfo, VkLayerDeviceLink>(
      info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO, VK_LOADER_DATA_CALLBACK);
  if (!inst || !link || !link->u.pLayerInfo) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateDevice>(gipa(inst->instance, "vkCreateDevice"));
  if (!create) return VK_ERROR_INITIALIZATION_FAILED;

  // Enable VK_EXT_calibrated_timestamps when the device has it and the app did not ask.
  // FENCESCOPE_CAPTURE_CALIBRATION=samples calibrates by paired samples even then.
  const char* method = std::getenv("FENCESCOPE_CAPTURE_CALIBRATION");
  const bool forced_samples = method && std::strcmp(method, "samples") == 0;
  const bool calibrate = !forced_samples && CanCalibrate(*inst, physical);
  std::vector<const char*> extensions(info->ppEnabledExtensionNames,
                                      info->ppEnabledExtensionNames + info->enabledExtensionCount);
  VkDeviceCreateInfo copy = *info;
  if (calibrate && std::none_of(extensions.begin(), extensions.end(), [](const char* e) {
        return std::strcmp(e, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME) == 0;
      })) {
    extensions.push_back(VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);
    copy.enabledExtensionCount = uint32_t(extensions.size());
    copy.ppEnabledExtensionNames = extensions.data();
  }
  const VkResult result = create(physical, &copy, allocator, device);
  if (result != VK_SUCCESS) return result;

  auto data = std::make_unique<DeviceData>();
  data->device = *device;
  data->physical = physical;
  data->gdpa = gdpa;
  data->set_loader_data = callback ? callback->u.pfnSetDeviceLoaderData : nullptr;
  data->calibrated = calibrate;
#define FS_LOAD(name) data->name = reinterpret_cast<PFN_vk##name>(gdpa(*device, "vk" #name));
  FS_DEVICE_FUNCS(FS_LOAD)
#undef FS_LOAD
  uint32_t families = 0;
  inst->GetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
  data->families.resize(families);
  inst->GetPhysicalDeviceQueueFamilyProperties(physical, &families, data->families.data());
  VkPhysicalDeviceProperties props{};
  inst->GetPhysicalDeviceProperties(physical, &props);
  data->timestamp_period_ns = props.limits.timestampPeriod;
  DeviceRecord record{H(*device),
                      H(physical),
                      props.vendorID,
                      props.deviceID,
                      props.limits.timestampPeriod,
                      calibrate ? 1u : 0u,
                      {}};
  std::memcpy(record.name, props.deviceName,
              std::min(std::strlen(props.deviceName), sizeof record.name - 1));
  Out().Write(RecordType::kDevice, record);
  DeviceData* raw = data.get();
  {
    std::lock_guard lock(g_maps_mutex);
    g_devices[DispatchKey(*device)] = std::move(data);
  }
  Calibrate(*raw, true);
  return VK_SUCCESS;
}

PFN_vkVoidFunction DeviceFunction(const char* name) {
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&Layer_GetDeviceProcAddr);
  }
  if (std::strcmp(name, "vkDestroyDevice") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&Layer_DestroyDevice);
  }
  return InterceptedFunction(name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL Layer_GetInstanceProcAddr(VkInstance instance,
                                                                   const char* name) {
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&Layer_GetInstanceProcAddr);
  }
  if (std::strcmp(name, "vkCreateInstance") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&Layer_CreateInstance);
  }
  // Without an instance only the global functions above are the layer's to give.
  InstanceData* inst = instance ? InstanceOf(instance) : nullptr;
  if (!inst) return nullptr;
  if (std::strcmp(name, "vkDestroyInstance") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&Layer_DestroyInstance);
  }
  if (std::strcmp(name, "vkCreateDevice") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&Layer_CreateDevice);
  }
  // A device function (core, or of an extension such as VK_EXT_debug_utils) is the layer's
  // only where the chain below has it: an extension the loader or driver does not expose
  // stays absent.
  PFN_vkVoidFunction next = inst->gipa(instance, name);
  if (!next) return nullptr;
  if (PFN_vkVoidFunction own = DeviceFunction(name)) return own;
  return next;
}

}  // namespace

FS_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                         const char* name) {
  return Layer_GetInstanceProcAddr(instance, name);
}

FS_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device,
                                                                       const char* name) {
  return Layer_GetDeviceProcAddr(device, name);
}

FS_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) {
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
  version->pfnGetInstanceProcAddr = &Layer_GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = &Layer_GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
