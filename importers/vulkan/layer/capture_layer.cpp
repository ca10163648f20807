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
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "importers/vulkan/vk_record_format.h"

#define FS_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using namespace importers::vulkan;

constexpr char kLayerName[] = "VK_LAYER_FENCESCOPE_capture";

uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

uint32_t Tid() {
  static thread_local uint32_t tid = uint32_t(syscall(SYS_gettid));
  return tid;
}

template <class T>
uint64_t H(T handle) {
  return uint64_t(reinterpret_cast<uintptr_t>(handle));
}

// ---- Record output ------------------------------------------------------------------------

struct ThreadBuffer {
  std::mutex mutex;
  std::vector<uint8_t> bytes;
};

class Recorder {
 public:
  // Opens the output on first use; false when it cannot be created (then nothing is recorded).
  bool Start() {
    std::lock_guard lock(m_state);
    if (m_users++ > 0) return m_fd >= 0;
    if (m_fd < 0) Open();
    if (m_fd >= 0) {
      m_stop = false;
      m_thread = std::thread([this] { Run(); });
    }
    return m_fd >= 0;
  }
  // The last user stops the writer thread after a final flush (the loader unloads the layer
  // after the last vkDestroyInstance).
  void Stop() {
    std::unique_lock lock(m_state);
    if (m_users == 0 || --m_users > 0) return;
    StopThread(lock);
  }
  ~Recorder() {
    std::unique_lock lock(m_state);
    StopThread(lock);
    if (m_fd >= 0) close(m_fd);
  }

  bool active() const { return m_active.load(std::memory_order_relaxed); }

  template <class Payload>
  void Write(RecordType type, const Payload& payload, const void* extra = nullptr,
             uint16_t extra_size = 0) {
    if (!active()) return;
    ThreadBuffer& buffer = Buffer();
    RecordHeader header{type, uint16_t(sizeof(RecordHeader) + sizeof(Payload) + extra_size), Tid()};
    std::lock_guard lock(buffer.mutex);
    auto& b = buffer.bytes;
    const size_t at = b.size();
    b.resize(at + header.size);
    std::memcpy(b.data() + at, &header, sizeof header);
    std::memcpy(b.data() + at + sizeof header, &payload, sizeof payload);
    if (extra_size) std::memcpy(b.data() + at + sizeof header + sizeof payload, extra, extra_size);
  }

