// Fleet summary files (FLEETDIR/traces/NNNNN.summary.json): the first line, which the fleet's
// reduce step reads (ParseSummaryLine, as ReadSummaryFile after its getline), with and without
// the steps' paths.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/fleet/summary_file.h"
#include "core/model/error.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz_support::Bytes(data, size);
  const std::string line(text.substr(0, text.find('\n')));
  for (bool step_paths : {true, false}) {
    try {
      core::fleet::ParseSummaryLine(line, "fuzz.summary.json", step_paths);
    } catch (const core::Error&) {
    }
  }
  return 0;
}
