#include "importers/vulkan/layer/capture_recorder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace fencescope_layer {

bool Recorder::Start() {
  std::lock_guard lock(m_state);
  if (m_users++ > 0) return m_fd >= 0;
  if (m_fd < 0) Open();
  if (m_fd >= 0) {
    m_stop = false;
    m_thread = std::thread([this] { Run(); });
  }
  return m_fd >= 0;
}

void Recorder::Stop() {
  std::unique_lock lock(m_state);
  if (m_users == 0 || --m_users > 0) return;
  StopThread(lock);
}

Recorder::~Recorder() {
  std::unique_lock lock(m_state);
  StopThread(lock);
  if (m_fd >= 0) close(m_fd);
}

void Recorder::Open() {
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
  RecordHeader record{RecordType::kFileHeader, uint16_t(sizeof(RecordHeader) + sizeof(FileHeader)),
                      Tid()};
  uint8_t bytes[sizeof record + sizeof header];
  std::memcpy(bytes, &record, sizeof record);
  std::memcpy(bytes + sizeof record, &header, sizeof header);
  if (::write(m_fd, bytes, sizeof bytes) != ssize_t(sizeof bytes)) {
    m_active = false;
  }
}

ThreadBuffer& Recorder::Buffer() {
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
    RecordHeader header{RecordType::kThread, uint16_t(sizeof(RecordHeader) + sizeof(ThreadRecord)),
                        Tid()};
    std::lock_guard lock(mine->mutex);
    auto& b = mine->bytes;
    const size_t at = b.size();
    b.resize(at + header.size);
    std::memcpy(b.data() + at, &header, sizeof header);
    std::memcpy(b.data() + at + sizeof header, &thread, sizeof thread);
  }
  return *mine;
}

void Recorder::Flush() {
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

void Recorder::Run() {
  std::unique_lock lock(m_state);
  while (!m_stop) {
    m_wake.wait_for(lock, std::chrono::milliseconds(10));
    lock.unlock();
    Flush();
    lock.lock();
  }
}

void Recorder::StopThread(std::unique_lock<std::mutex>& lock) {
  if (!m_thread.joinable()) return;
  m_stop = true;
  m_wake.notify_all();
  lock.unlock();
  m_thread.join();
  Flush();
  lock.lock();
}

Recorder& Out() {
  static Recorder recorder;
  return recorder;
}

std::atomic<uint64_t> g_next_id{1};

}  // namespace fencescope_layer
