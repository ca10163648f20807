#include "app/cli/huge_page_malloc.h"

#include <gnu/libc-version.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace app::cli {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizerAllocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
constexpr bool kSanitizerAllocator = true;
#else
constexpr bool kSanitizerAllocator = false;
#endif
#else
constexpr bool kSanitizerAllocator = false;
#endif

constexpr const char* kTunable = "glibc.malloc.hugetlb=1";
// Set for the restarted process only: "-" when GLIBC_TUNABLES was unset, else "=" and its value.
constexpr const char* kRestartMarker = "FENCESCOPE_HUGE_PAGES_RESTART";

std::string g_pages = "4 KB pages (not decided: RestartWithHugePageMalloc was not called)";

bool GlibcHasTheTunable() {  // glibc.malloc.hugetlb came with glibc 2.35
  int major = 0, minor = 0;
  return std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) == 2 &&
         (major > 2 || (major == 2 && minor >= 35));
}

// "always" or "madvise" (what glibc's advice needs), from the kernel's setting.
bool KernelHasHugePages() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(in, line)) return false;
  return line.find("[always]") != std::string::npos ||
         line.find("[madvise]") != std::string::npos;
}

// Whether /proc/self/exe is fencescope itself: not so when it was started through the dynamic
// loader (`ld-linux-x86-64.so.2 fencescope ...`), whose restart would take the first argument
// for the program.
bool StartedAsItself() {
  char target[4096];
  const ssize_t n = readlink("/proc/self/exe", target, sizeof target - 1);
  if (n <= 0) return false;
  const std::string path(target, static_cast<size_t>(n));
  const std::string name = path.substr(path.find_last_of('/') + 1);
  return name.rfind("ld-", 0) != 0 && name.rfind("ld.so", 0) != 0;
}

// The restarted process: GLIBC_TUNABLES back as the caller had it.
void PutTheCallersTunablesBack(const char* marker) {
  if (marker[0] == '=') {
    setenv("GLIBC_TUNABLES", marker + 1, 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
  unsetenv(kRestartMarker);
}

}  // namespace

void RestartWithHugePageMalloc(char** argv) {
  if (const char* marker = std::getenv(kRestartMarker)) {
    PutTheCallersTunablesBack(marker);
    g_pages = std::string("2 MB pages (") + kTunable + ", set by fencescope as it started)";
    return;
  }
  if (kSanitizerAllocator) {
    g_pages = "the sanitizer's allocator (no huge pages asked for)";
    return;
  }
  const char* opt_out = std::getenv("FENCESCOPE_HUGE_PAGES");
  if (opt_out && std::strcmp(opt_out, "0") == 0) {
    g_pages = "4 KB pages (FENCESCOPE_HUGE_PAGES=0)";
    return;
  }
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const std::string given = tunables ? tunables : "";
  if (given.find("glibc.malloc.hugetlb") != std::string::npos) {
    g_pages = "as GLIBC_TUNABLES sets them (" + given + ")";
    return;
  }
  if (!GlibcHasTheTunable()) {
    g_pages = std::string("4 KB pages (glibc ") + gnu_get_libc_version() + " is older than 2.35)";
    return;
  }
  if (!KernelHasHugePages()) {
    g_pages = "4 KB pages (the kernel's transparent huge pages are off)";
    return;
  }
  if (!StartedAsItself()) {
    g_pages = "4 KB pages (started through the dynamic loader, or /proc/self/exe unreadable)";
    return;
  }
  const std::string marker = tunables ? "=" + given : "-";
  const std::string with_tunable = given.empty() ? kTunable : given + ":" + kTunable;
  setenv(kRestartMarker, marker.c_str(), 1);
  setenv("GLIBC_TUNABLES", with_tunable.c_str(), 1);
  execv("/proc/self/exe", argv);
  // Still here: the restart failed; go on with the pages the process has.
  const int error = errno;
  PutTheCallersTunablesBack(marker.c_str());
  g_pages = std::string("4 KB pages (restarting with huge pages failed: ") +
            std::strerror(error) + ")";
}

std::string MallocPages() { return g_pages; }

}  // namespace app::cli
