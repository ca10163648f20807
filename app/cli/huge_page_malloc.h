// glibc's malloc with 2 MB pages. An import, a load or a report of a large trace touches
// gigabytes of fresh memory, and each 4 KB page costs a page fault when first written: on a
// virtual machine a fault costs ~10 us, and they were a third of the time of a rocpd import and
// half of the first open of a 10 M-event trace. glibc (2.35 on) can advise the kernel to back its
// heap and its large blocks with transparent huge pages, 512 times fewer faults, but it reads that
// setting only from GLIBC_TUNABLES as the process starts. So fencescope starts itself once more,
// the same arguments, with `glibc.malloc.hugetlb=1` added (app/cli/BENCHMARKS.md, "Memory pages").
#pragma once

#include <string>

namespace app::cli {

// First thing in main: replaces the process (execv of /proc/self/exe, same arguments) with one
// whose malloc uses huge pages, unless that gains nothing or cannot be done: a sanitizer build
// (its own allocator), FENCESCOPE_HUGE_PAGES=0, GLIBC_TUNABLES already naming
// glibc.malloc.hugetlb, the kernel's transparent huge pages off or absent, a glibc older than
// 2.35, a start through the dynamic loader, or the restart failing (then the process goes on as
// it is). The restarted process puts GLIBC_TUNABLES back as it was, so what it starts sees the
// caller's environment.
void RestartWithHugePageMalloc(char** argv);

// How this process's malloc takes pages, for benchmark output: "2 MB pages (...)" or
// "4 KB pages (...)" with the reason.
std::string MallocPages();

}  // namespace app::cli
