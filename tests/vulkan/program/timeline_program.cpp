// A Vulkan program with a known pattern of queue work, semaphores, fences and host waits, for
// the capture tests (tests/vulkan/capture_test.cpp). On one queue (lavapipe has one):
//   batch 1 (vkQueueSubmit):  waits timeline T >= 1; signals T = 2 and binary B
//   batch 2 (vkQueueSubmit2): waits B and T >= 2;    signals T = 3 and fence F
//   host:  vkSignalSemaphore(T, 1) from a second thread, which lets batch 1 run (submitted
//          before it; a driver without wait-before-signal holds the submitting thread until)
//   host:  vkWaitSemaphores(T >= 3), vkWaitForFences(F), vkQueueWaitIdle, vkDeviceWaitIdle
//   polls: the main thread polls vkGetSemaphoreCounterValue(T) (first poll reads 3) until a
//          third thread, told of that first poll, signals T = 4 from the host; then polls
//          vkGetFenceStatus(F2) (first poll: not ready) until batch 3, which the third thread
//          submits only after that first poll, signals F2:
//   batch 3 (vkQueueSubmit, third thread): no waits; signals fence F2
// Debug-utils names: the queue "main queue", T "T", B "B", F "F", F2 "F2", the command buffers
// "first cb", "second cb", "third cb". Labels: queue label "frame 1" begun before batch 1 and
// ended after batch 2, "between batches" inserted after batch 1; in the first command buffer
// the labels "draw pass" and "copy pass" (and "inner", nested in "draw pass").
// Options: --hang (sleep after the polls until killed), --ignore-sigint.
// Exit 77 (with the reason on stderr) when there is no Vulkan 1.3 device with timeline
// semaphores and synchronization2, or no VK_EXT_debug_utils.
#include <unistd.h>
#include <vulkan/vulkan.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace {

int Fail(const char* what, VkResult r) {
  std::fprintf(stderr, "timeline_program: %s failed (VkResult %d)\n", what, int(r));
  return 1;
}

#define CHECK(call)                               \
  do {                                            \
    const VkResult r_ = (call);                   \
    if (r_ != VK_SUCCESS) return Fail(#call, r_); \
  } while (0)

bool HasDebugUtils() {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
  for (const auto& e : extensions) {
    if (std::strcmp(e.extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) == 0) return true;
  }
  return false;
}

// The debug-utils functions, looked up on the device (through the layers).
struct DebugUtils {
  PFN_vkSetDebugUtilsObjectNameEXT name = nullptr;
  PFN_vkQueueBeginDebugUtilsLabelEXT queue_begin = nullptr;
  PFN_vkQueueEndDebugUtilsLabelEXT queue_end = nullptr;
  PFN_vkQueueInsertDebugUtilsLabelEXT queue_insert = nullptr;
  PFN_vkCmdBeginDebugUtilsLabelEXT cmd_begin = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT cmd_end = nullptr;
  VkDevice device = VK_NULL_HANDLE;

  DebugUtils() = default;
  explicit DebugUtils(VkDevice d) : device(d) {
#define FS_GET(member, function) \
  member = reinterpret_cast<PFN_##function>(vkGetDeviceProcAddr(d, #function))
    FS_GET(name, vkSetDebugUtilsObjectNameEXT);
    FS_GET(queue_begin, vkQueueBeginDebugUtilsLabelEXT);
    FS_GET(queue_end, vkQueueEndDebugUtilsLabelEXT);
    FS_GET(queue_insert, vkQueueInsertDebugUtilsLabelEXT);
    FS_GET(cmd_begin, vkCmdBeginDebugUtilsLabelEXT);
    FS_GET(cmd_end, vkCmdEndDebugUtilsLabelEXT);
#undef FS_GET
  }
  bool ok() const {
    return name && queue_begin && queue_end && queue_insert && cmd_begin && cmd_end;
  }
  void Name(VkObjectType type, uint64_t handle, const char* text) const {
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = text;
    name(device, &info);
  }
  static VkDebugUtilsLabelEXT Label(const char* text) {
    VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
    label.pLabelName = text;
    return label;
  }
};

template <class T>
uint64_t Handle(T handle) {
  return uint64_t(reinterpret_cast<uintptr_t>(handle));
}

void WaitFor(const std::atomic<bool>& flag) {
  while (!flag.load()) usleep(200);
}

// The program's objects and its steps, in the order main() runs them; each step returns 0, or
// the exit code (1: a call failed, 77: no suitable Vulkan).
struct Program {
  VkInstance instance = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cbs[3] = {};
  DebugUtils debug;
  VkSemaphore timeline = VK_NULL_HANDLE, binary = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE, fence2 = VK_NULL_HANDLE;

  int Open();
  int Record();
  int CreateSyncObjects();
  int SubmitAndWait();
  int Poll();
  void Destroy();
};

int Program::Open() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "timeline_program";
  app.apiVersion = VK_API_VERSION_1_3;
  if (!HasDebugUtils()) {
    std::fprintf(stderr, "timeline_program: the Vulkan loader has no VK_EXT_debug_utils\n");
    return 77;
  }
  const char* debug_utils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkInstanceCreateInfo instance_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  instance_info.pApplicationInfo = &app;
  instance_info.enabledExtensionCount = 1;
  instance_info.ppEnabledExtensionNames = &debug_utils;
  if (VkResult r = vkCreateInstance(&instance_info, nullptr, &instance); r != VK_SUCCESS) {
    std::fprintf(stderr, "timeline_program: no Vulkan: vkCreateInstance returned %d\n", int(r));
    return 77;
  }
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance, &count, nullptr);
  std::vector<VkPhysicalDevice> physicals(count);
  vkEnumeratePhysicalDevices(instance, &count, physicals.data());
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  for (VkPhysicalDevice p : physicals) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(p, &props);
    if (props.apiVersion >= VK_API_VERSION_1_3) {
      physical = p;
      break;
    }
  }
  if (!physical) {
    std::fprintf(stderr, "timeline_program: no Vulkan 1.3 device (%u devices)\n", count);
    return 77;
  }
  VkPhysicalDeviceVulkan13Features features13{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features features12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                              &features13};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &features12};
  vkGetPhysicalDeviceFeatures2(physical, &features);
  if (!features12.timelineSemaphore || !features13.synchronization2) {
    std::fprintf(stderr,
                 "timeline_program: the device lacks timeline semaphores or "
                 "synchronization2\n");
    return 77;
  }
  VkPhysicalDeviceVulkan13Features enable13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  enable13.synchronization2 = VK_TRUE;
  VkPhysicalDeviceVulkan12Features enable12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            &enable13};
  enable12.timelineSemaphore = VK_TRUE;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = 0;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &enable12};
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  CHECK(vkCreateDevice(physical, &device_info, nullptr, &device));
  vkGetDeviceQueue(device, 0, 0, &queue);
  return 0;
}

