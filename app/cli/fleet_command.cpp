// `fencescope fleet ...`: many traces as one (core/fleet). import = the map step of every trace
// on this machine (fleet_pool.h); map = the map step of some traces (what each Slurm array task
// and each local worker runs); report = the reduce step; status = progress from the files
// present; submit = the same map and reduce as Slurm jobs (fleet_submit.cpp).
#include <malloc.h>

#include <atomic>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include <fmt/format.h>

#include "app/cli/commands.h"
#include "app/cli/fleet_commands.h"
#include "app/cli/fleet_pool.h"
#include "app/cli/report_output.h"
#include "app/cli/terminal_progress.h"
#include "app/gui_entry.h"
#include "core/fleet/fleet_analysis.h"
#include "core/fleet/fleet_inputs.h"
#include "core/fleet/fleet_report.h"
#include "core/fleet/summary_file.h"
#include "core/model/error.h"
#include "core/report/report_json.h"
#include "core/store/event_row_packer.h"
#include "core/store/output_file.h"
#include "core/store/trace_file.h"
#include "importers/common/format_sniffer.h"
#include "importers/import_file.h"

namespace app::cli {
namespace fs = std::filesystem;
using core::fleet::FleetPaths;

namespace {

std::string ReadWholeFile(const fs::path& path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// The map step of input `index`: import, analyse, summarise. An input that is a fencescope
// trace database already (a simulated run, an earlier import) is copied as it is, after a check
// that it opens, so the fleet folder holds every rank's database either way. A trace that
// cannot be read leaves its reason in the .error file (and on stderr) and returns false.
bool MapOne(const FleetPaths& paths, const fs::path& input, size_t index) {
  std::error_code ec;
  fs::remove(paths.Summary(index), ec);
  fs::remove(paths.Error(index), ec);
  std::string error;
  try {
    // The events the import writes are kept, packed, so that they need not be read back (by the
    // Chrome JSON importer only: other formats' events, and a copied database's, are read back).
    core::store::EventRowPacker written;
    if (importers::IsTraceDatabaseFile(input)) {
      core::store::OpenTrace(input);  // says what the database is when not a trace
      fs::remove(paths.Database(index), ec);
      if (!fs::copy_file(input, paths.Database(index), ec) || ec) {
        throw core::Error(fmt::format("{}: cannot copy it into {}: {}", input.string(),
                                      paths.Database(index).string(), ec.message()));
      }
    } else {
      importers::ImportOptions options;
      options.kept_events = &written;
      // The other workers have the other cores.
      options.parse_in_parallel = false;
      options.write_on_helper_thread = false;
      importers::ImportFile(input, paths.Database(index), options);
    }
    // The import's memory goes back to the system before the trace is analysed, so the worker's
    // peak is the import's, not the import's left-overs plus the analysis.
    malloc_trim(0);
    const core::store::TraceStore store =
        written.rows > 0
            ? core::store::LoadTraceWithEvents(paths.Database(index), std::move(written))
            : core::store::LoadTrace(paths.Database(index));
    const core::report::ReportData data = core::report::AnalyseTrace(store, /*full=*/true);
    const core::fleet::RankSummary summary =
        core::fleet::ComputeRankSummary(data, input.string(), static_cast<int64_t>(index));
    core::fleet::WriteSummaryFile(paths.Summary(index), summary, core::report::ReportJson(data));
    return true;
  } catch (const core::Error& e) {
    error = e.what();
  } catch (const std::bad_alloc&) {
    error = fmt::format("{}: out of memory while importing or analysing it", input.string());
  }
  // The importer's messages name the file; a message that does not gets the name first.
  if (error.find(input.filename().string()) == std::string::npos) {
    error = input.string() + ": " + error;
  }
  core::store::WriteFileAtomically(paths.Error(index), error + "\n");
  std::cerr << "fencescope: error: " << error << "\n";
  return false;
}

// Removes what an earlier run left in FLEETDIR/traces (files named NNNNN.db, .summary.json,
// .error and nothing else), so nothing stale is reported. Inputs may not live there: they
// would be overwritten by the fleet's own databases.
void ClearResults(const FleetPaths& paths, const std::vector<fs::path>& inputs) {
  std::error_code ec;
  const fs::path traces = fs::weakly_canonical(paths.TracesDir(), ec);
  for (const fs::path& input : inputs) {
    if (fs::weakly_canonical(input, ec).parent_path() == traces) {
      throw core::Error(fmt::format("{}: an input inside the fleet's own traces folder (choose "
                                    "another -o)",
                                    input.string()));
    }
  }
  if (!fs::is_directory(paths.TracesDir(), ec)) return;
  for (const fs::directory_entry& e : fs::directory_iterator(paths.TracesDir(), ec)) {
    const std::string name = e.path().filename().string();
    const size_t dot = name.find('.');
    const std::string rest = dot == std::string::npos ? "" : name.substr(dot);
    if (dot == 5 && name.find_first_not_of("0123456789") == 5 &&
        (rest == ".db" || rest == ".summary.json" || rest == ".error")) {
      fs::remove(e.path(), ec);
    }
  }
}

std::string Megabytes(int64_t bytes) { return fmt::format("{:.1f} MB", bytes / 1e6); }

}  // namespace

FleetState ReadFleetState(const FleetPaths& paths) {
  FleetState state;
  state.inputs = core::fleet::ReadInputList(paths);
  for (size_t i = 0; i < state.inputs.size(); ++i) {
    if (fs::exists(paths.Summary(i))) {
      state.summaries.push_back(i);
    } else if (fs::exists(paths.Error(i))) {
      state.failed.push_back({state.inputs[i].string(), ReadWholeFile(paths.Error(i))});
    } else {
      state.pending.push_back(i);
    }
  }
  return state;
}

void AddFleetOptionArgs(CLI::App* cmd, FleetOptionArgs* args, bool recorded) {
  const std::string scope = recorded ? " (recorded in FLEETDIR for the report and the window)"
                                     : " (this report only; default: what FLEETDIR recorded)";
  cmd->add_option("--ranks-from", args->ranks_from,
                  "How the traces are numbered" + scope +
                      ": metadata (the rank a trace states, else the number in its file name, "
                      "else its place in the input list" +
                      (recorded ? "; the default)" : ")") +
                      ", name (the number in the file name), order (the place in the input list)")
      ->check(CLI::IsMember({"metadata", "name", "order"}));
  cmd->add_option("--traces-are", args->traces_are,
                  "What the traces are" + scope + ": ranks (of one job" +
                      (recorded ? ", the default" : "") +
                      ": a step's straggler is the rank the others waited for) or runs (of a CI: "
                      "no run waits for another, a step's straggler is the run whose step took "
                      "longest; numbered by order unless --ranks-from says otherwise)")
      ->check(CLI::IsMember({"ranks", "runs"}));
}

core::fleet::FleetOptions ApplyFleetOptionArgs(const FleetOptionArgs& args,
                                               core::fleet::FleetOptions base) {
  if (!args.traces_are.empty()) {
    base.traces_are = *core::fleet::ParseTracesAre(args.traces_are);
    if (base.traces_are == core::fleet::TracesAre::kRuns) {
      base.numbering = core::fleet::RankNumbering::kOrder;
    }
  }
  if (!args.ranks_from.empty()) base.numbering = *core::fleet::ParseRankNumbering(args.ranks_from);
  return base;
}

core::fleet::FleetAnalysis ReduceFleet(const FleetPaths& paths, core::fleet::FleetDetail detail,
                                       std::optional<core::fleet::FleetOptions> options) {
  FleetState state = ReadFleetState(paths);
  if (state.summaries.empty()) {
    throw core::Error(fmt::format("{}: no trace summary yet ({} traces: {} failed, {} not mapped)",
                                  paths.dir.string(), state.inputs.size(), state.failed.size(),
                                  state.pending.size()));
  }
  // Read on every core: parsing the summaries' first lines is the whole cost of the reduce.
  std::vector<core::fleet::RankSummary> summaries(state.summaries.size());
  std::vector<std::string> errors(state.summaries.size());
  std::atomic<size_t> next{0};
  auto read = [&] {
    for (size_t k = next++; k < summaries.size(); k = next++) {
      try {
        summaries[k] =
            core::fleet::ReadSummaryFile(paths.Summary(state.summaries[k]), /*step_paths=*/false);
      } catch (const core::Error& e) {
        errors[k] = e.what();
      }
    }
  };
  std::vector<std::thread> threads;
  const size_t workers = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                                          summaries.size());
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(read);
  read();
  for (std::thread& t : threads) t.join();
  for (const std::string& error : errors) {
    if (!error.empty()) throw core::Error(error);
  }
  std::vector<core::fleet::FailedTrace> failed = std::move(state.failed);
  for (size_t i : state.pending) {
    failed.push_back({state.inputs[i].string(), "no summary (the map step has not run on it)"});
  }
  std::map<std::string, size_t> summary_of_input;
  for (size_t k = 0; k < summaries.size(); ++k) {
    summary_of_input[summaries[k].input] = state.summaries[k];
  }
  core::fleet::FleetAnalysis analysis =
      core::fleet::AnalyseFleet(std::move(summaries), std::move(failed), detail,
                                options ? *options : core::fleet::ReadFleetOptions(paths));
  // What each straggler was doing: its critical path in that step, read again from its summary
  // (the few ranks that were stragglers, each once) rather than kept for every rank.
  std::map<int64_t, const core::fleet::RankRow*> row_of_rank;
  for (const core::fleet::RankRow& r : analysis.ranks) row_of_rank[r.rank] = &r;
  std::map<size_t, core::fleet::RankSummary> with_paths;
  for (core::fleet::StepRow& step : analysis.steps) {
    if (step.straggler.rank < 0) continue;
    const size_t index = summary_of_input.at(row_of_rank.at(step.straggler.rank)->input);
    auto it = with_paths.find(index);
    if (it == with_paths.end()) {
      it = with_paths.emplace(index, core::fleet::ReadSummaryFile(paths.Summary(index))).first;
    }
    for (const core::fleet::StepSummary& s : it->second.steps) {
      if (s.id == step.step) step.straggler.doing = s.path;
    }
  }
  return analysis;
}

namespace {

void RegisterFleetImport(CLI::App& fleet) {
  auto* cmd = fleet.add_subcommand(
      "import", "Import and summarise many traces in parallel (the map step, on this machine)");
  struct Options {
    std::vector<std::string> inputs;
    std::string output;
    size_t jobs = 0;
    FleetOptionArgs fleet_options;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("INPUTS", o->inputs, "Trace files, directories or glob patterns")->required();
  cmd->add_option("-o,--output", o->output, "Fleet directory to write (FLEETDIR)")->required();
  cmd->add_option("-j,--jobs", o->jobs,
                  "Most traces imported at once (default: the cores, fewer when memory is short)");
  AddFleetOptionArgs(cmd, &o->fleet_options, /*recorded=*/true);
  cmd->callback([o] {
    const std::vector<fs::path> inputs = core::fleet::ExpandInputs(o->inputs);
    const FleetPaths paths{fs::absolute(o->output)};
    ClearResults(paths, inputs);
    core::fleet::WriteInputList(paths, inputs);
    core::fleet::WriteFleetOptions(paths, ApplyFleetOptionArgs(o->fleet_options, {}));
    const size_t workers = FleetWorkerCount(inputs, o->jobs);
    TerminalProgress progress(fmt::format("fleet import ({} workers)", workers));
    const MapPoolResult r = RunMapPool(paths, inputs.size(), workers, [&](size_t done, size_t n) {
      progress.Update(static_cast<double>(done) / static_cast<double>(n));
    });
    progress.Finish();
    std::cout << fmt::format(
        "fleet import: {} of {} traces summarised into {} ({} workers, largest worker peak {}, "
        "{:.2f} s)\n",
        r.succeeded, inputs.size(), paths.dir.string(), r.workers, Megabytes(r.peak_worker_bytes),
        r.wall_seconds);
    if (r.failed) {
      const FleetState state = ReadFleetState(paths);
      for (const core::fleet::FailedTrace& f : state.failed) {
        std::cerr << fmt::format("failed: {}: {}\n", f.input, f.error);
      }
      std::cerr << fmt::format("fleet import: {} of {} traces failed\n", r.failed, inputs.size());
      app::SetExitCode(kFleetSomeFailedExitCode);
    }
  });
}

void RegisterFleetMap(CLI::App& fleet) {
  auto* cmd = fleet.add_subcommand(
      "map", "The map step of some traces of a fleet: import, analyse, write the summary "
             "(what `fleet import` workers and Slurm array tasks run)");
  struct Options {
    std::string fleet;
    size_t first = 0;
    size_t count = 1;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("FLEETDIR", o->fleet, "Fleet directory (made by fleet import or submit)")
      ->required();
  cmd->add_option("--first", o->first, "Index of the first input (0-based, fleet-inputs.txt)");
  cmd->add_option("--count", o->count, "Inputs to map from --first (default 1)")
      ->check(CLI::Range(size_t{1}, SIZE_MAX));
  cmd->callback([o] {
    const FleetPaths paths{fs::absolute(o->fleet)};
    const std::vector<fs::path> inputs = core::fleet::ReadInputList(paths);
    if (o->first >= inputs.size()) {
      // An array task past the end (a chunked array rounds up): nothing to do.
      return;
    }
    const size_t end = std::min(inputs.size(), o->first + o->count);
    for (size_t i = o->first; i < end; ++i) MapOne(paths, inputs[i], i);
    // A trace that cannot be read is a result (its .error file), not a failed task: exit 0, so
    // a Slurm reduce job that depends on the array with afterok still runs and reports it.
  });
}

void RegisterFleetReport(CLI::App& fleet) {
  auto* cmd = fleet.add_subcommand(
      "report", "Cross-rank report from the summaries (the reduce step): ranks, steps, clock "
                "offsets, stragglers");
  struct Options {
    std::string fleet;
    std::string output;
    std::string format;
    std::vector<std::string> fail_if;
    FleetOptionArgs fleet_options;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("FLEETDIR", o->fleet, "Fleet directory")->required();
  cmd->add_option("-o,--output", o->output,
                  "Output file (default: standard output, JSON); the format follows the "
                  "extension (.html, .json, .md) unless --format is given");
  cmd->add_option("--format", o->format, "html | json | md")
      ->check(CLI::IsMember({"html", "json", "md"}));
  cmd->add_option("--fail-if", o->fail_if,
                  "Exit with code 3 when EXPR over the fleet JSON keys is true, e.g. "
                  "\"stragglers.max_lateness_ns > 5e6 || traces_failed > 0\" (may repeat)");
  AddFleetOptionArgs(cmd, &o->fleet_options, /*recorded=*/false);
  cmd->callback([o] {
    if (!o->output.empty()) core::store::ResolveOutputTarget(o->output);
    const std::string format = ReportFormatFor(o->output, o->format);
    const FleetPaths paths{fs::absolute(o->fleet)};
    const core::fleet::FleetAnalysis analysis =
        ReduceFleet(paths, core::fleet::FleetDetail::kFigures,
                    ApplyFleetOptionArgs(o->fleet_options, core::fleet::ReadFleetOptions(paths)));
    const core::report::Json json = core::fleet::FleetJson(analysis);
    const std::vector<std::string> tripped = TrippedGates(json, o->fail_if);
    const std::string content = format == "json" ? json.Dump()
                                : format == "md" ? core::fleet::FleetMarkdown(analysis)
                                                 : core::fleet::FleetHtml(analysis);
    DeliverReport(
        o->output, content,
        fmt::format("fleet {} report, {} {}, {} steps", format, analysis.ranks.size(),
                    core::fleet::TracesAreName(analysis.options.traces_are), analysis.steps.size()),
        tripped);
  });
}

void RegisterFleetStatus(CLI::App& fleet) {
  auto* cmd = fleet.add_subcommand("status", "How far the map step of a fleet has got");
  auto dir = std::make_shared<std::string>();
  cmd->add_option("FLEETDIR", *dir, "Fleet directory")->required();
  cmd->callback([dir] {
    const FleetPaths paths{fs::absolute(*dir)};
    const FleetState state = ReadFleetState(paths);
    std::cout << fmt::format("{}: {} traces, {} summarised, {} failed, {} pending\n",
                             paths.dir.string(), state.inputs.size(), state.summaries.size(),
                             state.failed.size(), state.pending.size());
    const core::fleet::FleetOptions options = core::fleet::ReadFleetOptions(paths);
    std::cout << fmt::format("read as: traces-are {}, ranks-from {}\n",
                             core::fleet::TracesAreName(options.traces_are),
                             core::fleet::RankNumberingName(options.numbering));
    for (const core::fleet::FailedTrace& f : state.failed) {
      std::cout << fmt::format("failed: {}: {}\n", f.input, f.error);
    }
    const fs::path jobs = paths.dir / "slurm" / "jobs.txt";
    if (fs::exists(jobs)) std::cout << ReadWholeFile(jobs) << "\n";
    for (const char* report : {"fleet.json", "fleet.md", "fleet.html"}) {
      if (fs::exists(paths.dir / report)) {
        std::cout << fmt::format("report: {}\n", (paths.dir / report).string());
      }
    }
  });
}

}  // namespace

void RegisterFleetCommand(CLI::App& app) {
  auto* fleet = app.add_subcommand(
      "fleet", "Many traces as one: the ranks of a distributed job or the runs of a CI, on this "
               "machine or as Slurm jobs");
  fleet->require_subcommand(1);
  RegisterFleetImport(*fleet);
  RegisterFleetMap(*fleet);
  RegisterFleetReport(*fleet);
  RegisterFleetStatus(*fleet);
  RegisterFleetSubmit(*fleet);
}

}  // namespace app::cli
