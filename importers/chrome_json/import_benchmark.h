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
  int runs = 0;               // each figure is the best of this many runs
  // Wall-clock seconds, and the CPU seconds of this process for the same stretch (on a machine
  // shared with other work the CPU time is the steadier comparison).
  double import_seconds = 0, import_cpu = 0;  // scan + parse + build + write + commit
  double raw_seconds = 0, raw_cpu = 0;        // simdjson On Demand over the whole document
  double parse_seconds = 0, parse_cpu = 0;    // the import's scan + parse alone
  double MBps(double seconds) const { return content_bytes / 1e6 / seconds; }
  double ImportMBps() const { return MBps(import_seconds); }
  double ParseMBps() const { return MBps(parse_seconds); }
  double RawMBps() const { return MBps(raw_seconds); }
  double Ratio() const { return raw_seconds / import_seconds; }
  double CpuRatio() const { return raw_cpu / import_cpu; }
};

// `scratch` is the trace database written (and removed afterwards). Throws core::Error.
ImportBenchmarkResult RunImportBenchmark(const std::filesystem::path& file,
                                         const std::filesystem::path& scratch, int runs = 3);

}  // namespace importers::chrome_json
