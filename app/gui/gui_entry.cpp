// The GUI build's side of app/gui_entry.h: the `view` subcommand, `bench ui`, and what
// `fencescope` with no arguments does (simulate the default scenario, open it).
#include "app/gui_entry.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "app/cli/commands.h"
#include "app/cli/terminal_progress.h"
#include "app/cli/whatif_edit_options.h"
#include "app/gui/bench/ui_benchmark.h"
#include "app/gui/platform/user_dirs.h"
#include "app/gui/state/simulation_job.h"
#include "app/gui/window_runner.h"

namespace app {
namespace {

void RegisterBenchUi(CLI::App& app) {
  CLI::App* bench = nullptr;
  for (auto* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    if (sub->get_name() == "bench") bench = sub;
  }
  if (!bench) return;
  auto* cmd = bench->add_subcommand(
      "ui",
      "Timeline frames built headless: ms per frame zoomed out and in a 1 ms window, "
      "resident bytes per event, draw items and arrows");
  auto events = std::make_shared<std::vector<uint64_t>>();
  auto frames = std::make_shared<int>(40);
  cmd->add_option("--events", *events, "Event counts to measure (default: 10000 1000000 10000000)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{10'000'000'000}));
  cmd->add_option("--frames", *frames, "Frames measured per case (default 40)")
      ->check(CLI::Range(1, 100000));
  auto dense = std::make_shared<uint64_t>(200'000);
  cmd->add_option("--dense-waits", *dense,
                  "Events of the dense-waits case, 8 streams each waiting on its neighbour "
                  "every 400 us (default 200000; 0: none)")
      ->check(CLI::Range(uint64_t{0}, uint64_t{100'000'000}));
  cmd->callback([events, frames, dense] {
    std::vector<uint64_t> counts = *events;
    if (counts.empty()) counts = {10'000, 1'000'000, 10'000'000};
    gui::bench::RunUiBenchmark(counts, *frames, std::cout, *dense);
  });
}

}  // namespace

void RegisterWindowCommands(CLI::App& app) {
  auto* view = app.add_subcommand("view", "Open a trace in the window");
  auto options = std::make_shared<gui::RunOptions>();
  auto traces = std::make_shared<std::vector<std::string>>();
  auto size = std::make_shared<std::vector<int>>();
  // No FILE (the desktop entry's `fencescope view %F` started from the menu): as `fencescope`.
  view->add_option("FILE", *traces,
                   "Trace databases (.db), any files `import` reads, or a fleet directory "
                   "(`fleet import -o DIR`: rank x step heat map and stragglers), each trace in "
                   "a tab (the first shown); none: simulate the default scenario and open it");
  view->add_option("--screenshot", options->screenshot,
                   "Render headless (e.g. under xvfb-run), write this PNG and exit");
  view->add_option("--frames", options->frames, "Frames rendered before the screenshot (3)")
      ->check(CLI::Range(1, 100000));
  view->add_option("--window", options->window,
                   "Visible range START END: ns from the trace start (or with a unit: 1.5ms, "
                   "2s), or absolute clock values written @NS; it must overlap the trace")
      ->expected(2);
  view->add_option("--range", options->range,
                   "Selected range START END (range statistics), written as for --window")
      ->expected(2);
  view->add_option("--select", options->select,
                   "Select an item: event:ROWID, packet:ID, signal:ID, wait:ID, cpu_wait:ID, "
                   "task:ID; a packet, signal or wait shows its chain of causes");
  view->add_option("--panel", options->panel,
                   "Panel under the timeline: stats, events, interrupts, pgo, findings, sql, "
                   "tracks, packets, whatif, opportunities");
  view->add_option("--sql", options->sql, "Query to run in the SQL console");
  view->add_option("--fleet-tab", options->fleet_tab,
                   "Of a fleet directory, the tab shown first: heat-map, timeline (the ranks on "
                   "one aligned time axis), stragglers, ranks");
  view->add_option("--size", *size, "Window size WIDTH HEIGHT (1600 1000)")
      ->expected(2)
      ->check(CLI::Range(1, 16384));
  cli::AddMaxInflatedOption(*view, options->max_inflated);
  // `whatif`'s edits: the first trace's prediction opens in a tab beside it.
  auto edits = std::make_shared<cli::WhatIfEditOptions>();
  cli::AddWhatIfEditOptions(*view, *edits);
  view->callback([options, traces, size, edits] {
    if (traces->empty()) return SetExitCode(RunDefaultWindow());
    gui::RunOptions run = *options;
    run.trace = traces->front();
    run.whatif = cli::EditsOf(*edits);
    run.more_traces.assign(traces->begin() + 1, traces->end());
    if (size->size() == 2) {
      run.width = std::max(320, (*size)[0]);
      run.height = std::max(240, (*size)[1]);
    }
    SetExitCode(gui::RunWindow(run));
  });
  RegisterBenchUi(app);
}

int RunDefaultWindow() try {
  // The README's first command: simulate the default scenario, then show it.
  std::filesystem::path trace = gui::platform::UserDataDir() / "default.db";
  gui::state::SimulationRequest request;
  request.scenario = "default";
  request.output = trace;
  {
    cli::TerminalProgress progress("simulate default");
    uint64_t events = gui::state::Simulate(request, [&](double f) { progress.Update(f); });
    progress.Finish();
    std::cerr << fmt::format("fencescope: simulated the default scenario: {} events -> {}\n",
                             events, trace.string());
  }
  gui::RunOptions run;
  run.trace = trace;
  return gui::RunWindow(run);
} catch (const std::exception& e) {
  std::cerr << "fencescope: error: " << e.what() << "\n";
  return 1;
}

}  // namespace app
