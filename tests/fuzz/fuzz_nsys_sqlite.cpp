// The Nsight Systems importer: the bytes as an `nsys export --type sqlite` file, deserialized
// read-only into an in-memory SQLite database (NsysDatabase::OpenImage, the defensive settings
// of a file opened from disk), then imported into a trace in memory.
#include <cstddef>
#include <cstdint>

#include "core/model/error.h"
#include "importers/nsys/nsys_importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto db =
        importers::nsys::NsysDatabase::OpenImage(fuzz_support::Bytes(data, size), "fuzz.sqlite");
    fuzz_support::ImportInMemory("nsys-sqlite", [&](core::store::TraceWriter& writer) {
      importers::nsys::ImportNsysDatabase(db, writer, {});
    });
  } catch (const core::Error&) {
  }
  return 0;
}
