#include <iostream>

#include <fmt/format.h>

#include "app/cli/commands.h"
#include "app/cli/terminal_progress.h"
#include "core/model/error.h"
#include "core/sim/preemption.h"
#include "core/sim/scenario_loader.h"
#include "core/sim/simulator.h"
#include "core/store/output_file.h"
#include "core/store/trace_writer.h"

namespace app::cli {

void RegisterSimulateCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "simulate", "Run a scenario through the D3D12 / WDDM 3.2 fence simulator into a trace");
  struct Args {
    std::string scenario;
    std::string output;
    uint64_t seed = 0;
    std::string fence_mode;
    double duration_ms = 0;
    std::string preemption_granularity;
  };
  auto args = std::make_shared<Args>();
  std::string names;
  for (const auto& n : core::sim::EmbeddedScenarioNames()) names += (names.empty() ? "" : ", ") + n;
  cmd->add_option("SCENARIO", args->scenario,
                  "Scenario .toml file, or an embedded scenario: " + names)
      ->required();
  cmd->add_option("-o,--output", args->output, "Trace database to write")->required();
  auto* seed = cmd->add_option("--seed", args->seed, "Random seed (default: the scenario's)")
                   ->check(FiniteRange(0, 18446744073709551615.0));
  cmd->add_option("--fence-mode", args->fence_mode,
                  "native (WDDM 3.2 native fences) or monitored (legacy monitored fences)")
      ->check(CLI::IsMember({"native", "monitored"}));
  auto* duration =
      cmd->add_option("--duration-ms", args->duration_ms,
                      "Time limit in simulated milliseconds (default: the scenario's)")
          ->check(FiniteRange(0, core::sim::kMaxDurationMs));
  cmd->add_option("--preemption-granularity", args->preemption_granularity,
                  "Replace every adapter's preemption granularity: a graphics name (primitive, "
                  "triangle, pixel) sets graphics, a compute name (dispatch, thread_group, thread) "
                  "compute; none (pre-WDDM 1.2), dma_buffer and shader set both");
  cmd->callback([args, seed, duration] {
    if (std::filesystem::exists(args->scenario)) {
      core::store::CheckOutputIsNotInput(args->scenario, args->output, "scenario file");
    }
    core::sim::Scenario scenario = core::sim::LoadScenario(args->scenario);
    core::sim::SimOptions options;
    if (*seed) options.seed = args->seed;
    if (!args->fence_mode.empty()) {
      options.fence_mode = args->fence_mode == "native" ? core::sim::FenceMode::kNative
                                                        : core::sim::FenceMode::kMonitored;
    }
    if (*duration) {
      if (args->duration_ms <= 0) throw core::Error("--duration-ms must be > 0");
      options.duration_ns = static_cast<core::model::DurationNs>(args->duration_ms * 1e6 + 0.5);
    }
    if (!args->preemption_granularity.empty() &&
        !core::sim::ApplyGranularityOverride(args->preemption_granularity, options)) {
      throw core::Error("--preemption-granularity: unknown granularity '" +
                        args->preemption_granularity +
                        "' (none, dma_buffer, primitive, triangle, pixel, dispatch, thread_group, "
                        "thread, shader)");
    }
    TerminalProgress progress("simulate " + scenario.name);
    options.progress = [&progress](double f) { progress.Update(f); };
    core::store::TraceWriter writer(args->output, "simulator");
    const core::sim::SimSummary summary = core::sim::RunSimulation(scenario, writer, options);
    writer.Commit();
    progress.Finish();
    std::cout << fmt::format("{}: {} events, {:.3f} ms simulated, seed {}, fence mode {} -> {}\n",
                             scenario.name, summary.events, summary.end_ns / 1e6, summary.seed,
                             core::sim::FenceModeName(summary.fence_mode), args->output);
  });
}

}  // namespace app::cli
