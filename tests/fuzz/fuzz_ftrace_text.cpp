// ftrace text (trace-cmd report, systrace, trace_pipe lines), through the importer `fencescope
// import` runs on such a content (ImportFtraceText), into a trace in memory.
#include <cstddef>
#include <cstdint>

#include "importers/ftrace/ftrace_importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz_support::ImportInMemory("ftrace-text", [&](core::store::TraceWriter& writer) {
    importers::ftrace::ImportFtraceText(fuzz_support::Bytes(data, size), "fuzz.txt", writer, {});
  });
  return 0;
}
