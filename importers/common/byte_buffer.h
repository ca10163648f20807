// A heap buffer of decoded input bytes with zeroed padding after the end, so that readers that
// scan in 64-byte blocks (simdjson) may read past the last byte without copying the input again.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string_view>

namespace importers {

// Frees a ByteBuffer's heap memory, or unmaps `mapped_length` bytes of a mapped file.
struct ByteBufferRelease {
  size_t mapped_length = 0;
  void operator()(char* p) const;
};

class ByteBuffer {
 public:
  // Bytes readable after size(); at least simdjson's SIMDJSON_PADDING (64).
  static constexpr size_t kPadding = 64;

  ByteBuffer() = default;
  explicit ByteBuffer(size_t capacity) { Reserve(capacity); }

  // The file's bytes mapped read-only (MAP_PRIVATE) instead of copied: the pages are the page
  // cache's, so a large input does not double the process's own memory. Zero pages follow the
  // end, which gives the padding. Throws core::Error when the file cannot be mapped.
  static ByteBuffer MapFile(const std::filesystem::path& path, size_t size);

  const char* data() const { return m_data.get(); }
  char* data() { return m_data.get(); }
  size_t size() const { return m_size; }
  size_t capacity() const { return m_capacity; }
  std::string_view view() const { return {m_data.get(), m_size}; }

  // A mapped file's pages before `end` leave this process's resident memory (they stay in the
  // page cache, and reading them again maps them again from the file): an import that has
  // parsed the first part of its input need not hold it. Nothing for a heap buffer, whose
  // bytes exist nowhere else.
  void DropMappedPagesBefore(size_t end) const;

  // Grows the capacity to at least `capacity` bytes (plus padding), keeping the content.
  // Not for a mapped buffer (which is read-only).
  void Reserve(size_t capacity) {
    if (m_data && capacity <= m_capacity) return;
    std::unique_ptr<char, Release> grown(new char[capacity + kPadding]);
    if (m_size) std::memcpy(grown.get(), m_data.get(), m_size);
    std::memset(grown.get() + m_size, 0, capacity - m_size + kPadding);
    m_data = std::move(grown);
    m_capacity = capacity;
  }
  // Appending nothing (`bytes` may then be null) still leaves a buffer with its zero padding,
  // so an empty content is readable like any other.
  void Append(const char* bytes, size_t count) {
    if (!m_data || m_size + count > m_capacity) {
      Reserve(std::max(m_size + count, m_capacity * 2));
    }
    if (count == 0) return;
    std::memcpy(m_data.get() + m_size, bytes, count);
    m_size += count;
  }
  // Marks `count` more bytes (written by the caller into data() + size()) as content.
  void Grow(size_t count) { m_size += count; }
  void Resize(size_t size) {
    Reserve(size);
    m_size = size;
  }

 private:
  using Release = ByteBufferRelease;
  std::unique_ptr<char, Release> m_data;
  size_t m_size = 0;
  size_t m_capacity = 0;
};

}  // namespace importers
