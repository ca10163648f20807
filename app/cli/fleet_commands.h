// Shared by the `fleet` subcommands (fleet_command.cpp, fleet_submit.cpp) and `bench fleet`.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/fleet/fleet_analysis.h"
#include "core/fleet/fleet_inputs.h"

namespace app::cli {

// `fleet import` when some traces could not be imported (the others were).
constexpr int kFleetSomeFailedExitCode = 5;

struct FleetState {
  std::vector<std::filesystem::path> inputs;
  std::vector<size_t> summaries;                 // input indices with a summary
  std::vector<core::fleet::FailedTrace> failed;  // with an .error file
  std::vector<size_t> pending;                   // neither yet
};

// Throws core::Error when FLEETDIR is not a fleet directory.
FleetState ReadFleetState(const core::fleet::FleetPaths& paths);

// The reduce step over the summaries present; the traces without one are listed as failed.
// Throws core::Error when there is no summary at all. kLanes: with the ranks' lanes too. The
// fleet is read with `options`, by default with those it recorded (fleet-options.txt).
core::fleet::FleetAnalysis ReduceFleet(
    const core::fleet::FleetPaths& paths,
    core::fleet::FleetDetail detail = core::fleet::FleetDetail::kFigures,
    std::optional<core::fleet::FleetOptions> options = std::nullopt);

// --ranks-from and --traces-are: recorded by `fleet import` and `fleet submit`, for one report
// on `fleet report`.
struct FleetOptionArgs {
  std::string ranks_from;  // empty: not given
  std::string traces_are;
};
void AddFleetOptionArgs(CLI::App* cmd, FleetOptionArgs* args, bool recorded);
// `base` with what the arguments give; --traces-are runs without --ranks-from numbers the traces
// by their order (runs of a CI may all say they are rank 0).
core::fleet::FleetOptions ApplyFleetOptionArgs(const FleetOptionArgs& args,
                                               core::fleet::FleetOptions base);

// `fleet submit --slurm` (fleet_submit.cpp).
void RegisterFleetSubmit(CLI::App& fleet);

}  // namespace app::cli
