// Systrace HTML pages, through the importer `fencescope import` runs on one
// (ImportSystraceHtml: the page's trace-data blocks or linuxPerfData string, then their ftrace
// text), into a trace in memory.
#include <cstddef>
#include <cstdint>

#include "importers/ftrace/ftrace_importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz_support::ImportInMemory("systrace", [&](core::store::TraceWriter& writer) {
    importers::ftrace::ImportSystraceHtml(fuzz_support::Bytes(data, size), "fuzz.html", writer,
                                          {});
  });
  return 0;
}
