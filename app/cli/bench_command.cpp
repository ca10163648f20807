#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "app/cli/commands.h"
#include "app/cli/huge_page_malloc.h"
#include "app/cli/terminal_progress.h"
#include "core/replay/whatif_benchmark.h"
#include "core/report/report_benchmark.h"
#include "core/sim/sim_benchmark.h"
#include "core/store/store_benchmark.h"

namespace app::cli {
namespace {

constexpr uint64_t kMaxBenchEvents = 10'000'000'000;

void RegisterBenchStore(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "store", "Trace writer and loader against SQLite's own insert and select, same run");
  auto events = std::make_shared<uint64_t>(5'000'000);
  auto dir = std::make_shared<std::string>(std::filesystem::temp_directory_path().string());
  cmd->add_option("--events", *events, "Number of events (default 5,000,000)")
      ->check(CLI::Range(uint64_t{1}, kMaxBenchEvents));
  cmd->add_option("--dir", *dir, "Directory for the scratch databases");
  cmd->callback([events, dir] {
    auto r = core::store::RunStoreBenchmark(*events, std::filesystem::path(*dir) /
                                                         "fencescope-bench-store");
    std::cout << fmt::format("events                  {}\n", r.events);
    std::cout << fmt::format("writer (TraceWriter)    {:>12.0f} rows/s  ({:.3f} s)\n",
                             r.WriterRowsPerSecond(), r.writer_seconds);
    std::cout << fmt::format("raw sqlite insert       {:>12.0f} rows/s  ({:.3f} s)\n",
                             r.RawInsertRowsPerSecond(), r.raw_insert_seconds);
    std::cout << fmt::format("loader (LoadTrace)      {:>12.0f} rows/s  ({:.3f} s)\n",
                             r.LoaderRowsPerSecond(), r.loader_seconds);
    std::cout << fmt::format("raw sqlite select       {:>12.0f} rows/s  ({:.3f} s)\n",
                             r.RawSelectRowsPerSecond(), r.raw_select_seconds);
    std::cout << fmt::format("writer/raw insert ratio {:.2f}  (target >= 0.5)\n", r.WriterRatio());
    std::cout << fmt::format("loader/raw select ratio {:.2f}  (target >= 0.5)\n", r.LoaderRatio());
  });
}

void RegisterBenchSimulate(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "simulate", "Simulator writing a trace against SQLite's own insert ceiling, same run");
  auto events = std::make_shared<uint64_t>(5'000'000);
  auto scenario = std::make_shared<std::string>("default");
  auto dir = std::make_shared<std::string>(std::filesystem::temp_directory_path().string());
  cmd->add_option("--events", *events, "Least number of events to simulate (default 5,000,000)")
      ->check(CLI::Range(uint64_t{1}, kMaxBenchEvents));
  cmd->add_option("--scenario", *scenario, "Scenario file or embedded name (default: default)");
  cmd->add_option("--dir", *dir, "Directory for the scratch databases");
  cmd->callback([events, scenario, dir] {
    auto r = core::sim::RunSimBenchmark(*scenario, *events,
                                        std::filesystem::path(*dir) / "fencescope-bench-simulate");
    std::cout << fmt::format("scenario                {} ({:.1f} ms simulated)\n", r.scenario,
                             r.simulated_ms);
    std::cout << fmt::format("events                  {}\n", r.events);
    std::cout << fmt::format("simulate + write        {:>12.0f} events/s  ({:.3f} s)\n",
                             r.SimulateEventsPerSecond(), r.simulate_seconds);
    std::cout << fmt::format("raw sqlite insert       {:>12.0f} rows/s    ({:.3f} s)\n",
                             r.RawInsertRowsPerSecond(), r.raw_insert_seconds);
    std::cout << fmt::format("simulate/raw ratio      {:.2f}  (target >= 0.5)\n", r.Ratio());
  });
}

