// The trace database loader: the bytes are written to a file, then LoadTrace opens, validates
// and reads it (as view, stats and report do).
#include <cstddef>
#include <cstdint>
#include <fstream>

#include "core/model/error.h"
#include "core/store/trace_store.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto path = fuzz_support::ScratchDir() / "trace.db";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    core::store::LoadTrace(path);
  } catch (const core::Error&) {
  }
  return 0;
}
