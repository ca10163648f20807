// The gzip / zip container reader every import starts with (DecodeBytes), with a 16 MiB
// inflation limit so a small input cannot exhaust memory by design.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/model/error.h"
#include "importers/common/compressed_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    importers::DecodeBytes(std::string_view(reinterpret_cast<const char*>(data), size),
                           "fuzz.bin", uint64_t{16} << 20);
  } catch (const core::Error&) {
  }
  return 0;
}
