#include "app/cli/page_cache.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "core/model/error.h"

namespace app::cli {

uint64_t ReadIntoPageCache(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw core::Error(path.string() + ": cannot open: " + std::strerror(errno));
  posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);  // read ahead in large steps
  std::vector<char> block(size_t{1} << 20);
  uint64_t total = 0;
  for (;;) {
    const ssize_t n = ::read(fd, block.data(), block.size());
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      throw core::Error(path.string() + ": cannot read at byte " + std::to_string(total) + ": " +
                        why);
    }
    total += static_cast<uint64_t>(n);
  }
  ::close(fd);
  return total;
}

}  // namespace app::cli
