// What a child process read from storage (ChildRun::disk_read_bytes) and reading a file into the
// page cache before a timed run (ReadIntoPageCache), the two things `bench fleet` relies on to
// compare single imports and a fleet that read their inputs alike. The expectations come from
// the kernel: which of the file's pages are resident (mincore) and the file's size.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include "app/cli/child_process.h"
#include "app/cli/page_cache.h"
#include "tests/support/test_support.h"

namespace {

constexpr size_t kFileBytes = size_t{24} << 20;

// The file's pages resident in the page cache, from mincore over a mapping of it.
size_t ResidentPages(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return 0;
  void* map = ::mmap(nullptr, kFileBytes, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return 0;
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> resident((kFileBytes + page - 1) / page);
  size_t count = 0;
  if (::mincore(map, kFileBytes, resident.data()) == 0) {
    for (unsigned char r : resident) count += r & 1;
  }
  ::munmap(map, kFileBytes);
  return count;
}

// Drops the file's (clean, synced) pages from the page cache.
void Evict(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
}

app::cli::ChildRun ReadWithDd(const std::filesystem::path& path) {
  return app::cli::RunChild({"dd", "if=" + path.string(), "of=/dev/null", "bs=1M"}, true);
}

}  // namespace

TEST(PageCache, ChildReadsFromStorageOnlyWhatTheCacheDidNotHold) {
  test_support::ScratchDir dir;
  struct statfs fs_info {};
  ASSERT_EQ(::statfs(dir.path().c_str(), &fs_info), 0);
  if (fs_info.f_type == 0x01021994 /* TMPFS_MAGIC */) {
    GTEST_SKIP() << dir.path() << " is on tmpfs: its files are never read from storage";
  }
  const auto file = dir / "input.bin";
  {
    std::ofstream out(file, std::ios::binary);
    std::vector<char> block(size_t{1} << 20);
    for (size_t i = 0; i < block.size(); ++i) block[i] = static_cast<char>(i * 131);
    for (size_t written = 0; written < kFileBytes; written += block.size()) {
      out.write(block.data(), static_cast<std::streamsize>(block.size()));
    }
  }
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t pages = kFileBytes / page;
  Evict(file);
  if (ResidentPages(file) > pages / 10) {
    GTEST_SKIP() << "the page cache kept " << ResidentPages(file) << " of " << pages << " pages of "
                 << file << " after POSIX_FADV_DONTNEED: cannot start cold";
  }

  // Cold: the child reads the whole file from storage.
  const app::cli::ChildRun cold = ReadWithDd(file);
  ASSERT_EQ(cold.spawn_error, 0) << "dd could not be started";
  ASSERT_EQ(cold.exit_code, 0);
  EXPECT_GE(cold.disk_read_bytes, static_cast<int64_t>(kFileBytes * 9 / 10));
  EXPECT_LE(cold.disk_read_bytes, static_cast<int64_t>(kFileBytes * 11 / 10));

  // Read into the cache first: every page resident, and the child reads none from storage.
  Evict(file);
  ASSERT_LE(ResidentPages(file), pages / 10);
  EXPECT_EQ(app::cli::ReadIntoPageCache(file), kFileBytes);
  EXPECT_EQ(ResidentPages(file), pages);
  const app::cli::ChildRun warm = ReadWithDd(file);
  ASSERT_EQ(warm.exit_code, 0);
  EXPECT_LT(warm.disk_read_bytes, static_cast<int64_t>(kFileBytes / 20));
}

TEST(PageCache, AFileThatCannotBeReadIsNamed) {
  test_support::ScratchDir dir;
  const auto missing = dir / "missing.json";
  try {
    app::cli::ReadIntoPageCache(missing);
    FAIL() << "no error for a missing file";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(missing.string()), std::string::npos) << e.what();
  }
}
