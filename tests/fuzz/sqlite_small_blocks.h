// SQLite's small allocations from free lists of the harness's own, installed from
// LLVMFuzzerInitialize (sqlite_small_blocks_init.cpp, linked into the harnesses that
// FENCESCOPE_FUZZ_SQLITE_BLOCKS names): what SQLite's lookaside does in a default build, which Debian's leaves
// out (SQLITE_OMIT_LOOKASIDE). A trace database's schema (its tables, indexes and 42 views) is
// parsed again for every input, some ten thousand small allocations each, and through ASan's
// allocator (a stack trace, a quarantine) they were half of each execution: with these lists
// `fuzz_trace_db` runs ~1.4x the inputs a second (tests/fuzz/README.md, "SQLite's small
// allocations"). The classes go up to 8.5 KB, a trace's 8 KB pages among them (8,456 bytes in
// the page cache, 8,192 in the rollback journal): through ASan each new page was also filled
// and, its memory fresh from the quarantine's cycle, faulted in (a quarter of fuzz_etl's time
// on small inputs).
//
// ASan still sees misuse of these blocks: a free block, and the bytes before and after each
// block's payload, are poisoned (a read of a freed block or past the end of a live one is
// reported), though a freed block is handed out again at once (no quarantine). Blocks larger
// than the biggest class (a page cache's first bulk of pages) go to malloc, and ASan. The fuzz
// smoke of `./build.sh test` (replay_main.cpp) never calls LLVMFuzzerInitialize: it keeps
// SQLite on the plain allocator.
#pragma once

#include <sqlite3.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#endif
#endif
#ifndef ASAN_POISON_MEMORY_REGION
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

namespace fuzz_support {

class SqliteSmallBlocks {
 public:
  // Installs the lists as SQLite's allocator; before SQLite is first used (sqlite3_config
  // refuses once it is initialised, and then nothing changes).
  static void Install() {
    static const sqlite3_mem_methods methods = {
        &Malloc, &Free, &Realloc, &Size, &Roundup, &Init, &Shutdown, nullptr};
    sqlite3_config(SQLITE_CONFIG_MALLOC, &methods);
  }

 private:
  // Payload sizes of the classes; a block is a 16-byte header (its payload size), the payload
  // and a 16-byte poisoned gap before the next block's header.
  static constexpr std::array<size_t, 9> kClasses = {32, 64, 128, 256, 512, 1024, 2048, 4608, 8704};
  static constexpr size_t kHeader = 16;
  static constexpr size_t kGap = 16;
  static constexpr size_t kChunk = 256 * 1024;

  struct State {
    std::mutex mutex;
    std::array<std::vector<unsigned char*>, kClasses.size()> free;  // headers of free blocks
    std::vector<void*> chunks;
  };
  static State& Lists() {
    static State* state = new State;  // never destroyed: SQLite may free after exit handlers
    return *state;
  }

  static int ClassOf(size_t size) {
    for (size_t c = 0; c < kClasses.size(); ++c) {
      if (size <= kClasses[c]) return static_cast<int>(c);
    }
    return -1;
  }

  // The header of every block records its payload size; a block from malloc has the class
  // size 0 in its header's second word, a listed block 1 + its class.
  static void WriteHeader(unsigned char* header, size_t size, size_t tag) {
    ASAN_UNPOISON_MEMORY_REGION(header, kHeader);
    reinterpret_cast<uint64_t*>(header)[0] = size;
    reinterpret_cast<uint64_t*>(header)[1] = tag;
    ASAN_POISON_MEMORY_REGION(header, kHeader);
  }
  static void ReadHeader(const unsigned char* header, size_t& size, size_t& tag) {
    ASAN_UNPOISON_MEMORY_REGION(header, kHeader);
    size = reinterpret_cast<const uint64_t*>(header)[0];
    tag = reinterpret_cast<const uint64_t*>(header)[1];
    ASAN_POISON_MEMORY_REGION(header, kHeader);
  }

  static void Refill(State& s, size_t c) {
    const size_t block = kHeader + kClasses[c] + kGap;
    auto* chunk = static_cast<unsigned char*>(std::malloc(kChunk));
    if (!chunk) return;
    s.chunks.push_back(chunk);
    ASAN_POISON_MEMORY_REGION(chunk, kChunk);
    for (size_t at = 0; at + block <= kChunk; at += block) s.free[c].push_back(chunk + at);
  }

  static void* Malloc(int n) {
    if (n <= 0) return nullptr;
    const size_t size = static_cast<size_t>(n);
    const int c = ClassOf(size);
    unsigned char* header = nullptr;
    if (c < 0) {
      header = static_cast<unsigned char*>(std::malloc(kHeader + size));
      if (!header) return nullptr;
      WriteHeader(header, size, 0);
      return header + kHeader;
    }
    {
      State& s = Lists();
      std::lock_guard<std::mutex> lock(s.mutex);
      if (s.free[c].empty()) Refill(s, static_cast<size_t>(c));
      if (s.free[c].empty()) return nullptr;
      header = s.free[c].back();
      s.free[c].pop_back();
    }
    WriteHeader(header, size, static_cast<size_t>(c) + 1);
    ASAN_UNPOISON_MEMORY_REGION(header + kHeader, size);
    return header + kHeader;
  }

  static void Free(void* p) {
    if (!p) return;
    unsigned char* header = static_cast<unsigned char*>(p) - kHeader;
    size_t size = 0, tag = 0;
    ReadHeader(header, size, tag);
    if (tag == 0) {
      ASAN_UNPOISON_MEMORY_REGION(header, kHeader);
      std::free(header);
      return;
    }
    const size_t c = tag - 1;
    ASAN_POISON_MEMORY_REGION(header + kHeader, kClasses[c]);
    State& s = Lists();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.free[c].push_back(header);
  }

  static int Size(void* p) {
    if (!p) return 0;
    size_t size = 0, tag = 0;
    ReadHeader(static_cast<unsigned char*>(p) - kHeader, size, tag);
    return static_cast<int>(size);
  }

  static void* Realloc(void* p, int n) {
    if (!p) return Malloc(n);
    const int old = Size(p);
    if (n <= old) {
      // Shrinking in place keeps the poisoning exact: the bytes past the new size poisoned.
      unsigned char* header = static_cast<unsigned char*>(p) - kHeader;
      size_t size = 0, tag = 0;
      ReadHeader(header, size, tag);
      if (tag != 0) {
        WriteHeader(header, static_cast<size_t>(n), tag);
        ASAN_POISON_MEMORY_REGION(static_cast<unsigned char*>(p) + n, size - static_cast<size_t>(n));
        return p;
      }
    }
    void* fresh = Malloc(n);
    if (!fresh) return nullptr;
    std::memcpy(fresh, p, static_cast<size_t>(old < n ? old : n));
    Free(p);
    return fresh;
  }

  static int Roundup(int n) { return (n + 7) & ~7; }
  static int Init(void*) { return SQLITE_OK; }
  static void Shutdown(void*) {}
};

}  // namespace fuzz_support