int Program::Record() {
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.queueFamilyIndex = 0;
  CHECK(vkCreateCommandPool(device, &pool_info, nullptr, &pool));
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = pool;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 3;
  CHECK(vkAllocateCommandBuffers(device, &alloc, cbs));
  debug = DebugUtils(device);
  if (!debug.ok()) {
    std::fprintf(stderr, "timeline_program: the device has no VK_EXT_debug_utils functions\n");
    return 77;
  }
  const char* cb_names[3] = {"first cb", "second cb", "third cb"};
  for (int i = 0; i < 3; ++i) {
    debug.Name(VK_OBJECT_TYPE_COMMAND_BUFFER, Handle(cbs[i]), cb_names[i]);
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cbs[i], &begin));
    if (i == 0) {
      for (const char* pass : {"draw pass", "copy pass"}) {
        const VkDebugUtilsLabelEXT label = DebugUtils::Label(pass);
        debug.cmd_begin(cbs[i], &label);
        if (pass[0] == 'd') {
          const VkDebugUtilsLabelEXT inner = DebugUtils::Label("inner");
          debug.cmd_begin(cbs[i], &inner);
          debug.cmd_end(cbs[i]);
        }
        debug.cmd_end(cbs[i]);
      }
    }
    CHECK(vkEndCommandBuffer(cbs[i]));
  }
  debug.Name(VK_OBJECT_TYPE_QUEUE, Handle(queue), "main queue");
  return 0;
}

int Program::CreateSyncObjects() {
  VkSemaphoreTypeCreateInfo timeline_type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  timeline_type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  timeline_type.initialValue = 0;
  VkSemaphoreCreateInfo timeline_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &timeline_type};
  CHECK(vkCreateSemaphore(device, &timeline_info, nullptr, &timeline));
  VkSemaphoreCreateInfo binary_info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  CHECK(vkCreateSemaphore(device, &binary_info, nullptr, &binary));
  VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  CHECK(vkCreateFence(device, &fence_info, nullptr, &fence));
  CHECK(vkCreateFence(device, &fence_info, nullptr, &fence2));
  debug.Name(VK_OBJECT_TYPE_SEMAPHORE, Handle(timeline), "T");
  debug.Name(VK_OBJECT_TYPE_SEMAPHORE, Handle(binary), "B");
  debug.Name(VK_OBJECT_TYPE_FENCE, Handle(fence), "F");
  debug.Name(VK_OBJECT_TYPE_FENCE, Handle(fence2), "F2");
  return 0;
}

