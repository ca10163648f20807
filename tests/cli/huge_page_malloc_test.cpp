// fencescope starts itself again with glibc's malloc on 2 MB pages where the kernel and glibc
// offer them (app/cli/huge_page_malloc.h); `bench` names the pages its figures were measured
// with. What to expect is read here from the kernel's setting and glibc's version, not from
// fencescope; and the opt-out and a caller's own tunable keep the process as it is.
#include <gnu/libc-version.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "tests/support/test_support.h"

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitizer = true;
#else
constexpr bool kSanitizer = false;
#endif

bool HugePagesOffered() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  std::getline(in, line);
  int major = 0, minor = 0;
  std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor);
  const bool glibc = major > 2 || (major == 2 && minor >= 35);
  return glibc && (line.find("[always]") != std::string::npos ||
                   line.find("[madvise]") != std::string::npos);
}

// The `malloc` line `bench store` prints first, run with `env` (and `loader`, when given, as
// the program that starts fencescope) before the command.
std::string MallocLine(const std::string& env, const std::string& loader = "") {
  test_support::ScratchDir dir;
  auto run = test_support::RunCommand(
      "env -u GLIBC_TUNABLES -u FENCESCOPE_HUGE_PAGES " + env + " " + loader + " " +
      test_support::Quote(FENCESCOPE_EXECUTABLE) + " bench store --events 1000 --dir " +
      test_support::Quote(dir.path()));
  EXPECT_EQ(run.exit_code, 0) << run.err;
  std::smatch m;
  if (!std::regex_search(run.out, m, std::regex(R"(^malloc\s+(.*)\n)"))) {
    ADD_FAILURE() << "no malloc line first:\n" << run.out;
    return {};
  }
  // The rest of the benchmark ran in the restarted process too.
  EXPECT_NE(run.out.find("writer/raw insert ratio"), std::string::npos) << run.out;
  return m[1];
}

TEST(HugePageMalloc, RestartsWithHugePagesWhereTheKernelAndGlibcOfferThem) {
  const std::string line = MallocLine("");
  if (kSanitizer) {
    EXPECT_EQ(line, "the sanitizer's allocator (no huge pages asked for)");
  } else if (HugePagesOffered()) {
    EXPECT_EQ(line, "2 MB pages (glibc.malloc.hugetlb=1, set by fencescope as it started)");
  } else {
    EXPECT_EQ(line.rfind("4 KB pages (", 0), 0u) << line;
  }
}

TEST(HugePageMalloc, TheOptOutAndTheCallersOwnTunableAreKept) {
  if (kSanitizer) GTEST_SKIP() << "a sanitizer build keeps its own allocator: nothing to opt out of";
  EXPECT_EQ(MallocLine("FENCESCOPE_HUGE_PAGES=0"), "4 KB pages (FENCESCOPE_HUGE_PAGES=0)");
  EXPECT_EQ(MallocLine("GLIBC_TUNABLES=glibc.malloc.hugetlb=0"),
            "as GLIBC_TUNABLES sets them (glibc.malloc.hugetlb=0)");
}

// Started through the dynamic loader, /proc/self/exe is the loader: a restart would take the
// first argument for the program, so the process keeps its pages.
TEST(HugePageMalloc, AStartThroughTheDynamicLoaderIsNotRestarted) {
  if (kSanitizer) GTEST_SKIP() << "a sanitizer build keeps its own allocator: nothing to restart";
  const std::string loader = "/lib64/ld-linux-x86-64.so.2";
  if (!std::filesystem::exists(loader)) GTEST_SKIP() << loader << " is not on this machine";
  EXPECT_EQ(MallocLine("", loader),
            "4 KB pages (started through the dynamic loader, or /proc/self/exe unreadable)");
}

}  // namespace