void RegisterBenchReport(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "report", "Time to analyse and render the reports of a large trace next to the time to load it");
  auto events = std::make_shared<uint64_t>(10'000'000);
  auto trace = std::make_shared<std::string>();
  cmd->add_option("--events", *events, "Events in the generated trace (default 10,000,000)")
      ->check(CLI::Range(uint64_t{1}, kMaxBenchEvents));
  cmd->add_option("--trace", *trace,
                  "Use (or create once and keep) this trace file instead of a scratch one");
  cmd->callback([events, trace] {
    namespace fs = std::filesystem;
    fs::path path = trace->empty() ? fs::temp_directory_path() / "fencescope-bench-report.db"
                                   : fs::path(*trace);
    bool scratch = trace->empty();
    if (scratch || !fs::exists(path)) {
      TerminalProgress progress("writing benchmark trace");
      core::report::WriteReportBenchmarkTrace(path, *events, [&](double f) { progress.Update(f); });
    }
    core::report::ReportBenchmarkResult r = core::report::RunReportBenchmark(path);
    if (scratch) fs::remove(path);
    std::cout << fmt::format("events                  {}\n", r.events);
    std::cout << fmt::format("load (LoadTrace)        {:.3f} s\n", r.load_seconds);
    std::cout << fmt::format("analyse                 {:.3f} s\n", r.analyse_seconds);
    std::cout << fmt::format("render (JSON+HTML+MD)   {:.3f} s  (HTML {} bytes)\n",
                             r.render_seconds, r.html_bytes);
    std::cout << fmt::format("report (analyse+render) {:.3f} s\n", r.ReportSeconds());
    std::cout << fmt::format("report/load ratio       {:.2f}  (target <= 2)\n", r.Ratio());
    std::cout << fmt::format(
        "report, first run       {:.3f} s  (rows; writes the trace's packed cache after)\n",
        r.first_cached_seconds);
    std::cout << fmt::format("report, with its cache  {:.3f} s  (load + analyses + render; "
                             "target <= 1 s at 10M events)\n",
                             r.cached_seconds);
  });
}

void RegisterBenchWhatIf(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "whatif", "Replay a trace through the simulator: packets per second, against its "
                "reconstruction and its report, and the report's opportunities, same run");
  auto trace = std::make_shared<std::string>();
  auto dir = std::make_shared<std::string>(std::filesystem::temp_directory_path().string());
  cmd->add_option("TRACE", *trace, "The trace to replay")->required();
  cmd->add_option("--dir", *dir, "Directory for the scratch replay");
  cmd->callback([trace, dir] {
    auto r = core::replay::RunWhatIfBenchmark(
        *trace, std::filesystem::path(*dir) / "fencescope-bench-whatif.db");
    std::cout << fmt::format("packets                 {}\n", r.packets);
    std::cout << fmt::format("load (LoadTrace)        {:.3f} s\n", r.load_seconds);
    std::cout << fmt::format("reconstruction          {:.3f} s\n", r.reconstruct_seconds);
    std::cout << fmt::format("derive the program      {:.3f} s\n", r.derive_seconds);
    std::cout << fmt::format("replay (simulate+write) {:.3f} s\n", r.replay_seconds);
    std::cout << fmt::format("replay into memory      {:.3f} s  (a TraceStore built, no SQLite)\n",
                             r.replay_in_memory_seconds);
    std::cout << fmt::format(
        "replay measured         {:.3f} s  (what-if's baseline and each "
        "opportunity: times and steps kept, no trace built)\n",
        r.replay_measured_seconds);
    std::cout << fmt::format("replay throughput       {:>12.0f} packets/s  into a file "
                             "(target >= 2,000,000)\n",
                             r.PacketsPerSecond());
    std::cout << fmt::format("replay throughput       {:>12.0f} packets/s  into memory\n",
                             r.InMemoryPacketsPerSecond());
    std::cout << fmt::format("replay throughput       {:>12.0f} packets/s  measured\n",
                             r.MeasuredPacketsPerSecond());
    std::cout << fmt::format(
        "replay throughput       {:>12.0f} packets/s  measured, the program "
        "derived (each further replay)\n",
        r.DerivedProgramPacketsPerSecond());
    std::cout << fmt::format("replay/reconstruction   {:.2f}\n", r.ReplayToReconstruction());
    std::cout << fmt::format("report (analyse+render) {:.3f} s\n", r.report_seconds);
    std::cout << fmt::format("replay/report ratio     {:.2f}  (target: well under 1)\n",
                             r.ReplayToReport());
    std::cout << fmt::format("opportunities           {:.3f} s\n", r.opportunities_seconds);
    std::cout << fmt::format("opportunities/report    {:.2f}  (target <= 2)\n",
                             r.OpportunitiesToReport());
  });
}

}  // namespace

void RegisterBenchCommand(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Measure performance and print figures");
  bench->require_subcommand(1);
  // Every figure depends on how memory is paged in (app/cli/huge_page_malloc.h): said first.
  bench->preparse_callback(
      [](size_t) { std::cout << fmt::format("malloc                  {}\n", MallocPages()); });
  RegisterBenchStore(*bench);
  RegisterBenchSimulate(*bench);
  RegisterBenchImport(*bench);
  RegisterBenchFleet(*bench);
  RegisterBenchWhatIf(*bench);
  RegisterBenchReport(*bench);
  RegisterBenchCapture(*bench);
}

}  // namespace app::cli
