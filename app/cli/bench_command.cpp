#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "app/cli/commands.h"
#include "core/sim/sim_benchmark.h"
#include "core/store/store_benchmark.h"

namespace app::cli {
namespace {

void RegisterBenchStore(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "store", "Trace writer and loader against SQLite's own insert and select, same run");
  auto events = std::make_shared<uint64_t>(5'000'000);
  auto dir = std::make_shared<std::string>(std::filesystem::temp_directory_path().string());
  cmd->add_option("--events", *events, "Number of events (default 5,000,000)");
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
  cmd->add_option("--events", *events, "Least number of events to simulate (default 5,000,000)");
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

}  // namespace

void RegisterBenchCommand(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Measure performance and print figures");
  bench->require_subcommand(1);
  RegisterBenchStore(*bench);
  RegisterBenchSimulate(*bench);
}

}  // namespace app::cli
