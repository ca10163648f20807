// ROCm profiler captures: rocprofv3 JSON (input starting with '{') and rocprof kernel-trace CSV
// (anything else), through the importers `fencescope import` runs on such contents
// (ImportRocprofJson / ImportRocprofCsv), into a trace in memory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "importers/rocprof/rocprof_importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The JSON reader reads 64 bytes past the end (simdjson), as ByteBuffer's padding allows.
  std::string bytes(fuzz_support::Bytes(data, size));
  bytes.append(64, '\0');
  const std::string_view content(bytes.data(), size);
  const bool json = content.find_first_not_of(" \t\r\n") != content.npos &&
                    content[content.find_first_not_of(" \t\r\n")] == '{';
  fuzz_support::ImportInMemory("rocprof", [&](core::store::TraceWriter& writer) {
    if (json) {
      importers::rocprof::ImportRocprofJson(content, "fuzz.json", writer, {});
    } else {
      importers::rocprof::ImportRocprofCsv(content, "fuzz.csv", writer, {});
    }
  });
  return 0;
}
