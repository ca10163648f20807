#include "importers/common/inflated_output.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "core/model/error.h"

namespace importers {
namespace {

// The temporary folder, unless it is in memory (tmpfs: the content would then take memory all
// the same), then /var/tmp, which the FHS keeps on disk.
std::string SpillFolder() {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) dir = "/tmp";
  struct statfs fs {};
  if (statfs(dir.c_str(), &fs) == 0 && fs.f_type == TMPFS_MAGIC &&
      std::filesystem::is_directory("/var/tmp", ec)) {
    dir = "/var/tmp";
  }
  return dir.string();
}

}  // namespace

InflatedOutput::InflatedOutput(size_t heap_hint) : m_folder(SpillFolder()) {
  m_fd = open(m_folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (m_fd < 0) m_heap.Reserve(heap_hint);
  m_crc = static_cast<uint32_t>(crc32(0L, Z_NULL, 0));
}

InflatedOutput::~InflatedOutput() {
  if (m_fd >= 0) close(m_fd);
}

void InflatedOutput::Append(const char* bytes, size_t count, const std::string& label) {
  for (size_t done = 0; done < count;) {
    const size_t n = std::min<size_t>(count - done, 1u << 30);
    m_crc = static_cast<uint32_t>(
        crc32(m_crc, reinterpret_cast<const Bytef*>(bytes + done), static_cast<uInt>(n)));
    done += n;
  }
  if (m_fd < 0) {
    m_heap.Append(bytes, count);
  } else {
    for (size_t done = 0; done < count;) {
      const ssize_t n = write(m_fd, bytes + done, count - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        throw core::Error(fmt::format(
            "{}: cannot write the decompressed content to a temporary file in {} ({}); set "
            "TMPDIR to a folder with room for it",
            label, m_folder, n < 0 ? std::strerror(errno) : "nothing written"));
      }
      done += static_cast<size_t>(n);
    }
  }
  m_size += count;
}

ByteBuffer InflatedOutput::Finish(const std::string& label) {
  if (m_fd < 0) {
    if (!m_heap.data()) m_heap.Append(nullptr, 0);  // an empty content still has its padding
    return std::move(m_heap);
  }
  ByteBuffer mapped = ByteBuffer::MapDescriptor(m_fd, m_size, label + " (decompressed)");
  close(m_fd);  // the mapping keeps the unnamed file until it is unmapped
  m_fd = -1;
  return mapped;
}

}  // namespace importers
