// A mapped input's parsed part leaves the process's resident memory (DropMappedPagesBefore)
// and stays readable: the pages come back from the file when read again. Resident sizes are read
// from /proc/self/status (the kernel's count, not the code under test's).
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "importers/common/byte_buffer.h"
#include "tests/support/test_support.h"

namespace {

// Resident bytes of file-backed pages mapped into this process (RssFile of /proc/self/status).
int64_t ResidentFileBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("RssFile:", 0) == 0) return std::stoll(line.substr(8)) * 1024;
  }
  return -1;
}

}  // namespace

TEST(MappedPages, DroppedPagesLeaveResidentMemoryAndReadBackUnchanged) {
  if (ResidentFileBytes() < 0) GTEST_SKIP() << "/proc/self/status has no RssFile here";
  test_support::ScratchDir dir;
  const auto path = dir / "input.bin";
  constexpr size_t kSize = 32u << 20;
  std::string bytes(kSize, '\0');
  for (size_t i = 0; i < kSize; ++i) bytes[i] = static_cast<char>('a' + i % 23);
  std::ofstream(path, std::ios::binary) << bytes;

  const importers::ByteBuffer mapped = importers::ByteBuffer::MapFile(path, kSize);
  uint64_t sum = 0;
  for (size_t i = 0; i < kSize; i += 4096) sum += static_cast<unsigned char>(mapped.data()[i]);
  const int64_t touched = ResidentFileBytes();
  mapped.DropMappedPagesBefore(kSize - (8u << 20));  // all but the last 8 MB
  const int64_t dropped = ResidentFileBytes();
  EXPECT_GE(touched - dropped, int64_t{20} << 20) << touched << " -> " << dropped;
  EXPECT_EQ(mapped.view(), bytes);  // read again: the same bytes, from the file
  EXPECT_GT(sum, 0u);

  // A heap buffer is left as it is.
  importers::ByteBuffer heap;
  heap.Append(bytes.data(), 4096);
  heap.DropMappedPagesBefore(4096);
  EXPECT_EQ(heap.view(), bytes.substr(0, 4096));
}
