// `fencescope bench fleet DIR`: the fleet targets of the README on the rank traces in DIR
// (made by tests/fleet/make_fleet.py, whose truth.json, when present, holds the true
// stragglers and clock offsets):
//   * wall time of `fleet import` + `fleet report` <= 1.1 x (sum of single-trace imports) / cores
//   * the largest peak resident memory of a map worker <= the largest single import's peak
//   * the reduce step over 8,000 summaries <= 2 s (summaries made from one of DIR's)
//   * the stragglers and offsets found equal the true ones
// An import itself runs on more than one core, so the sum of single imports over the cores is
// less than any pool of imports can take: the same imports are also timed side by side, as many
// at once as the fleet runs workers, which is what the map step adds its analysis to.
// Each input is read into the page cache before the run that times it (single imports: just
// before each; the fleet: all before it starts), so that neither side reads from storage while
// the other reads from memory; what each side still read from storage is printed.
#include <chrono>
#include <fstream>
#include <iostream>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <simdjson.h>

#include "app/cli/child_process.h"
#include "app/cli/commands.h"
#include "app/cli/fleet_commands.h"
#include "app/cli/fleet_pool.h"
#include "app/cli/page_cache.h"
#include "core/fleet/fleet_report.h"
#include "core/model/error.h"
#include "core/store/output_file.h"

namespace app::cli {
namespace fs = std::filesystem;

namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// The truth.json of make_fleet.py: the straggler of each step and each rank's offset.
struct Truth {
  std::vector<int64_t> stragglers;  // by step
  std::vector<int64_t> offsets_ns;  // by rank
};
bool ReadTruth(const fs::path& path, Truth* truth) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (!fs::exists(path) || parser.load(path.string()).get(doc)) return false;
  for (auto step : doc["steps"].get_array()) {
    truth->stragglers.push_back(step["straggler"].get_int64().value());
  }
  for (auto offset : doc["offsets_ns"].get_array()) {
    truth->offsets_ns.push_back(offset.get_int64().value());
  }
  return true;
}

struct ReduceRun {
  double seconds = 0;
  int64_t peak_bytes = 0;
};

// `copies` summaries in a scratch fleet, each one of `summary` with another rank, and the
// reduce step over them: `fencescope fleet report` into JSON, as a child process (so that its
// peak memory is its own).
ReduceRun ReduceOverCopies(const fs::path& summary, size_t copies, const fs::path& dir) {
  std::ifstream in(summary);
  std::string first_line, rest;
  std::getline(in, first_line);
  rest.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  const std::string key = "\"metadata_rank\":";
  const size_t at = first_line.find(key);
  if (at == std::string::npos) throw core::Error(summary.string() + ": not a fleet summary");
  const size_t value_end = first_line.find(',', at);
  const core::fleet::FleetPaths paths{dir};
  std::vector<fs::path> inputs;
  for (size_t i = 0; i < copies; ++i) inputs.push_back(fmt::format("/generated/rank-{}.json", i));
  core::fleet::WriteInputList(paths, inputs);
  for (size_t i = 0; i < copies; ++i) {
    std::ofstream out(paths.Summary(i));
    out << first_line.substr(0, at + key.size()) << i << first_line.substr(value_end) << "\n"
        << rest;
  }
  const fs::path json = dir / "fleet.json";
  const auto start = std::chrono::steady_clock::now();
  const ChildRun run = RunChild(
      {SelfExecutable(), "fleet", "report", paths.dir.string(), "-o", json.string()}, true);
  ReduceRun result{Seconds(start), run.peak_resident_bytes};
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  int64_t ranks = -1;
  if (run.exit_code != 0 || parser.load(json.string()).get(doc) ||
      doc["ranks_count"].get_int64().get(ranks) || ranks != static_cast<int64_t>(copies)) {
    throw core::Error(
        fmt::format("bench fleet: the reduce over {} summaries failed or lost ranks "
                    "(exit code {}, {} ranks)",
                    copies, run.exit_code, ranks));
  }
  return result;
}

struct ImportsSideBySide {
  double wall_seconds = 0;
  double cpu_seconds = 0;
  int64_t disk_read_bytes = 0;
};