 private:
  void Open() {
    const char* env = std::getenv("FENCESCOPE_CAPTURE_OUT");
    std::string path = env && *env ? env : "";
    const std::string file_name = "fencescope-" + std::to_string(getpid()) + ".fsvk";
    struct stat st;
    if (path.empty()) {
      path = file_name;
    } else if (path.back() == '/' || (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))) {
      if (path.back() != '/') path += '/';
      path += std::to_string(getpid()) + ".fsvk";
    }
    m_fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (m_fd < 0) return;
    m_active = true;
    FileHeader header;
    header.pid = uint32_t(getpid());
    header.start_cpu_ns = NowNs();
    if (FILE* comm = std::fopen("/proc/self/comm", "r")) {
      if (std::fgets(header.process_name, sizeof header.process_name, comm)) {
        header.process_name[std::strcspn(header.process_name, "\n")] = 0;
      }
      std::fclose(comm);
    }
    // Straight to the file, so that it is the first record whatever thread writes next.
    RecordHeader record{RecordType::kFileHeader,
                        uint16_t(sizeof(RecordHeader) + sizeof(FileHeader)), Tid()};
    uint8_t bytes[sizeof record + sizeof header];
    std::memcpy(bytes, &record, sizeof record);
    std::memcpy(bytes + sizeof record, &header, sizeof header);
    if (::write(m_fd, bytes, sizeof bytes) != ssize_t(sizeof bytes)) {
      m_active = false;
    }
  }

  ThreadBuffer& Buffer() {
    static thread_local std::shared_ptr<ThreadBuffer> mine;
    if (!mine) {
      mine = std::make_shared<ThreadBuffer>();
      mine->bytes.reserve(64 * 1024);
      {
        std::lock_guard lock(m_buffers_mutex);
        m_buffers.push_back(mine);
      }
      ThreadRecord thread{NowNs(), {}};
      const std::string comm = "/proc/self/task/" + std::to_string(Tid()) + "/comm";
      if (FILE* f = std::fopen(comm.c_str(), "r")) {
        if (std::fgets(thread.name, sizeof thread.name, f)) {
          thread.name[std::strcspn(thread.name, "\n")] = 0;
        }
        std::fclose(f);
      }
      RecordHeader header{RecordType::kThread,
                          uint16_t(sizeof(RecordHeader) + sizeof(ThreadRecord)), Tid()};
      std::lock_guard lock(mine->mutex);
      auto& b = mine->bytes;
      const size_t at = b.size();
      b.resize(at + header.size);
      std::memcpy(b.data() + at, &header, sizeof header);
      std::memcpy(b.data() + at + sizeof header, &thread, sizeof thread);
    }
    return *mine;
  }

  void Flush() {
    std::vector<std::shared_ptr<ThreadBuffer>> buffers;
    {
      std::lock_guard lock(m_buffers_mutex);
      buffers = m_buffers;
    }
    for (auto& buffer : buffers) {
      {
        std::lock_guard lock(buffer->mutex);
        if (buffer->bytes.empty()) continue;
        m_spare.swap(buffer->bytes);
        buffer->bytes.clear();
      }
      const uint8_t* p = m_spare.data();
      size_t left = m_spare.size();
      while (left > 0) {
        const ssize_t n = ::write(m_fd, p, left);
        if (n <= 0) break;
        p += n;
        left -= size_t(n);
      }
      m_spare.clear();
    }
  }

  void Run() {
    std::unique_lock lock(m_state);
    while (!m_stop) {
      m_wake.wait_for(lock, std::chrono::milliseconds(10));
      lock.unlock();
      Flush();
      lock.lock();
    }
  }

  void StopThread(std::unique_lock<std::mutex>& lock) {
    if (!m_thread.joinable()) return;
    m_stop = true;
    m_wake.notify_all();
    lock.unlock();
    m_thread.join();
    Flush();
    lock.lock();
  }

  std::mutex m_state;
  std::condition_variable m_wake;
  std::thread m_thread;
  bool m_stop = false;
  int m_users = 0;
  int m_fd = -1;
  std::atomic<bool> m_active{false};
  std::mutex m_buffers_mutex;
  std::vector<std::shared_ptr<ThreadBuffer>> m_buffers;
  std::vector<uint8_t> m_spare;  // writer thread only
};

Recorder& Out() {
  static Recorder recorder;
  return recorder;
}

std::atomic<uint64_t> g_next_id{1};

// ---- Dispatch ---------------------------------------------------------------------------

void* DispatchKey(const void* object) {
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
#define FS_DEVICE_FUNCS(X)                                                                       \
  X(DestroyDevice)                                                                               \
  X(GetDeviceQueue) X(GetDeviceQueue2) X(QueueSubmit) X(QueueSubmit2) X(QueueSubmit2KHR)         \
      X(QueueWaitIdle) X(DeviceWaitIdle) X(WaitForFences) X(WaitSemaphores) X(WaitSemaphoresKHR) \
          X(SignalSemaphore) X(SignalSemaphoreKHR) X(CreateSemaphore) X(CreateFence)             \
              X(QueuePresentKHR) X(AcquireNextImageKHR) X(AcquireNextImage2KHR)                  \
                  X(CreateCommandPool) X(DestroyCommandPool) X(AllocateCommandBuffers)           \
                      X(BeginCommandBuffer) X(EndCommandBuffer) X(CmdResetQueryPool)             \
                          X(CmdWriteTimestamp) X(CreateQueryPool) X(DestroyQueryPool)            \
                              X(GetQueryPoolResults) X(GetCalibratedTimestampsEXT)               \
                                  X(SetDebugUtilsObjectNameEXT)
#define FS_MEMBER(name) PFN_vk##name name = nullptr;
  FS_DEVICE_FUNCS(FS_MEMBER)
#undef FS_MEMBER
  std::mutex queues_mutex;  // guards the map only
  std::unordered_map<VkQueue, std::unique_ptr<QueueState>> queues;
  std::atomic<uint64_t> last_calibration_ns{0};
};

std::mutex g_maps_mutex;
std::unordered_map<void*, std::unique_ptr<InstanceData>> g_instances;
std::unordered_map<void*, std::unique_ptr<DeviceData>> g_devices;
// Physical device -> its instance's data (physical devices share the instance's key).
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

