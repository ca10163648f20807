// A mapped input's parsed part leaves the process's resident memory (DropMappedPagesBefore)
// and stays readable: the pages come back from the file when read again. Resident sizes are read
// from /proc/self/status (the kernel's count, not the code under test's).
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <zlib.h>

#include "importers/common/byte_buffer.h"
#include "importers/common/compressed_input.h"
#include "importers/common/release_pages.h"
#include "tests/support/test_support.h"

namespace {

// Resident bytes of this process from /proc/self/status: "RssFile:" (file-backed pages) or
// "RssAnon:" (anonymous memory).
int64_t Resident(const std::string& key) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(key, 0) == 0) return std::stoll(line.substr(key.size())) * 1024;
  }
  return -1;
}
int64_t ResidentFileBytes() { return Resident("RssFile:"); }

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

// The parsed events' front, once turned into records, goes back to the kernel while the vector
// lives on, in whole 2 MB spans (so malloc's 2 MB pages are not split); what is after the
// released part is untouched.
TEST(ReleaseFinishedPages, WholeSpansOfTheFrontLeaveAndTheRestIsKept) {
  if (Resident("RssAnon:") < 0) GTEST_SKIP() << "/proc/self/status has no RssAnon here";
  std::vector<uint64_t> events(16u << 20 >> 3);  // 16 MB, every page written
  for (size_t i = 0; i < events.size(); ++i) events[i] = i * 3 + 1;
  const int64_t before = Resident("RssAnon:");
  const size_t finished = events.size() * 3 / 4;  // the first 12 MB
  const void* end = importers::ReleaseFinishedPages(events.data(), events.data() + finished);
  const int64_t after = Resident("RssAnon:");
  // At most 2 MB kept at either end of the 12 MB: at least 8 MB given back.
  EXPECT_GE(before - after, int64_t{8} << 20) << before << " -> " << after;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(end) % (2u << 20), 0u);
  EXPECT_LE(end, static_cast<const void*>(events.data() + finished));
  for (size_t i = finished; i < events.size(); ++i) ASSERT_EQ(events[i], i * 3 + 1) << i;
}

// Released front by front as a builder does (every 576 KB, each call starting where the last
// one's released memory ended), the same memory goes back as in one call: no 2 MB span is left
// behind between two calls.
TEST(ReleaseFinishedPages, FrontByFrontGivesBackWhatOneCallWould) {
  if (Resident("RssAnon:") < 0) GTEST_SKIP() << "/proc/self/status has no RssAnon here";
  std::vector<uint64_t> events(32u << 20 >> 3);  // 32 MB
  for (size_t i = 0; i < events.size(); ++i) events[i] = i * 5 + 2;
  const int64_t before = Resident("RssAnon:");
  const size_t finished = events.size() * 3 / 4;  // the first 24 MB
  const void* released = events.data();
  for (size_t i = 0; i <= finished; i += 8192 * 9) {  // 576 KB of uint64
    released = importers::ReleaseFinishedPages(released, events.data() + i);
  }
  released = importers::ReleaseFinishedPages(released, events.data() + finished);
  const int64_t after = Resident("RssAnon:");
  EXPECT_GE(before - after, int64_t{20} << 20) << before << " -> " << after;
  for (size_t i = finished; i < events.size(); ++i) ASSERT_EQ(events[i], i * 5 + 2) << i;
}

// A gzip input inflates a megabyte at a time into an unnamed temporary file that is then mapped
// like a plain input: decompressing 48 MB leaves next to none of it resident, and every byte
// reads back as compressed.
TEST(InflatedOutput, GzipContentIsNotHeldInMemoryAndReadsBackWhole) {
  if (Resident("RssAnon:") < 0) GTEST_SKIP() << "/proc/self/status has no RssAnon here";
  std::string text;
  for (int i = 0; text.size() < (48u << 20); ++i) text += "{\"ph\":\"X\",\"ts\":" + std::to_string(i) + "},\n";
  std::string gz(compressBound(text.size()) + 64, '\0');
  z_stream z{};
  ASSERT_EQ(deflateInit2(&z, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(text.data());
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(gz.data());
  z.avail_out = static_cast<uInt>(gz.size());
  ASSERT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
  gz.resize(z.total_out);
  deflateEnd(&z);

  const int64_t before = Resident("RssAnon:") + Resident("RssFile:");
  importers::ByteBuffer inflated = importers::InflateGzip(gz, "t.json.gz");
  const int64_t after = Resident("RssAnon:") + Resident("RssFile:");
  EXPECT_LT(after - before, int64_t{8} << 20) << before << " -> " << after;
  ASSERT_EQ(inflated.size(), text.size());
  EXPECT_TRUE(inflated.view() == text);
  EXPECT_EQ(inflated.data()[inflated.size()], '\0');  // the zero padding after the content
}
