// The ETW .etl reader (ReadEtl walks buffers and records), strict and lenient.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/model/error.h"
#include "importers/etl/etl_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (bool lenient : {false, true}) {
    try {
      importers::etl::EtlReadOptions options;
      options.lenient = lenient;
      importers::etl::ReadEtl(bytes, "fuzz.etl", options);
    } catch (const core::Error&) {
    }
  }
  return 0;
}