// Batches 1 and 2, the host signal T = 1, then the host waits.
int Program::SubmitAndWait() {
  // Batch 1: wait T >= 1; signal T = 2 and B.
  const uint64_t wait1 = 1;
  const uint64_t signal1[2] = {2, 0};
  VkTimelineSemaphoreSubmitInfo values{VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO};
  values.waitSemaphoreValueCount = 1;
  values.pWaitSemaphoreValues = &wait1;
  values.signalSemaphoreValueCount = 2;
  values.pSignalSemaphoreValues = signal1;
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  const VkSemaphore signals1[2] = {timeline, binary};
  VkSubmitInfo submit1{VK_STRUCTURE_TYPE_SUBMIT_INFO, &values};
  submit1.waitSemaphoreCount = 1;
  submit1.pWaitSemaphores = &timeline;
  submit1.pWaitDstStageMask = &stage;
  submit1.commandBufferCount = 1;
  submit1.pCommandBuffers = &cbs[0];
  submit1.signalSemaphoreCount = 2;
  submit1.pSignalSemaphores = signals1;
  std::thread signaller([&] {
    usleep(50000);
    VkSemaphoreSignalInfo host_signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    host_signal.semaphore = timeline;
    host_signal.value = 1;
    if (vkSignalSemaphore(device, &host_signal) != VK_SUCCESS) std::abort();
  });
  const VkDebugUtilsLabelEXT frame = DebugUtils::Label("frame 1");
  debug.queue_begin(queue, &frame);
  CHECK(vkQueueSubmit(queue, 1, &submit1, VK_NULL_HANDLE));
  const VkDebugUtilsLabelEXT between = DebugUtils::Label("between batches");
  debug.queue_insert(queue, &between);

  // Batch 2: wait B and T >= 2; signal T = 3 and the fence.
  VkSemaphoreSubmitInfo waits2[2] = {{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, binary, 0,
                                      VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0},
                                     {VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, timeline, 2,
                                      VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0}};
  VkSemaphoreSubmitInfo signal2{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, nullptr, timeline, 3,
                                VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,    0};
  VkCommandBufferSubmitInfo cb2{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, cbs[1], 0};
  VkSubmitInfo2 submit2{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  submit2.waitSemaphoreInfoCount = 2;
  submit2.pWaitSemaphoreInfos = waits2;
  submit2.commandBufferInfoCount = 1;
  submit2.pCommandBufferInfos = &cb2;
  submit2.signalSemaphoreInfoCount = 1;
  submit2.pSignalSemaphoreInfos = &signal2;
  CHECK(vkQueueSubmit2(queue, 1, &submit2, fence));
  debug.queue_end(queue);

  signaller.join();

  const uint64_t wait_value = 3;
  VkSemaphoreWaitInfo wait_info{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wait_info.semaphoreCount = 1;
  wait_info.pSemaphores = &timeline;
  wait_info.pValues = &wait_value;
  CHECK(vkWaitSemaphores(device, &wait_info, UINT64_MAX));
  CHECK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));
  CHECK(vkQueueWaitIdle(queue));
  CHECK(vkDeviceWaitIdle(device));
  return 0;
}

// The runs of polls of T and F2, each begun before what ends it can happen.
int Program::Poll() {
  std::atomic<bool> polled_timeline{false}, polled_fence{false};
  VkResult helper_result = VK_SUCCESS;
  std::thread helper([&] {
    WaitFor(polled_timeline);
    VkSemaphoreSignalInfo host_signal{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    host_signal.semaphore = timeline;
    host_signal.value = 4;
    helper_result = vkSignalSemaphore(device, &host_signal);
    WaitFor(polled_fence);
    VkSubmitInfo submit3{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit3.commandBufferCount = 1;
    submit3.pCommandBuffers = &cbs[2];
    if (helper_result == VK_SUCCESS) helper_result = vkQueueSubmit(queue, 1, &submit3, fence2);
  });
  // The helper is released on every path, so that it can be joined.
  VkResult status = VK_SUCCESS;
  const char* failed = nullptr;
  uint64_t value = 0;
  if ((status = vkGetSemaphoreCounterValue(device, timeline, &value)) != VK_SUCCESS || value != 3) {
    failed = "the first poll of T (an error, or not 3)";
  }
  polled_timeline = true;
  while (!failed && value < 4) {
    if ((status = vkGetSemaphoreCounterValue(device, timeline, &value)) != VK_SUCCESS) {
      failed = "a poll of T";
    }
  }
  if (!failed && (status = vkGetFenceStatus(device, fence2)) != VK_NOT_READY) {
    failed = "the first poll of F2 (not VK_NOT_READY)";
  }
  polled_fence = true;
  while (!failed && status == VK_NOT_READY) status = vkGetFenceStatus(device, fence2);
  helper.join();
  if (failed) return Fail(failed, status);
  CHECK(status);
  CHECK(helper_result);
  return 0;
}

void Program::Destroy() {
  vkDestroyFence(device, fence2, nullptr);
  vkDestroyFence(device, fence, nullptr);
  vkDestroySemaphore(device, binary, nullptr);
  vkDestroySemaphore(device, timeline, nullptr);
  vkDestroyCommandPool(device, pool, nullptr);
  vkDestroyDevice(device, nullptr);
  vkDestroyInstance(instance, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
  bool hang = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--hang") == 0) hang = true;
    if (std::strcmp(argv[i], "--ignore-sigint") == 0) std::signal(SIGINT, SIG_IGN);
  }
  Program program;
  for (auto step : {&Program::Open, &Program::Record, &Program::CreateSyncObjects,
                    &Program::SubmitAndWait, &Program::Poll}) {
    if (const int code = (program.*step)(); code != 0) return code;
  }
  std::printf("timeline_program: done\n");
  std::fflush(stdout);
  if (hang) {
    for (;;) pause();
  }
  program.Destroy();
  return 0;
}