// ---- GPU timestamps around batches -------------------------------------------------------

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

void Calibrate(DeviceData& d, bool force) {
  if (!d.calibrated || !d.GetCalibratedTimestampsEXT) return;
  const uint64_t now = NowNs();
  uint64_t last = d.last_calibration_ns.load(std::memory_order_relaxed);
  if (!force && now - last < 1000000000ull) return;
  if (!d.last_calibration_ns.compare_exchange_strong(last, now)) return;
  VkCalibratedTimestampInfoEXT infos[2] = {
      {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr, VK_TIME_DOMAIN_DEVICE_EXT},
      {VK_STRUCTURE_TYPE_CALIBRATED_TIMESTAMP_INFO_EXT, nullptr,
       VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT}};
  uint64_t values[2] = {};
  uint64_t deviation = 0;
  if (d.GetCalibratedTimestampsEXT(d.device, 2, infos, values, &deviation) == VK_SUCCESS) {
    Out().Write(RecordType::kCalibration,
                CalibrationRecord{H(d.device), values[0], values[1], deviation});
  }
}

void SetupQueue(DeviceData& d, QueueState& q) {
  q.ready = true;
  if (q.family >= d.families.size() || d.families[q.family].timestampValidBits == 0) return;
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0,
                                    q.family};
  if (d.CreateCommandPool(d.device, &pool_info, nullptr, &q.pool) != VK_SUCCESS) return;
  VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                   nullptr,
                                   0,
                                   VK_QUERY_TYPE_TIMESTAMP,
                                   QueueState::kSlots * 2,
                                   0};
  if (d.CreateQueryPool(d.device, &query_info, nullptr, &q.queries) != VK_SUCCESS) return;
  std::vector<VkCommandBuffer> buffers(QueueState::kSlots * 2);
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, q.pool,
                                    VK_COMMAND_BUFFER_LEVEL_PRIMARY, uint32_t(buffers.size())};
  if (d.AllocateCommandBuffers(d.device, &alloc, buffers.data()) != VK_SUCCESS) return;
  q.slots.resize(QueueState::kSlots);
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, nullptr, 0, nullptr};
  for (uint32_t i = 0; i < QueueState::kSlots; ++i) {
    for (int which = 0; which < 2; ++which) {
      VkCommandBuffer cb = buffers[i * 2 + which];
      // Command buffers made by a layer carry the loader's dispatch pointer like the device's.
      if (d.set_loader_data) d.set_loader_data(d.device, cb);
      d.BeginCommandBuffer(cb, &begin);
      if (which == 0) {
        d.CmdResetQueryPool(cb, q.queries, i * 2, 2);
        d.CmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, q.queries, i * 2);
        q.slots[i].begin = cb;
      } else {
        d.CmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, q.queries, i * 2 + 1);
        q.slots[i].end = cb;
      }
      d.EndCommandBuffer(cb);
    }
  }
  q.timed = true;
}

QueueState* QueueOf(DeviceData& d, VkQueue queue) {
  std::lock_guard lock(d.queues_mutex);
  auto it = d.queues.find(queue);
  return it == d.queues.end() ? nullptr : it->second.get();
}

// Reads the results of finished batches, oldest first; with `wait`, waits for all of them.
void Collect(DeviceData& d, QueueState& q, bool wait) {
  while (q.timed && q.oldest != q.next) {
    QueueState::Slot& slot = q.slots[q.oldest];
    uint64_t ticks[2] = {};
    VkQueryResultFlags flags = VK_QUERY_RESULT_64_BIT | (wait ? VK_QUERY_RESULT_WAIT_BIT : 0);
    const VkResult r = d.GetQueryPoolResults(d.device, q.queries, q.oldest * 2, 2, sizeof ticks,
                                             ticks, sizeof(uint64_t), flags);
    if (r == VK_NOT_READY) return;
    if (r == VK_SUCCESS) {
      Out().Write(RecordType::kBatchGpu,
                  BatchGpuRecord{slot.batch_id, H(d.device), ticks[0], ticks[1]});
    }
    slot.batch_id = 0;
    q.oldest = (q.oldest + 1) % QueueState::kSlots;
  }
}

