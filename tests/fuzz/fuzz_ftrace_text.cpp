// ftrace text (trace-cmd report, systrace, trace_pipe lines), through the importer `fencescope
// import` runs on such a content (ImportFtraceText into a TraceWriter), bytes given in memory.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/model/error.h"
#include "core/store/trace_writer.h"
#include "importers/ftrace/ftrace_importer.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const auto output = fuzz_support::ScratchDir() / "ftrace.db";
  try {
    core::store::TraceWriter writer(output, "ftrace-text");
    importers::ftrace::ImportFtraceText(
        std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.txt", writer, {});
    writer.Commit();
  } catch (const core::Error&) {
  }
  return 0;
}
