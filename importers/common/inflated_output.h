// Where inflated content (a gzip stream, a zip member) goes: an unnamed temporary file on disk,
// written a piece at a time and mapped read-only at the end exactly as a plain input file is,
// so a large decompressed input is never whole in this process's memory (its pages come and go
// as the parse reads them, DropMappedPagesBefore). The heap when no temporary file can be made.
// The file has no name (O_TMPFILE): nothing is left behind, whatever happens to the process.
#pragma once

#include <cstdint>
#include <string>

#include "importers/common/byte_buffer.h"

namespace importers {

class InflatedOutput {
 public:
  // heap_hint: the first heap buffer, used only without a temporary file.
  explicit InflatedOutput(size_t heap_hint);
  ~InflatedOutput();
  InflatedOutput(const InflatedOutput&) = delete;
  InflatedOutput& operator=(const InflatedOutput&) = delete;

  // Throws core::Error (naming `label` and the folder) when the temporary file cannot be
  // written, e.g. a full disk.
  void Append(const char* bytes, size_t count, const std::string& label);
  uint64_t size() const { return m_size; }
  // CRC-32 of everything appended (zip members carry one).
  uint32_t crc() const { return m_crc; }
  bool on_disk() const { return m_fd >= 0; }
  // The content: the temporary file mapped (see ByteBuffer::MapFile), or the heap buffer.
  ByteBuffer Finish(const std::string& label);

 private:
  int m_fd = -1;
  std::string m_folder;  // of the temporary file, for messages
  ByteBuffer m_heap;
  uint64_t m_size = 0;
  uint32_t m_crc = 0;
};

}  // namespace importers
