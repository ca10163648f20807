// Status polls as CPU waits: vkGetFenceStatus, vkGetSemaphoreCounterValue(KHR). A thread that
// polls an object until it finds it signalled was waiting for it: the polls from the first
// that found it not signalled (for a timeline semaphore: read a value that the next change
// raises) to the first that found it signalled make one PollWait record. A run ends unrecorded
// when the thread makes any other recorded Vulkan call in between (it was doing other work, as
// a renderer that checks a frame's fence once per frame does), or a poll fails. Each thread
// keeps its runs to itself: no lock.
#include <cstring>
#include <unordered_map>

#include "importers/vulkan/layer/capture_device.h"
#include "importers/vulkan/layer/capture_intercept.h"
#include "importers/vulkan/layer/capture_recorder.h"
#include "importers/vulkan/layer/capture_timing.h"

namespace fencescope_layer {

namespace {

struct Run {
  uint64_t begin_ns = 0;
  uint64_t value = 0;  // semaphores: the value read by the polls so far
  uint32_t polls = 0;
  uint64_t mark = 0;  // the thread's other-record count when the run started
};

std::unordered_map<uint64_t, Run>& Runs() {
  static thread_local std::unordered_map<uint64_t, Run> runs;
  return runs;
}

// The run of `object` if it is still going (no other record written by this thread since).
Run* Going(uint64_t object) {
  auto& runs = Runs();
  auto it = runs.find(object);
  if (it == runs.end()) return nullptr;
  if (it->second.mark != OtherRecordsOfThisThread()) {
    runs.erase(it);
    return nullptr;
  }
  return &it->second;
}

void StartRun(uint64_t object, uint64_t begin, uint64_t value) {
  Runs()[object] = Run{begin, value, 1, OtherRecordsOfThisThread()};
}

void EndRun(uint64_t object, const Run& run, uint64_t end, uint64_t value, CpuWaitObject kind) {
  Out().Write(RecordType::kPollWait,
              PollWaitRecord{g_next_id.fetch_add(1), object, run.value, value, run.begin_ns, end,
                             uint32_t(kind), run.polls + 1});
  Runs().erase(object);
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_GetFenceStatus(VkDevice device, VkFence fence) {
  DeviceData& d = *DeviceOf(device);
  if (!Out().active()) return d.GetFenceStatus(device, fence);
  const uint64_t begin = NowNs();
  const VkResult result = d.GetFenceStatus(device, fence);
  const uint64_t end = NowNs();
  Run* run = Going(H(fence));
  if (result == VK_NOT_READY) {
    if (run) {
      ++run->polls;
    } else {
      StartRun(H(fence), begin, 0);
    }
  } else if (result == VK_SUCCESS && run) {
    EndRun(H(fence), *run, end, 1, CpuWaitObject::kFence);
    CollectAll(d);
  } else if (run) {
    Runs().erase(H(fence));
  }
  return result;
}

void SemaphorePolled(DeviceData& d, VkSemaphore semaphore, VkResult result, uint64_t value,
                     uint64_t begin) {
  const uint64_t end = NowNs();
  Run* run = Going(H(semaphore));
  if (result != VK_SUCCESS) {
    if (run) Runs().erase(H(semaphore));
    return;
  }
  if (run && value == run->value) {
    ++run->polls;
    return;
  }
  if (run && value > run->value) {
    EndRun(H(semaphore), *run, end, value, CpuWaitObject::kSemaphore);
    CollectAll(d);
  }
  // The value read now is where a wait for a higher one would start.
  StartRun(H(semaphore), begin, value);
}

template <PFN_vkGetSemaphoreCounterValue DeviceData::*next>
VkResult SemaphoreCounterValue(VkDevice device, VkSemaphore semaphore, uint64_t* value) {
  DeviceData& d = *DeviceOf(device);
  if (!Out().active()) return (d.*next)(device, semaphore, value);
  const uint64_t begin = NowNs();
  const VkResult result = (d.*next)(device, semaphore, value);
  SemaphorePolled(d, semaphore, result, *value, begin);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_GetSemaphoreCounterValue(VkDevice device,
                                                              VkSemaphore semaphore,
                                                              uint64_t* value) {
  return SemaphoreCounterValue<&DeviceData::GetSemaphoreCounterValue>(device, semaphore, value);
}
VKAPI_ATTR VkResult VKAPI_CALL Layer_GetSemaphoreCounterValueKHR(VkDevice device,
                                                                 VkSemaphore semaphore,
                                                                 uint64_t* value) {
  return SemaphoreCounterValue<&DeviceData::GetSemaphoreCounterValueKHR>(device, semaphore, value);
}

}  // namespace

PFN_vkVoidFunction PollFunction(const char* name) {
  static const NamedFunction kEntries[] = {FS_LAYER_FUNCTION(GetFenceStatus) FS_LAYER_FUNCTION(
      GetSemaphoreCounterValue) FS_LAYER_FUNCTION(GetSemaphoreCounterValueKHR)};
  return FindFunction(kEntries, name);
}

}  // namespace fencescope_layer
