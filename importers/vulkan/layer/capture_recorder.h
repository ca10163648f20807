// Record output of the capture layer: each thread's records go to its own buffer, and a writer
// thread appends the buffers to the record file every few milliseconds.
#pragma once

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "importers/vulkan/vk_record_format.h"

namespace fencescope_layer {

using namespace importers::vulkan;

inline uint64_t NowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

inline uint32_t Tid() {
  static thread_local uint32_t tid = uint32_t(syscall(SYS_gettid));
  return tid;
}

// Records of the application's own calls (all but PollWait and the layer's GPU times and
// calibrations) written by the calling thread so far: status polls use it to tell a thread
// that only polls from one doing other work in between.
inline uint64_t& OtherRecordsCounter() {
  static thread_local uint64_t count = 0;
  return count;
}
inline uint64_t OtherRecordsOfThisThread() {
  return OtherRecordsCounter();
}

template <class T>
uint64_t H(T handle) {
  return uint64_t(reinterpret_cast<uintptr_t>(handle));
}

struct ThreadBuffer {
  std::mutex mutex;
  std::vector<uint8_t> bytes;
};

class Recorder {
 public:
  // Opens the output on first use; false when it cannot be created (then nothing is recorded).
  bool Start();
  // The last user stops the writer thread after a final flush (the loader unloads the layer
  // after the last vkDestroyInstance).
  void Stop();
  ~Recorder();

  bool active() const { return m_active.load(std::memory_order_relaxed); }

  template <class Payload>
  void Write(RecordType type, const Payload& payload, const void* extra = nullptr,
             uint16_t extra_size = 0) {
    if (!active()) return;
    if (type != RecordType::kPollWait && type != RecordType::kBatchGpu &&
        type != RecordType::kCalibration) {
      ++OtherRecordsCounter();
    }
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
  void Open();
  ThreadBuffer& Buffer();
  void Flush();
  void Run();
  void StopThread(std::unique_lock<std::mutex>& lock);

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

Recorder& Out();

// Batch and CPU wait ids, shared by every device.
extern std::atomic<uint64_t> g_next_id;

}  // namespace fencescope_layer
