// The trace database loader: the bytes as a trace file held in memory (LoadTraceImage: the
// format checks, the topology tables, the events, and on damage the quick_check description),
// as view, stats and report load a file, without writing it to disk.
#include <cstddef>
#include <cstdint>

#include "core/model/error.h"
#include "core/store/trace_store.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    core::store::LoadTraceImage(fuzz_support::Bytes(data, size), "fuzz.db");
  } catch (const core::Error&) {
  }
  return 0;
}
