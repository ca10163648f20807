// Gives back to the kernel the memory of a buffer's front that will not be read again (the
// parsed events a builder has already turned into records), without freeing the buffer: only
// whole pages strictly inside [begin, end) are released (MADV_DONTNEED), so the allocator's own
// bookkeeping beside the buffer is never touched. A released page reads as zeros afterwards:
// call it only on what is finished with.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace importers {

inline void ReleaseFinishedPages(const void* begin, const void* end) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  const uintptr_t first = (reinterpret_cast<uintptr_t>(begin) + page - 1) / page * page;
  const uintptr_t last = reinterpret_cast<uintptr_t>(end) / page * page;
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

}  // namespace importers