// `fencescope import` of every input, `at_once` children at a time (as the map pool runs them).
ImportsSideBySide TimeImportsSideBySide(const std::vector<fs::path>& inputs, size_t at_once,
                                        const fs::path& dir) {
  for (const fs::path& p : inputs) ReadIntoPageCache(p);
  ImportsSideBySide result;
  std::mutex mutex;
  std::string failed;
  const std::string self = SelfExecutable();
  const auto start = std::chrono::steady_clock::now();
  ForEachOnPool(inputs.size(), at_once, [&](size_t i, size_t worker) {
    const fs::path db = dir / fmt::format("side-by-side-{}.db", worker);
    fs::remove(db);
    const ChildRun run = RunChild({self, "import", inputs[i].string(), "-o", db.string()}, true);
    fs::remove(db);
    std::lock_guard lock(mutex);
    result.cpu_seconds += run.cpu_seconds;
    result.disk_read_bytes += run.disk_read_bytes;
    if (run.exit_code != 0) failed = inputs[i].string();
  });
  result.wall_seconds = Seconds(start);
  if (!failed.empty()) throw core::Error("bench fleet: import failed: " + failed);
  return result;
}

}  // namespace

void RegisterBenchFleet(CLI::App& bench) {
  auto* cmd = bench.add_subcommand(
      "fleet", "Fleet import + report against single imports; worker memory; reduce over 8,000 "
               "summaries; stragglers and offsets against the generator's truth.json");
  struct Options {
    std::string dir;
    std::string scratch = fs::temp_directory_path().string();
    size_t summaries = 8000;
    size_t single = 0;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("DIR", o->dir, "Rank traces (tests/fleet/make_fleet.py --out DIR)")->required();
  cmd->add_option("--dir", o->scratch, "Directory for the scratch fleets");
  cmd->add_option("--summaries", o->summaries, "Summaries for the reduce figure (default 8000)");
  cmd->add_option("--single", o->single,
                  "Single imports to time (default: every trace; fewer are scaled up)");
  cmd->callback([o] {
    const std::vector<fs::path> inputs = core::fleet::ExpandInputs({o->dir});
    const fs::path scratch = fs::path(o->scratch) / "fencescope-bench-fleet";
    fs::remove_all(scratch);
    fs::create_directories(scratch);
    uint64_t bytes = 0;
    for (const fs::path& p : inputs) bytes += fs::file_size(p);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::cout << fmt::format("ranks                      {} ({:.1f} MB of trace files)\n",
                             inputs.size(), bytes / 1e6);

    // Single-trace imports, one after another, each a child `fencescope import`.
    const size_t single = o->single ? std::min(o->single, inputs.size()) : inputs.size();
    double single_seconds = 0, single_cpu_seconds = 0;
    int64_t import_peak = 0, single_disk_bytes = 0;
    for (size_t i = 0; i < single; ++i) {
      const fs::path db = scratch / "single.db";
      fs::remove(db);
      ReadIntoPageCache(inputs[i]);
      const auto start = std::chrono::steady_clock::now();
      const ChildRun run =
          RunChild({SelfExecutable(), "import", inputs[i].string(), "-o", db.string()}, true);
      single_seconds += Seconds(start);
      single_cpu_seconds += run.cpu_seconds;
      single_disk_bytes += run.disk_read_bytes;
      if (run.exit_code != 0) throw core::Error("bench fleet: import failed: " + inputs[i].string());
      import_peak = std::max(import_peak, run.peak_resident_bytes);
    }
    fs::remove(scratch / "single.db");
    const double scale = static_cast<double>(inputs.size()) / static_cast<double>(single);
    const double single_sum = single_seconds * scale;
    const double single_cpu = single_cpu_seconds * scale;
    std::cout << fmt::format("single imports, sum        {:.2f} s{} (largest peak {:.1f} MB)\n",
                             single_sum, single < inputs.size()
                                             ? fmt::format(" (from {} of them)", single) : "",
                             import_peak / 1e6);
    // An import runs on more than one thread: its CPU time over the cores, not its wall time,
    // is the least a pool that keeps every core busy can take for the imports alone.
    std::cout << fmt::format("single imports, CPU        {:.2f} s ({:.2f} cores while one runs)\n",
                             single_cpu, single_cpu / single_sum);

    // The same imports as many at once as the fleet runs workers.
    const size_t workers = FleetWorkerCount(inputs, 0);
    const ImportsSideBySide side = TimeImportsSideBySide(inputs, workers, scratch);
    std::cout << fmt::format("imports, {} at once         {:.2f} s ({:.2f} s CPU)\n", workers,
                             side.wall_seconds, side.cpu_seconds);

    // The fleet: import (the map step on the local pool) and report.
    const core::fleet::FleetPaths paths{scratch / "fleet"};
    core::fleet::WriteInputList(paths, inputs);
    for (const fs::path& p : inputs) ReadIntoPageCache(p);
    const MapPoolResult pool = RunMapPool(paths, inputs.size(), workers, {});
    const auto report_start = std::chrono::steady_clock::now();
    const core::fleet::FleetAnalysis a = ReduceFleet(paths);
    core::store::WriteFileAtomically(paths.dir / "fleet.html", core::fleet::FleetHtml(a));
    const double report_seconds = Seconds(report_start);
    std::cout << fmt::format("fleet import               {:.2f} s ({} workers, {} failed)\n",
                             pool.wall_seconds, pool.workers, pool.failed);
    std::cout << fmt::format("fleet report               {:.3f} s\n", report_seconds);
    const double ideal = single_sum / cores;
    std::cout << fmt::format(
        "fleet / (single sum / {} cores)  {:.2f}  (target <= 1.1)\n", cores,
        (pool.wall_seconds + report_seconds) / ideal);
    std::cout << fmt::format(
        "fleet / (single CPU / {} cores)  {:.2f}  (the imports' own CPU time over the cores)\n",
        cores, (pool.wall_seconds + report_seconds) / (single_cpu / cores));
    std::cout << fmt::format(
        "fleet / imports {} at once   {:.2f}  (what the map step and the report add to importing "
        "on the same pool)\n",
        workers, (pool.wall_seconds + report_seconds) / side.wall_seconds);
    std::cout << fmt::format(
        "fleet CPU / single CPU     {:.2f}  ({:.2f} s: the map step's analysis on top of "
        "the imports)\n",
        pool.cpu_seconds / single_cpu, pool.cpu_seconds);
    // Reads from storage during a timed run (none when the page cache held every input).
    std::cout << fmt::format(
        "read from storage          {:.1f} MB by the single imports, {:.1f} "
        "MB side by side, {:.1f} MB by the fleet\n",
        static_cast<double>(single_disk_bytes) * scale / 1e6, side.disk_read_bytes / 1e6,
        pool.disk_read_bytes / 1e6);
    std::cout << fmt::format(
        "worker peak / import peak  {:.2f}  ({:.1f} MB / {:.1f} MB; target <= 1.0)\n",
        static_cast<double>(pool.peak_worker_bytes) / static_cast<double>(import_peak),
        pool.peak_worker_bytes / 1e6, import_peak / 1e6);

    Truth truth;
    // make_fleet.py writes DIR/ranks/* and DIR/truth.json: DIR or its parent.
    const fs::path dir = fs::absolute(o->dir).lexically_normal();
    if (ReadTruth(dir / "truth.json", &truth) ||
        ReadTruth(dir.parent_path() / "truth.json", &truth) ||
        ReadTruth(dir.parent_path().parent_path() / "truth.json", &truth)) {
      size_t exact_steps = 0, exact_offsets = 0;
      for (size_t s = 0; s < a.steps.size() && s < truth.stragglers.size(); ++s) {
        exact_steps += a.steps[s].straggler.rank == truth.stragglers[s];
      }
      for (size_t r = 0; r < a.ranks.size() && r < truth.offsets_ns.size(); ++r) {
        exact_offsets += a.ranks[r].offset_ns == truth.offsets_ns[r];
      }
      std::cout << fmt::format("stragglers found exactly   {} of {} steps\n", exact_steps,
                               truth.stragglers.size());
      std::cout << fmt::format("clock offsets exact        {} of {} ranks\n", exact_offsets,
                               truth.offsets_ns.size());
    }
    if (o->summaries && pool.succeeded) {
      const ReduceRun reduce = ReduceOverCopies(paths.Summary(0), o->summaries, scratch / "reduce");
      std::cout << fmt::format(
          "reduce, {} summaries     {:.3f} s  (target <= 2 s), peak {:.1f} MB\n", o->summaries,
          reduce.seconds, reduce.peak_bytes / 1e6);
    }
    fs::remove_all(scratch);
  });
}

}  // namespace app::cli