// A slot for a new batch; when the ring is full the oldest batch's results are waited for.
QueueState::Slot* TakeSlot(DeviceData& d, QueueState& q, uint64_t batch_id) {
  if (!q.timed) return nullptr;
  if ((q.next + 1) % QueueState::kSlots == q.oldest) {
    QueueState::Slot& slot = q.slots[q.oldest];
    uint64_t ticks[2] = {};
    if (d.GetQueryPoolResults(d.device, q.queries, q.oldest * 2, 2, sizeof ticks, ticks,
                              sizeof(uint64_t),
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS) {
      Out().Write(RecordType::kBatchGpu,
                  BatchGpuRecord{slot.batch_id, H(d.device), ticks[0], ticks[1]});
    }
    q.oldest = (q.oldest + 1) % QueueState::kSlots;
  }
  QueueState::Slot* slot = &q.slots[q.next];
  slot->batch_id = batch_id;
  q.next = (q.next + 1) % QueueState::kSlots;
  return slot;
}

bool HasDeviceGroupInfo(const void* next) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_DEVICE_GROUP_SUBMIT_INFO) return true;
  }
  return false;
}

template <class T>
const T* FindInChain(const void* next, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(next); s; s = s->pNext) {
    if (s->sType == type) return reinterpret_cast<const T*>(s);
  }
  return nullptr;
}

void WriteSync(uint64_t batch, uint64_t object, uint64_t value, uint64_t stages, SyncRole role) {
  Out().Write(RecordType::kBatchSync,
              BatchSyncRecord{batch, object, value, stages, uint32_t(role), 0});
}

// ---- Intercepted device functions --------------------------------------------------------

void GetDeviceQueueCommon(DeviceData& d, uint32_t family, uint32_t index, VkQueue queue) {
  if (!queue) return;
  {
    std::lock_guard lock(d.queues_mutex);
    auto& state = d.queues[queue];
    if (state) return;
    state = std::make_unique<QueueState>();
    state->queue = queue;
    state->family = family;
    state->index = index;
  }
  const VkQueueFamilyProperties props =
      family < d.families.size() ? d.families[family] : VkQueueFamilyProperties{};
  Out().Write(RecordType::kQueue, QueueRecord{H(d.device), H(queue), family, index,
                                              props.queueFlags, props.timestampValidBits});
}

VKAPI_ATTR void VKAPI_CALL Layer_GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index,
                                                VkQueue* queue) {
  DeviceData& d = *DeviceOf(device);
  d.GetDeviceQueue(device, family, index, queue);
  GetDeviceQueueCommon(d, family, index, *queue);
}

