// The record file written by the Vulkan capture layer (VK_LAYER_FENCESCOPE_capture) and read by
// the Vulkan record importer. Little-endian, native layout; written and read on one machine.
//
// The file is a sequence of records, each a RecordHeader followed by `size - sizeof(header)`
// bytes of the payload struct its type names (Name records add their text after the struct).
// Records of one thread are in call order; threads' records interleave by flush. A record cut
// short at the end of the file (the application was killed while writing) is ignored.
//
// Times: cpu_ns are CLOCK_MONOTONIC nanoseconds; gpu ticks are raw timestamp query values of
// the queue's device, converted with the device's Calibration records.
#pragma once

#include <cstdint>

namespace importers::vulkan {

inline constexpr uint64_t kRecordMagic = 0x3152565346534646ull;  // "FFSFSVR1"
inline constexpr uint32_t kRecordVersion = 1;

enum class RecordType : uint16_t {
  kFileHeader = 1,    // FileHeader: first record of a file
  kThread = 2,        // ThreadRecord + name: the first record of each thread
  kDevice = 3,        // DeviceRecord + name: a VkDevice and its physical device
  kQueue = 4,         // QueueRecord: a VkQueue first seen
  kCalibration = 5,   // CalibrationRecord: a pair of GPU and CPU clock samples
  kSemaphore = 6,     // SemaphoreRecord: a VkSemaphore created
  kBatch = 7,         // BatchRecord: one batch of vkQueueSubmit / vkQueueSubmit2
  kBatchSync = 8,     // BatchSyncRecord: one wait or signal of a batch (after its BatchRecord)
  kBatchGpu = 9,      // BatchGpuRecord: a batch's timestamps, once the GPU wrote them
  kHostSignal = 10,   // HostSignalRecord: vkSignalSemaphore
  kCpuWaitItem = 11,  // CpuWaitItemRecord: one object a CPU wait call waits on
  kCpuWaitDone = 12,  // CpuWaitDoneRecord: the CPU wait call returned
  kPresent = 13,      // PresentRecord: one swapchain image of vkQueuePresentKHR
  kAcquire = 14,      // AcquireRecord: vkAcquireNextImageKHR / vkAcquireNextImage2KHR
  kName = 15,         // NameRecord + text: a debug-utils object name
  kPollWait = 16,     // PollWaitRecord: a run of status polls that ended with the object signalled
  kQueueLabel = 17,   // QueueLabelRecord + text: vkQueue{Begin,End,Insert}DebugUtilsLabelEXT
  kBatchName = 18,    // BatchNameRecord + text: the command buffers' labels or names of a batch
};

struct RecordHeader {
  RecordType type;
  uint16_t size;  // header included
  uint32_t tid;   // calling thread (Linux tid)
};

struct FileHeader {
  uint64_t magic = kRecordMagic;
  uint32_t version = kRecordVersion;
  uint32_t pid = 0;
  uint64_t start_cpu_ns = 0;
  char process_name[32] = {};
};

struct ThreadRecord {
  uint64_t cpu_ns;
  char name[32];
};

struct DeviceRecord {
  uint64_t device;
  uint64_t physical_device;
  uint32_t vendor_id;
  uint32_t device_id;
  float timestamp_period_ns;  // VkPhysicalDeviceLimits::timestampPeriod
  uint32_t calibrated;        // VK_EXT_calibrated_timestamps enabled by the layer
  char name[64];
};

struct QueueRecord {
  uint64_t device;
  uint64_t queue;
  uint32_t family;
  uint32_t index;
  uint32_t flags;                 // VkQueueFlags of the family
  uint32_t timestamp_valid_bits;  // 0: no timestamps on this family
};

enum class CalibrationMethod : uint32_t {
  kCalibratedTimestamps = 0,  // vkGetCalibratedTimestampsEXT (device and CLOCK_MONOTONIC)
  kPairedSamples = 1,         // timestamp queries bracketed by CLOCK_MONOTONIC readings
};

struct CalibrationRecord {
  uint64_t device;
  uint64_t gpu_ticks;
  uint64_t cpu_ns;  // the CPU time of gpu_ticks
  uint64_t max_deviation_ns;
  uint32_t method;  // CalibrationMethod
  uint32_t samples;
};

enum class SemaphoreKind : uint32_t { kBinary = 0, kTimeline = 1, kFence = 2 };

struct SemaphoreRecord {
  uint64_t device;
  uint64_t semaphore;
  uint32_t kind;  // SemaphoreKind
  uint32_t reserved;
  uint64_t initial_value;
};

struct BatchRecord {
  uint64_t batch_id;  // unique in the process
  uint64_t queue;
  uint64_t cpu_ns;  // vkQueueSubmit entry
  uint32_t command_buffers;
  uint32_t timed;  // 1: timestamps written around the batch (a BatchGpu record follows)
  uint32_t submit2;
  uint32_t result;  // VkResult of the call
};

enum class SyncRole : uint32_t { kWait = 0, kSignal = 1, kFence = 2 };

struct BatchSyncRecord {
  uint64_t batch_id;
  uint64_t object;  // VkSemaphore, or the batch's VkFence
  uint64_t value;   // timeline value (0 for binary semaphores and fences)
  uint64_t stage_mask;
  uint32_t role;  // SyncRole
  uint32_t reserved;
};

struct BatchGpuRecord {
  uint64_t batch_id;
  uint64_t device;
  uint64_t start_ticks;
  uint64_t end_ticks;
};

struct HostSignalRecord {
  uint64_t semaphore;
  uint64_t value;
  uint64_t cpu_ns;
};

enum class CpuWaitObject : uint32_t { kFence = 0, kSemaphore = 1, kQueue = 2, kDevice = 3 };

struct CpuWaitItemRecord {
  uint64_t group;        // pairs the items with their CpuWaitDone
  uint64_t object;       // VkFence, VkSemaphore, VkQueue or VkDevice
  uint64_t value;        // timeline value for semaphores
  uint32_t object_kind;  // CpuWaitObject
  uint32_t reserved;
};

struct CpuWaitDoneRecord {
  uint64_t group;
  uint64_t begin_cpu_ns;
  uint64_t end_cpu_ns;
  uint64_t timeout_ns;
  int32_t result;     // VkResult
  uint32_t wait_all;  // 1: all objects (vkWaitForFences waitAll, semaphores without WAIT_ANY)
};

struct PresentRecord {
  uint64_t queue;
  uint64_t swapchain;
  uint64_t cpu_ns;
  uint32_t image_index;
  int32_t result;
};

struct AcquireRecord {
  uint64_t swapchain;
  uint64_t semaphore;  // signalled by the acquire, or 0
  uint64_t fence;      // signalled by the acquire, or 0
  uint64_t begin_cpu_ns;
  uint64_t end_cpu_ns;
  uint32_t image_index;
  int32_t result;
};

// Polls of one object by one thread (vkGetFenceStatus, vkGetSemaphoreCounterValue) from the
// first that found it not signalled to the first that found it signalled, with no other Vulkan
// call recorded on that thread in between: the thread was waiting by polling.
struct PollWaitRecord {
  uint64_t group;         // unique like a CPU wait's group
  uint64_t object;        // VkFence or VkSemaphore
  uint64_t value_before;  // semaphores: the value the first poll read (fences: 0)
  uint64_t value_after;   // semaphores: the value the last poll read (fences: 1)
  uint64_t begin_cpu_ns;  // entry of the first poll
  uint64_t end_cpu_ns;    // return of the last poll
  uint32_t object_kind;   // CpuWaitObject: kFence or kSemaphore
  uint32_t polls;
};

enum class QueueLabelOp : uint32_t { kBegin = 0, kEnd = 1, kInsert = 2 };

struct QueueLabelRecord {
  uint64_t queue;
  uint64_t cpu_ns;
  uint32_t op;      // QueueLabelOp
  uint32_t length;  // bytes of text after this struct (0 for kEnd)
};

struct BatchNameRecord {
  uint64_t batch_id;
  uint32_t length;  // bytes of text after this struct
  uint32_t reserved;
};

struct NameRecord {
  uint64_t object;
  uint32_t object_type;  // VkObjectType
  uint32_t length;       // bytes of text after this struct
};

}  // namespace importers::vulkan
