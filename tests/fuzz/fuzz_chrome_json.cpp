// Chrome / Kineto trace-event JSON, through the importer `fencescope import` runs on a JSON
// content (ImportChromeJson into a TraceWriter), with the bytes given in memory.
#include <cstddef>
#include <cstdint>

#include "core/model/error.h"
#include "core/store/trace_writer.h"
#include "importers/chrome_json/chrome_json_importer.h"
#include "importers/common/compressed_input.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto output = fuzz_support::ScratchDir() / "chrome.db";
  for (bool lenient : {false, true}) {
    try {
      importers::DecodedInput input;
      input.bytes.Append(reinterpret_cast<const char*>(data), size);
      input.label = "fuzz.json";
      input.content = importers::FileFormat::kJson;
      input.file_size = size;
      importers::ImportOptions options;
      options.lenient = lenient;
      core::store::TraceWriter writer(output, "chrome-json");
      importers::chrome_json::ImportChromeJson(input, writer, options);
      writer.Commit();
    } catch (const core::Error&) {
    }
  }
  return 0;
}
