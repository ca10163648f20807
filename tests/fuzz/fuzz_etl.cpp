// ETW .etl captures, through the importer `fencescope import` runs on one (ImportEtl: ReadEtl
// walking buffers and records, the DxgKrnl decoder, the GPU mapper), into a trace in memory.
// Strict or --lenient (which skips and counts corrupt buffers) by the input's length
// (fuzz_support::LenientFor).
#include <cstddef>
#include <cstdint>

#include "importers/etl/etl_importer.h"
#include "tests/fuzz/fuzz_support.h"

namespace {
void Import(const uint8_t* data, size_t size, bool lenient) {
  fuzz_support::ImportInMemory("etl", [&](core::store::TraceWriter& writer) {
    importers::ImportOptions options;
    options.lenient = lenient;
    importers::etl::ImportEtl(fuzz_support::Bytes(data, size), "fuzz.etl", writer, options);
  });
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Import(data, size, fuzz_support::LenientFor(size));
  return 0;
}
