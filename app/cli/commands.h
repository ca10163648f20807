// The headless subcommands. Each Register*Command adds one CLI11 subcommand whose callback does
// the work with core and importers only, so they run the same in the window-less build.
// Failures throw core::Error; main() prints it to stderr and exits non-zero.
#pragma once

#include <CLI/CLI.hpp>

namespace app::cli {

void RegisterInfoCommand(CLI::App& app);
void RegisterQueryCommand(CLI::App& app);
void RegisterSimulateCommand(CLI::App& app);
void RegisterBenchCommand(CLI::App& app);
// `bench import FILE` (app/cli/bench_import_command.cpp), added by RegisterBenchCommand.
void RegisterBenchImport(CLI::App& bench);
void RegisterImportCommand(CLI::App& app);
void RegisterRecordCommand(CLI::App& app);
void RegisterExportCommand(CLI::App& app);
void RegisterStatsCommand(CLI::App& app);
void RegisterReportCommand(CLI::App& app);
void RegisterCompareCommand(CLI::App& app);
// `whatif` (app/cli/whatif_command.cpp): a trace replayed with a change made.
void RegisterWhatIfCommand(CLI::App& app);
// `fleet` (app/cli/fleet_command.cpp): many traces as one, locally or on Slurm.
void RegisterFleetCommand(CLI::App& app);
// `bench fleet` (app/cli/bench_fleet_command.cpp), added by RegisterBenchCommand.
void RegisterBenchFleet(CLI::App& bench);
// `capture` (app/cli/capture_command.cpp): a Vulkan application through the capture layer.
void RegisterCaptureCommand(CLI::App& app);
// `bench capture` (app/cli/bench_capture_command.cpp), added by RegisterBenchCommand.
void RegisterBenchCapture(CLI::App& bench);

// A check for a numeric option: a finite number in [min, max] (CLI::Range lets NaN through).
CLI::Validator FiniteRange(double min, double max);

// `--max-inflated SIZE` (import, view): bytes, or with a unit (10M, 4G, 4GiB; K = 1024).
void AddMaxInflatedOption(CLI::App& cmd, uint64_t& max_inflated);

// Registers every headless subcommand above, in the order --help lists them.
void RegisterAllCommands(CLI::App& app);

}  // namespace app::cli
