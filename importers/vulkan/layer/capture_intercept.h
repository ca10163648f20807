// The device functions the layer intercepts, by file: capture_intercept.cpp (queue submissions,
// CPU waits, host signals, semaphore and fence creation, presents, acquires), capture_polls.cpp
// (status polls), capture_labels.cpp (debug-utils object names and labels).
#pragma once

#include <vulkan/vulkan.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "importers/vulkan/layer/capture_device.h"

namespace fencescope_layer {

struct NamedFunction {
  const char* name;
  PFN_vkVoidFunction function;
};
// The entry of `table` named `name` ("vkQueueSubmit", ...), or nullptr.
template <size_t N>
PFN_vkVoidFunction FindFunction(const NamedFunction (&table)[N], const char* name) {
  for (const NamedFunction& e : table) {
    if (std::strcmp(e.name, name) == 0) return e.function;
  }
  return nullptr;
}
// A table entry for the layer's function Layer_<name>.
#define FS_LAYER_FUNCTION(name) {"vk" #name, reinterpret_cast<PFN_vkVoidFunction>(&Layer_##name)},

// The layer's own function of that name ("vkQueueSubmit", ...), or nullptr.
PFN_vkVoidFunction InterceptedFunction(const char* name);
PFN_vkVoidFunction PollFunction(const char* name);
PFN_vkVoidFunction LabelFunction(const char* name);

// A batch's name from its command buffers: each buffer's outermost debug-utils labels, else its
// object name; empty when none has either.
std::string BatchLabel(DeviceData& d, const VkCommandBuffer* buffers, uint32_t count);
std::string BatchLabel(DeviceData& d, const VkCommandBufferSubmitInfo* infos, uint32_t count);
// Writes the BatchName record of `batch` when `name` is not empty.
void WriteBatchName(uint64_t batch, const std::string& name);

}  // namespace fencescope_layer
