// Debug-utils object names and labels (VK_EXT_debug_utils). These functions are reached only
// where the loader or driver below has them (capture_layer.cpp looks each up down the chain
// first). Object names become names of queues, fences and (for command buffers) batches; queue
// labels are written as records in call order; command-buffer labels are kept per buffer until
// its next vkBeginCommandBuffer (its name until it is freed) and name the batches that submit it.
#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>

#include "importers/vulkan/layer/capture_device.h"
#include "importers/vulkan/layer/capture_intercept.h"
#include "importers/vulkan/layer/capture_recorder.h"

namespace fencescope_layer {

namespace {

constexpr size_t kMaxText = 200;

uint16_t TextLength(const char* text) {
  return text ? uint16_t(std::min(std::strlen(text), kMaxText)) : 0;
}

VKAPI_ATTR VkResult VKAPI_CALL
Layer_SetDebugUtilsObjectNameEXT(VkDevice device, const VkDebugUtilsObjectNameInfoEXT* info) {
  DeviceData& d = *DeviceOf(device);
  if (info->pObjectName) {
    const uint16_t length = TextLength(info->pObjectName);
    Out().Write(RecordType::kName,
                NameRecord{info->objectHandle, uint32_t(info->objectType), length},
                info->pObjectName, length);
    if (info->objectType == VK_OBJECT_TYPE_COMMAND_BUFFER) {
      const auto buffer = reinterpret_cast<VkCommandBuffer>(uintptr_t(info->objectHandle));
      std::lock_guard lock(d.labels_mutex);
      d.command_buffers[buffer].name.assign(info->pObjectName, length);
      d.any_command_buffer_labels = true;
    }
  }
  return d.SetDebugUtilsObjectNameEXT(device, info);
}

void WriteQueueLabel(VkQueue queue, QueueLabelOp op, const VkDebugUtilsLabelEXT* label) {
  const char* text = label ? label->pLabelName : nullptr;
  const uint16_t length = TextLength(text);
  Out().Write(RecordType::kQueueLabel, QueueLabelRecord{H(queue), NowNs(), uint32_t(op), length},
              text, length);
}

VKAPI_ATTR void VKAPI_CALL Layer_QueueBeginDebugUtilsLabelEXT(VkQueue queue,
                                                              const VkDebugUtilsLabelEXT* label) {
  WriteQueueLabel(queue, QueueLabelOp::kBegin, label);
  DeviceOf(queue)->QueueBeginDebugUtilsLabelEXT(queue, label);
}
VKAPI_ATTR void VKAPI_CALL Layer_QueueEndDebugUtilsLabelEXT(VkQueue queue) {
  WriteQueueLabel(queue, QueueLabelOp::kEnd, nullptr);
  DeviceOf(queue)->QueueEndDebugUtilsLabelEXT(queue);
}
VKAPI_ATTR void VKAPI_CALL Layer_QueueInsertDebugUtilsLabelEXT(VkQueue queue,
                                                               const VkDebugUtilsLabelEXT* label) {
  WriteQueueLabel(queue, QueueLabelOp::kInsert, label);
  DeviceOf(queue)->QueueInsertDebugUtilsLabelEXT(queue, label);
}

VKAPI_ATTR void VKAPI_CALL Layer_CmdBeginDebugUtilsLabelEXT(VkCommandBuffer buffer,
                                                            const VkDebugUtilsLabelEXT* label) {
  DeviceData& d = *DeviceOf(buffer);
  {
    std::lock_guard lock(d.labels_mutex);
    CommandBufferLabels& labels = d.command_buffers[buffer];
    if (labels.depth++ == 0 && label && label->pLabelName) {
      labels.labels.emplace_back(label->pLabelName, TextLength(label->pLabelName));
    }
    d.any_command_buffer_labels = true;
  }
  d.CmdBeginDebugUtilsLabelEXT(buffer, label);
}
VKAPI_ATTR void VKAPI_CALL Layer_CmdEndDebugUtilsLabelEXT(VkCommandBuffer buffer) {
  DeviceData& d = *DeviceOf(buffer);
  {
    std::lock_guard lock(d.labels_mutex);
    CommandBufferLabels& labels = d.command_buffers[buffer];
    if (labels.depth > 0) --labels.depth;
  }
  d.CmdEndDebugUtilsLabelEXT(buffer);
}

// A new recording forgets the labels of the last one (the name stays).
VKAPI_ATTR VkResult VKAPI_CALL Layer_BeginCommandBuffer(VkCommandBuffer buffer,
                                                        const VkCommandBufferBeginInfo* info) {
  DeviceData& d = *DeviceOf(buffer);
  if (d.any_command_buffer_labels.load(std::memory_order_relaxed)) {
    std::lock_guard lock(d.labels_mutex);
    auto it = d.command_buffers.find(buffer);
    if (it != d.command_buffers.end()) {
      it->second.labels.clear();
      it->second.depth = 0;
    }
  }
  return d.BeginCommandBuffer(buffer, info);
}

// Freed buffers forget their names and labels (a new buffer may get the same handle).
VKAPI_ATTR void VKAPI_CALL Layer_FreeCommandBuffers(VkDevice device, VkCommandPool pool,
                                                    uint32_t count,
                                                    const VkCommandBuffer* buffers) {
  DeviceData& d = *DeviceOf(device);
  if (d.any_command_buffer_labels.load(std::memory_order_relaxed)) {
    std::lock_guard lock(d.labels_mutex);
    for (uint32_t i = 0; i < count; ++i) d.command_buffers.erase(buffers[i]);
  }
  d.FreeCommandBuffers(device, pool, count, buffers);
}

template <class Get>
std::string Label(DeviceData& d, uint32_t count, Get get) {
  if (count == 0 || !d.any_command_buffer_labels.load(std::memory_order_relaxed)) return {};
  std::string name;
  std::lock_guard lock(d.labels_mutex);
  for (uint32_t i = 0; i < count; ++i) {
    auto it = d.command_buffers.find(get(i));
    if (it == d.command_buffers.end()) continue;
    const CommandBufferLabels& labels = it->second;
    std::string part;
    for (const std::string& label : labels.labels) part += (part.empty() ? "" : ", ") + label;
    if (part.empty()) part = labels.name;
    if (!part.empty()) name += (name.empty() ? "" : " + ") + part;
  }
  return name;
}

}  // namespace

std::string BatchLabel(DeviceData& d, const VkCommandBuffer* buffers, uint32_t count) {
  return Label(d, count, [&](uint32_t i) { return buffers[i]; });
}
std::string BatchLabel(DeviceData& d, const VkCommandBufferSubmitInfo* infos, uint32_t count) {
  return Label(d, count, [&](uint32_t i) { return infos[i].commandBuffer; });
}

void WriteBatchName(uint64_t batch, const std::string& name) {
  if (name.empty()) return;
  const uint16_t length = uint16_t(std::min(name.size(), size_t(1024)));
  Out().Write(RecordType::kBatchName, BatchNameRecord{batch, length, 0}, name.data(), length);
}

PFN_vkVoidFunction LabelFunction(const char* name) {
  static const NamedFunction kEntries[] = {
      FS_LAYER_FUNCTION(SetDebugUtilsObjectNameEXT) FS_LAYER_FUNCTION(QueueBeginDebugUtilsLabelEXT)
          FS_LAYER_FUNCTION(QueueEndDebugUtilsLabelEXT) FS_LAYER_FUNCTION(
              QueueInsertDebugUtilsLabelEXT) FS_LAYER_FUNCTION(CmdBeginDebugUtilsLabelEXT)
              FS_LAYER_FUNCTION(CmdEndDebugUtilsLabelEXT) FS_LAYER_FUNCTION(BeginCommandBuffer)
                  FS_LAYER_FUNCTION(FreeCommandBuffers)};
  return FindFunction(kEntries, name);
}

}  // namespace fencescope_layer
