// Capture files of the Vulkan layer's record format written by hand in tests
// (importers/vulkan/vk_record_format.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "importers/vulkan/vk_record_format.h"

namespace vk_test {

using importers::vulkan::RecordHeader;
using importers::vulkan::RecordType;

class RecordFile {
 public:
  template <class T>
  void Add(RecordType type, uint32_t tid, const T& payload, const std::string& text = {}) {
    const RecordHeader header{type, uint16_t(sizeof header + sizeof payload + text.size()), tid};
    Append(&header, sizeof header);
    Append(&payload, sizeof payload);
    Append(text.data(), text.size());
  }
  void Write(const std::filesystem::path& path) const {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(m_bytes.data()), std::streamsize(m_bytes.size()));
  }

 private:
  void Append(const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    m_bytes.insert(m_bytes.end(), p, p + size);
  }
  std::vector<uint8_t> m_bytes;
};

// Copies `text` into a fixed-size name field of a record.
template <size_t N>
void Text(char (&field)[N], const char* text) {
  std::strncpy(field, text, N - 1);
}

}  // namespace vk_test
