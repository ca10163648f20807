// Chrome / Kineto trace-event JSON, through the importer `fencescope import` runs on a JSON
// content (ImportChromeJson), into a trace in memory, strict or --lenient (which skips and counts
// bad events) by the input's length (fuzz_support::LenientFor).
#include <cstddef>
#include <cstdint>

#include "importers/chrome_json/chrome_json_importer.h"
#include "importers/common/compressed_input.h"
#include "tests/fuzz/fuzz_support.h"

namespace {
void Import(const uint8_t* data, size_t size, bool lenient) {
  fuzz_support::ImportInMemory("chrome-json", [&](core::store::TraceWriter& writer) {
    importers::DecodedInput input;
    input.bytes.Append(reinterpret_cast<const char*>(data), size);
    input.label = "fuzz.json";
    input.content = importers::FileFormat::kJson;
    input.file_size = size;
    importers::ImportOptions options;
    options.lenient = lenient;
    // Inputs of a few KB: starting the import's threads would cost more than the parse.
    options.helper_threads = false;
    importers::chrome_json::ImportChromeJson(input, writer, options);
  });
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Import(data, size, fuzz_support::LenientFor(size));
  return 0;
}
