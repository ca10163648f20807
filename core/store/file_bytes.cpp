#include "core/store/file_bytes.h"

#include <sqlite3.h>

#include <algorithm>
#include <memory>

namespace core::store {
namespace {

// One file opened read-only through the default VFS; closing it through the VFS keeps the
// descriptor while this process holds locks on the file (unix VFS: the pending-descriptor list).
class VfsFile {
 public:
  explicit VfsFile(const std::filesystem::path& path) {
    m_vfs = sqlite3_vfs_find(nullptr);
    if (!m_vfs) return;
    // xOpen takes a name laid out as SQLite's own filenames are (URI parameters after it).
    m_name = sqlite3_create_filename(path.c_str(), "", "", 0, nullptr);
    if (!m_name) return;
    m_storage.reset(new (std::nothrow) unsigned char[static_cast<size_t>(m_vfs->szOsFile)]());
    if (!m_storage) return;
    auto* file = reinterpret_cast<sqlite3_file*>(m_storage.get());
    int out_flags = 0;
    if (m_vfs->xOpen(m_vfs, m_name, file, SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_READONLY,
                     &out_flags) == SQLITE_OK &&
        file->pMethods) {
      m_file = file;
    }
  }
  ~VfsFile() {
    if (m_file) m_file->pMethods->xClose(m_file);
    if (m_name) sqlite3_free_filename(m_name);
  }
  VfsFile(const VfsFile&) = delete;
  VfsFile& operator=(const VfsFile&) = delete;

  bool open() const { return m_file != nullptr; }
  int64_t Size() const {
    sqlite3_int64 size = 0;
    return m_file->pMethods->xFileSize(m_file, &size) == SQLITE_OK ? size : -1;
  }
  // Reads what there is of [offset, offset + count); a short read zero-fills the rest.
  bool Read(void* into, int count, int64_t offset) const {
    const int rc = m_file->pMethods->xRead(m_file, into, count, offset);
    return rc == SQLITE_OK || rc == SQLITE_IOERR_SHORT_READ;
  }

 private:
  sqlite3_vfs* m_vfs = nullptr;
  sqlite3_filename m_name = nullptr;
  std::unique_ptr<unsigned char[]> m_storage;
  sqlite3_file* m_file = nullptr;
};

}  // namespace

std::optional<std::vector<unsigned char>> ReadFileHead(const std::filesystem::path& path,
                                                       size_t count) {
  VfsFile file(path);
  if (!file.open()) return std::nullopt;
  const int64_t size = file.Size();
  if (size < 0) return std::nullopt;
  std::vector<unsigned char> bytes(std::min<size_t>(count, static_cast<size_t>(size)));
  if (!bytes.empty() && !file.Read(bytes.data(), static_cast<int>(bytes.size()), 0)) {
    return std::nullopt;
  }
  return bytes;
}

std::vector<unsigned char> ReadWholeFile(const std::filesystem::path& path) {
  VfsFile file(path);
  if (!file.open()) return {};
  const int64_t size = file.Size();
  if (size <= 0) return {};
  std::vector<unsigned char> bytes(static_cast<size_t>(size));
  constexpr int64_t kChunk = 1 << 20;
  for (int64_t at = 0; at < size; at += kChunk) {
    const int n = static_cast<int>(std::min(kChunk, size - at));
    if (!file.Read(bytes.data() + at, n, at)) return {};
  }
  return bytes;
}

}  // namespace core::store
