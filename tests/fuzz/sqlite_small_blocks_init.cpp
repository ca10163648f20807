// The LLVMFuzzerInitialize of the harnesses that write each input into a trace in memory
// (FENCESCOPE_FUZZ_SQLITE_BLOCKS in CMakeLists.txt): SQLite's small allocations and pages from
// the harness's own free lists (sqlite_small_blocks.h), installed before SQLite is first used.
#include "tests/fuzz/sqlite_small_blocks.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz_support::SqliteSmallBlocks::Install();
  return 0;
}