VKAPI_ATTR void VKAPI_CALL Layer_GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* info,
                                                 VkQueue* queue) {
  DeviceData& d = *DeviceOf(device);
  d.GetDeviceQueue2(device, info, queue);
  GetDeviceQueueCommon(d, info->queueFamilyIndex, info->queueIndex, *queue);
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_QueueSubmit(VkQueue queue, uint32_t count,
                                                 const VkSubmitInfo* submits, VkFence fence) {
  DeviceData& d = *DeviceOf(queue);
  QueueState* q = QueueOf(d, queue);
  if (!q || !Out().active()) return d.QueueSubmit(queue, count, submits, fence);
  const uint64_t now = NowNs();
  std::unique_lock queue_lock(q->mutex);
  if (!q->ready) SetupQueue(d, *q);
  Collect(d, *q, false);
  Calibrate(d, false);
  std::vector<VkSubmitInfo> copies(submits, submits + count);
  std::vector<std::vector<VkCommandBuffer>> buffers(count);
  std::vector<uint64_t> ids(count);
  std::vector<bool> timed(count, false);
  for (uint32_t i = 0; i < count; ++i) {
    ids[i] = g_next_id.fetch_add(1);
    if (HasDeviceGroupInfo(submits[i].pNext)) continue;
    QueueState::Slot* slot = TakeSlot(d, *q, ids[i]);
    if (!slot) continue;
    auto& list = buffers[i];
    list.reserve(submits[i].commandBufferCount + 2);
    list.push_back(slot->begin);
    list.insert(list.end(), submits[i].pCommandBuffers,
                submits[i].pCommandBuffers + submits[i].commandBufferCount);
    list.push_back(slot->end);
    copies[i].commandBufferCount = uint32_t(list.size());
    copies[i].pCommandBuffers = list.data();
    timed[i] = true;
  }
  queue_lock.unlock();
  const VkResult result = d.QueueSubmit(queue, count, copies.data(), fence);
  for (uint32_t i = 0; i < count; ++i) {
    const VkSubmitInfo& s = submits[i];
    Out().Write(RecordType::kBatch, BatchRecord{ids[i], H(queue), now, s.commandBufferCount,
                                                timed[i] ? 1u : 0u, 0, uint32_t(result)});
    auto* values = FindInChain<VkTimelineSemaphoreSubmitInfo>(
        s.pNext, VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO);
    for (uint32_t w = 0; w < s.waitSemaphoreCount; ++w) {
      const uint64_t value =
          values && w < values->waitSemaphoreValueCount && values->pWaitSemaphoreValues
              ? values->pWaitSemaphoreValues[w]
              : 0;
      WriteSync(ids[i], H(s.pWaitSemaphores[w]), value,
                s.pWaitDstStageMask ? s.pWaitDstStageMask[w] : 0, SyncRole::kWait);
    }
    for (uint32_t g = 0; g < s.signalSemaphoreCount; ++g) {
      const uint64_t value =
          values && g < values->signalSemaphoreValueCount && values->pSignalSemaphoreValues
              ? values->pSignalSemaphoreValues[g]
              : 0;
      WriteSync(ids[i], H(s.pSignalSemaphores[g]), value, 0, SyncRole::kSignal);
    }
    if (fence && i + 1 == count) WriteSync(ids[i], H(fence), 0, 0, SyncRole::kFence);
  }
  if (count == 0 && fence) {
    // A fence-only submission: signalled when the queue's earlier work is done.
    const uint64_t id = g_next_id.fetch_add(1);
    Out().Write(RecordType::kBatch, BatchRecord{id, H(queue), now, 0, 0, 0, uint32_t(result)});
    WriteSync(id, H(fence), 0, 0, SyncRole::kFence);
  }
  return result;
}

VkResult QueueSubmit2Common(PFN_vkQueueSubmit2 next, VkQueue queue, uint32_t count,
                            const VkSubmitInfo2* submits, VkFence fence) {
  DeviceData& d = *DeviceOf(queue);
  QueueState* q = QueueOf(d, queue);
  if (!q || !Out().active()) return next(queue, count, submits, fence);
  const uint64_t now = NowNs();
  std::unique_lock queue_lock(q->mutex);
  if (!q->ready) SetupQueue(d, *q);
  Collect(d, *q, false);
  Calibrate(d, false);
  std::vector<VkSubmitInfo2> copies(submits, submits + count);
  std::vector<std::vector<VkCommandBufferSubmitInfo>> buffers(count);
  std::vector<uint64_t> ids(count);
  std::vector<bool> timed(count, false);
  for (uint32_t i = 0; i < count; ++i) {
    ids[i] = g_next_id.fetch_add(1);
    QueueState::Slot* slot = TakeSlot(d, *q, ids[i]);
    if (!slot) continue;
    auto& list = buffers[i];
    list.reserve(submits[i].commandBufferInfoCount + 2);
    list.push_back({VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, slot->begin, 0});
    list.insert(list.end(), submits[i].pCommandBufferInfos,
                submits[i].pCommandBufferInfos + submits[i].commandBufferInfoCount);
    list.push_back({VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, slot->end, 0});
    copies[i].commandBufferInfoCount = uint32_t(list.size());
    copies[i].pCommandBufferInfos = list.data();
    timed[i] = true;
  }
  queue_lock.unlock();
  const VkResult result = next(queue, count, copies.data(), fence);
  for (uint32_t i = 0; i < count; ++i) {
    const VkSubmitInfo2& s = submits[i];
    Out().Write(RecordType::kBatch, BatchRecord{ids[i], H(queue), now, s.commandBufferInfoCount,
                                                timed[i] ? 1u : 0u, 1, uint32_t(result)});
    for (uint32_t w = 0; w < s.waitSemaphoreInfoCount; ++w) {
      const auto& info = s.pWaitSemaphoreInfos[w];
      WriteSync(ids[i], H(info.semaphore), info.value, info.stageMask, SyncRole::kWait);
    }
    for (uint32_t g = 0; g < s.signalSemaphoreInfoCount; ++g) {
      const auto& info = s.pSignalSemaphoreInfos[g];
      WriteSync(ids[i], H(info.semaphore), info.value, info.stageMask, SyncRole::kSignal);
    }
    if (fence && i + 1 == count) WriteSync(ids[i], H(fence), 0, 0, SyncRole::kFence);
  }
  if (count == 0 && fence) {
    const uint64_t id = g_next_id.fetch_add(1);
    Out().Write(RecordType::kBatch, BatchRecord{id, H(queue), now, 0, 0, 1, uint32_t(result)});
    WriteSync(id, H(fence), 0, 0, SyncRole::kFence);
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_QueueSubmit2(VkQueue queue, uint32_t count,
                                                  const VkSubmitInfo2* submits, VkFence fence) {
  return QueueSubmit2Common(DeviceOf(queue)->QueueSubmit2, queue, count, submits, fence);
}
VKAPI_ATTR VkResult VKAPI_CALL Layer_QueueSubmit2KHR(VkQueue queue, uint32_t count,
                                                     const VkSubmitInfo2* submits, VkFence fence) {
  return QueueSubmit2Common(DeviceOf(queue)->QueueSubmit2KHR, queue, count, submits, fence);
}

void WaitItem(uint64_t group, uint64_t object, uint64_t value, CpuWaitObject kind) {
  Out().Write(RecordType::kCpuWaitItem, CpuWaitItemRecord{group, object, value, uint32_t(kind), 0});
}
void WaitDone(uint64_t group, uint64_t begin, uint64_t timeout, VkResult result, bool all) {
  Out().Write(RecordType::kCpuWaitDone,
              CpuWaitDoneRecord{group, begin, NowNs(), timeout, int32_t(result), all ? 1u : 0u});
}

void CollectAll(DeviceData& d) {
  std::vector<QueueState*> queues;
  {
    std::lock_guard lock(d.queues_mutex);
    for (auto& [handle, state] : d.queues) queues.push_back(state.get());
  }
  for (QueueState* q : queues) {
    std::lock_guard lock(q->mutex);
    Collect(d, *q, false);
  }
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_QueueWaitIdle(VkQueue queue) {
  DeviceData& d = *DeviceOf(queue);
  const uint64_t group = g_next_id.fetch_add(1);
  const uint64_t begin = NowNs();
  WaitItem(group, H(queue), 0, CpuWaitObject::kQueue);
  const VkResult result = d.QueueWaitIdle(queue);
  WaitDone(group, begin, UINT64_MAX, result, true);
  if (QueueState* q = QueueOf(d, queue)) {
    std::lock_guard lock(q->mutex);
    Collect(d, *q, false);
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_DeviceWaitIdle(VkDevice device) {
  DeviceData& d = *DeviceOf(device);
  const uint64_t group = g_next_id.fetch_add(1);
  const uint64_t begin = NowNs();
  WaitItem(group, H(device), 0, CpuWaitObject::kDevice);
  const VkResult result = d.DeviceWaitIdle(device);
  WaitDone(group, begin, UINT64_MAX, result, true);
  CollectAll(d);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_WaitForFences(VkDevice device, uint32_t count,
                                                   const VkFence* fences, VkBool32 all,
                                                   uint64_t timeout) {
  DeviceData& d = *DeviceOf(device);
  const uint64_t group = g_next_id.fetch_add(1);
  const uint64_t begin = NowNs();
  for (uint32_t i = 0; i < count; ++i) WaitItem(group, H(fences[i]), 0, CpuWaitObject::kFence);
  const VkResult result = d.WaitForFences(device, count, fences, all, timeout);
  WaitDone(group, begin, timeout, result, all || count == 1);
  return result;
}

VkResult WaitSemaphoresCommon(PFN_vkWaitSemaphores next, VkDevice device,
                              const VkSemaphoreWaitInfo* info, uint64_t timeout) {
  const uint64_t group = g_next_id.fetch_add(1);
  const uint64_t begin = NowNs();
  for (uint32_t i = 0; i < info->semaphoreCount; ++i) {
    WaitItem(group, H(info->pSemaphores[i]), info->pValues[i], CpuWaitObject::kSemaphore);
  }
  const VkResult result = next(device, info, timeout);
  const bool any = (info->flags & VK_SEMAPHORE_WAIT_ANY_BIT) && info->semaphoreCount > 1;
  WaitDone(group, begin, timeout, result, !any);
  return result;
}
VKAPI_ATTR VkResult VKAPI_CALL Layer_WaitSemaphores(VkDevice device,
                                                    const VkSemaphoreWaitInfo* info,
                                                    uint64_t timeout) {
  return WaitSemaphoresCommon(DeviceOf(device)->WaitSemaphores, device, info, timeout);
}
VKAPI_ATTR VkResult VKAPI_CALL Layer_WaitSemaphoresKHR(VkDevice device,
                                                       const VkSemaphoreWaitInfo* info,
                                                       uint64_t timeout) {
  return WaitSemaphoresCommon(DeviceOf(device)->WaitSemaphoresKHR, device, info, timeout);
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_SignalSemaphore(VkDevice device,
                                                     const VkSemaphoreSignalInfo* info) {
  DeviceData& d = *DeviceOf(device);
  const uint64_t now = NowNs();
  const VkResult result = d.SignalSemaphore(device, info);
  if (result == VK_SUCCESS) {
    Out().Write(RecordType::kHostSignal, HostSignalRecord{H(info->semaphore), info->value, now});
  }
  return result;
}
VKAPI_ATTR VkResult VKAPI_CALL Layer_SignalSemaphoreKHR(VkDevice device,
                                                        const VkSemaphoreSignalInfo* info) {
  DeviceData& d = *DeviceOf(device);
  const uint64_t now = NowNs();
  const VkResult result = d.SignalSemaphoreKHR(device, info);
  if (result == VK_SUCCESS) {
    Out().Write(RecordType::kHostSignal, HostSignalRecord{H(info->semaphore), info->value, now});
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_CreateSemaphore(VkDevice device,
                                                     const VkSemaphoreCreateInfo* info,
                                                     const VkAllocationCallbacks* allocator,
                                                     VkSemaphore* semaphore) {
  DeviceData& d = *DeviceOf(device);
  const VkResult result = d.CreateSemaphore(device, info, allocator, semaphore);
  if (result == VK_SUCCESS) {
    auto* type = FindInChain<VkSemaphoreTypeCreateInfo>(
        info->pNext, VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
    const bool timeline = type && type->semaphoreType == VK_SEMAPHORE_TYPE_TIMELINE;
    Out().Write(RecordType::kSemaphore, SemaphoreRecord{H(device), H(*semaphore),
                                                        uint32_t(timeline ? SemaphoreKind::kTimeline
                                                                          : SemaphoreKind::kBinary),
                                                        0, timeline ? type->initialValue : 0});
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_CreateFence(VkDevice device, const VkFenceCreateInfo* info,
                                                 const VkAllocationCallbacks* allocator,
                                                 VkFence* fence) {
  DeviceData& d = *DeviceOf(device);
  const VkResult result = d.CreateFence(device, info, allocator, fence);
  if (result == VK_SUCCESS) {
    Out().Write(RecordType::kSemaphore,
                SemaphoreRecord{H(device), H(*fence), uint32_t(SemaphoreKind::kFence),
                                (info->flags & VK_FENCE_CREATE_SIGNALED_BIT) ? 1u : 0u, 0});
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR* info) {
  DeviceData& d = *DeviceOf(queue);
  const uint64_t now = NowNs();
  const VkResult result = d.QueuePresentKHR(queue, info);
  for (uint32_t i = 0; i < info->swapchainCount; ++i) {
    const VkResult one = info->pResults ? info->pResults[i] : result;
    Out().Write(RecordType::kPresent, PresentRecord{H(queue), H(info->pSwapchains[i]), now,
                                                    info->pImageIndices[i], int32_t(one)});
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_AcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                         uint64_t timeout, VkSemaphore semaphore,
                                                         VkFence fence, uint32_t* index) {
  DeviceData& d = *DeviceOf(device);
  const uint64_t begin = NowNs();
  const VkResult result =
      d.AcquireNextImageKHR(device, swapchain, timeout, semaphore, fence, index);
  Out().Write(RecordType::kAcquire,
              AcquireRecord{H(swapchain), H(semaphore), H(fence), begin, NowNs(),
                            result >= 0 ? *index : UINT32_MAX, int32_t(result)});
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL Layer_AcquireNextImage2KHR(VkDevice device,
                                                          const VkAcquireNextImageInfoKHR* info,
                                                          uint32_t* index) {
  DeviceData& d = *DeviceOf(device);
  const uint64_t begin = NowNs();
  const VkResult result = d.AcquireNextImage2KHR(device, info, index);
  Out().Write(RecordType::kAcquire,
              AcquireRecord{H(info->swapchain), H(info->semaphore), H(info->fence), begin, NowNs(),
                            result >= 0 ? *index : UINT32_MAX, int32_t(result)});
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL
Layer_SetDebugUtilsObjectNameEXT(VkDevice device, const VkDebugUtilsObjectNameInfoEXT* info) {
  DeviceData& d = *DeviceOf(device);
  if (info->pObjectName) {
    const size_t length = std::min<size_t>(std::strlen(info->pObjectName), 200);
    Out().Write(RecordType::kName,
                NameRecord{info->objectHandle, uint32_t(info->objectType), uint32_t(length)},
                info->pObjectName, uint16_t(length));
  }
  return d.SetDebugUtilsObjectNameEXT ? d.SetDebugUtilsObjectNameEXT(device, info) : VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL Layer_DestroyDevice(VkDevice device,
                                               const VkAllocationCallbacks* allocator) {
  std::unique_ptr<DeviceData> owned;
  {
    std::lock_guard lock(g_maps_mutex);
    auto it = g_devices.find(DispatchKey(device));
    if (it == g_devices.end()) return;
    owned = std::move(it->second);
    g_devices.erase(it);
  }
  DeviceData& d = *owned;
  for (auto& [handle, q] : d.queues) {
    // No other call can use the device any more.
    if (q->timed) {
      d.QueueWaitIdle(handle);
      Collect(d, *q, true);
    }
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
  std::unique_ptr<InstanceData> owned;
  {
    std::lock_guard lock(g_maps_mutex);
    auto it = g_instances.find(DispatchKey(instance));
    if (it == g_instances.end()) return;
    owned = std::move(it->second);
    g_instances.erase(it);
  }
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
  const bool calibrate = CanCalibrate(*inst, physical);
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
  struct Entry {
    const char* name;
    PFN_vkVoidFunction function;
  };
#define FS_ENTRY(name) {"vk" #name, reinterpret_cast<PFN_vkVoidFunction>(&Layer_##name)},
  static const Entry kEntries[] = {
      FS_ENTRY(GetDeviceProcAddr) FS_ENTRY(DestroyDevice) FS_ENTRY(GetDeviceQueue)
          FS_ENTRY(GetDeviceQueue2) FS_ENTRY(QueueSubmit) FS_ENTRY(QueueSubmit2)
              FS_ENTRY(QueueSubmit2KHR) FS_ENTRY(QueueWaitIdle) FS_ENTRY(DeviceWaitIdle)
                  FS_ENTRY(WaitForFences) FS_ENTRY(WaitSemaphores) FS_ENTRY(WaitSemaphoresKHR)
                      FS_ENTRY(SignalSemaphore) FS_ENTRY(SignalSemaphoreKHR)
                          FS_ENTRY(CreateSemaphore) FS_ENTRY(CreateFence) FS_ENTRY(QueuePresentKHR)
                              FS_ENTRY(AcquireNextImageKHR) FS_ENTRY(AcquireNextImage2KHR)
                                  FS_ENTRY(SetDebugUtilsObjectNameEXT)};
#undef FS_ENTRY
  for (const Entry& e : kEntries) {
    if (std::strcmp(e.name, name) == 0) return e.function;
  }
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL Layer_GetInstanceProcAddr(VkInstance instance,
                                                                   const char* name) {
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&Layer_GetInstanceProcAddr);
  }
  if (std::strcmp(name, "vkCreateInstance") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&Layer_CreateInstance);
  }
  if (std::strcmp(name, "vkDestroyInstance") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&Layer_DestroyInstance);
  }
  if (std::strcmp(name, "vkCreateDevice") == 0) {
    return reinterpret_cast<PFN_vkVoidFunction>(&Layer_CreateDevice);
  }
  if (PFN_vkVoidFunction own = DeviceFunction(name)) return own;
  InstanceData* inst = instance ? InstanceOf(instance) : nullptr;
  return inst ? inst->gipa(instance, name) : nullptr;
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
