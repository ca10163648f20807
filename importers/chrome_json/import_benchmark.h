// `fencescope bench import FILE`: the whole Chrome JSON import against a bare simdjson On Demand
// pass over the same decoded bytes (parse, and touch every event's ph / ts / dur / pid / tid),
// measured in the same run so the ratio does not depend on the machine.
#pragma once

#include <cstdint>
#include <filesystem>

namespace importers::chrome_json {

struct ImportBenchmarkResult {
  uint64_t content_bytes = 0;  // decoded JSON bytes (after gzip / zip)
  uint64_t events_in_file = 0;  // counted by the raw pass
  uint64_t records_written = 0;
  uint64_t raw_checksum = 0;  // sum of the touched fields (keeps the raw pass honest)
  double import_seconds = 0;  // scan + parse + build + write + commit
  double raw_seconds = 0;     // simdjson On Demand over the whole document
  double parse_seconds = 0;   // the import's scan + parse alone (no records built or written)
  double ParseMBps() const { return content_bytes / 1e6 / parse_seconds; }
  double ImportMBps() const { return content_bytes / 1e6 / import_seconds; }
  double RawMBps() const { return content_bytes / 1e6 / raw_seconds; }
  double Ratio() const { return raw_seconds / import_seconds; }
};

// `scratch` is the trace database written (and removed afterwards). Throws core::Error.
ImportBenchmarkResult RunImportBenchmark(const std::filesystem::path& file,
                                         const std::filesystem::path& scratch);

}  // namespace importers::chrome_json
