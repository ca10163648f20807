// Fleet summary files (FLEETDIR/traces/NNNNN.summary.json): the first line, which the fleet's
// reduce step reads (ParseSummaryLine, as ReadSummaryFile after its getline), with and without
// the steps' paths. A line that reads is written again as WriteSummaryFile writes it
// (SummaryLineHead) and read back: what was read must survive the round trip unchanged, or the
// harness stops (a summary the fleet writes that it cannot read back as written).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/fleet/summary_file.h"
#include "core/model/error.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz_support::Bytes(data, size);
  const std::string line(text.substr(0, text.find('\n')));
  for (bool step_paths : {true, false}) {
    core::fleet::RankSummary summary;
    try {
      summary = core::fleet::ParseSummaryLine(line, "fuzz.summary.json", step_paths);
    } catch (const core::Error&) {
      continue;
    }
    const std::string head = core::fleet::SummaryLineHead(summary);
    std::string again;
    try {
      again = core::fleet::SummaryLineHead(
          core::fleet::ParseSummaryLine(head + "}", "fuzz (written again)", step_paths));
    } catch (const core::Error& e) {
      std::fprintf(stderr, "a summary written again does not read: %s\n%s\n", e.what(),
                   head.c_str());
      std::abort();
    }
    if (again != head) {
      std::fprintf(stderr, "a summary changed through a write and a read:\n%s\n%s\n",
                   head.c_str(), again.c_str());
      std::abort();
    }
  }
  return 0;
}
