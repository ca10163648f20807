// `fencescope bench report`: the time to analyse a large trace and render its reports, next to
// the time to load it, measured in the same run (target: report <= 2x load).
//
// The trace is written with TraceWriter: a repeating frame of three queues (copy -> 3d through a
// fence, compute alongside), a CPU thread waiting on the 3d fence through an interrupt, and log
// writes, 19 records per frame, in time order like the simulator writes them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>

namespace core::report {

// Writes the benchmark trace with about `events` records. progress: fraction in [0, 1].
void WriteReportBenchmarkTrace(const std::filesystem::path& path, uint64_t events,
                               const std::function<void(double)>& progress = {});

struct ReportBenchmarkResult {
  uint64_t events = 0;
  double load_seconds = 0;      // LoadTrace
  double analyse_seconds = 0;   // reconstruction and every analysis
  double render_seconds = 0;    // JSON, HTML and Markdown
  uint64_t html_bytes = 0;
  uint64_t json_bytes = 0;
  uint64_t markdown_bytes = 0;
  // The same report again through the trace's packed cache (core/cache): the first run writes
  // the cache (first_cached), the second reads it (cached: load + analyses + render, all in).
  double first_cached_seconds = 0;
  double cached_seconds = 0;
  double ReportSeconds() const { return analyse_seconds + render_seconds; }
  double Ratio() const { return ReportSeconds() / load_seconds; }
};

ReportBenchmarkResult RunReportBenchmark(const std::filesystem::path& trace);

}  // namespace core::report
