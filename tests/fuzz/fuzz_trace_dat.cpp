// trace-cmd .dat files, through the importer `fencescope import` runs on one (ImportTraceDat:
// the section walk, then libtracecmd reading the bytes from a memory file), into a trace in
// memory.
#include <cstddef>
#include <cstdint>

#include "importers/ftrace/ftrace_importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz_support::ImportInMemory("trace-cmd", [&](core::store::TraceWriter& writer) {
    importers::ftrace::ImportTraceDat(fuzz_support::Bytes(data, size), "fuzz.dat", writer, {});
  });
  return 0;
}
