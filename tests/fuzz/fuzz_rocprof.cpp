// ROCm profiler captures: a rocpd database (input starting with SQLite's header, opened as an
// in-memory image as `fencescope import` opens one: OpenRocpd, ImportRocpd), rocprofv3 JSON
// (input starting with '{') and rocprof kernel-trace CSV (anything else), through the importers
// `fencescope import` runs on such contents, into a trace in memory.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/store/sqlite_db.h"
#include "importers/rocprof/rocprof_importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The JSON reader reads 64 bytes past the end (simdjson), as ByteBuffer's padding allows.
  std::string bytes(fuzz_support::Bytes(data, size));
  bytes.append(64, '\0');
  const std::string_view content(bytes.data(), size);
  const bool json = content.find_first_not_of(" \t\r\n") != content.npos &&
                    content[content.find_first_not_of(" \t\r\n")] == '{';
  if (content.starts_with(std::string_view("SQLite format 3\0", 16))) {
    // OpenRocpd gives nothing for an image SQLite cannot open or that is no rocpd database.
    const auto db = importers::rocprof::OpenRocpd(content, "fuzz.db");
    if (!db) return 0;
    fuzz_support::ImportInMemory("rocpd", [&](core::store::TraceWriter& writer) {
      importers::rocprof::ImportRocpd(*db, "fuzz.db", writer, {});
    });
    return 0;
  }
  fuzz_support::ImportInMemory("rocprof", [&](core::store::TraceWriter& writer) {
    if (json) {
      importers::rocprof::ImportRocprofJson(content, "fuzz.json", writer, {});
    } else {
      importers::rocprof::ImportRocprofCsv(content, "fuzz.csv", writer, {});
    }
  });
  return 0;
}
