// `fencescope fleet submit --slurm INPUTS -o FLEETDIR`: the fleet's map step as a Slurm job
// array and its reduce step as a job that starts when the whole array succeeded
// (--dependency=afterok). The scripts are core/fleet/slurm_scripts.h; sbatch does the rest.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "app/cli/child_process.h"
#include "app/cli/fleet_commands.h"
#include "core/fleet/slurm_scripts.h"
#include "core/model/error.h"
#include "core/store/output_file.h"

namespace app::cli {
namespace fs = std::filesystem;

namespace {

// Runs `sbatch --parsable ARGS SCRIPT` and returns the job id it prints ("123" of
// "123;cluster"). Throws core::Error with sbatch's own message when it fails.
std::string Sbatch(const std::string& args, const fs::path& script) {
  const std::string command = fmt::format("sbatch --parsable {} {} 2>&1", args,
                                          core::fleet::ShellQuote(script.string()));
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw core::Error("cannot run sbatch: " + command);
  std::string out;
  char buffer[4096];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (status != 0) {
    const bool missing = WIFEXITED(status) && WEXITSTATUS(status) == 127;
    throw core::Error(missing ? "sbatch was not found on PATH (is this a Slurm login node?)"
                              : fmt::format("sbatch failed for {}: {}", script.string(), out));
  }
  const std::string id = out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
  const std::string job = id.substr(0, id.find(';'));
  if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos) {
    throw core::Error(fmt::format("sbatch printed no job id for {}: {}", script.string(), out));
  }
  return job;
}

}  // namespace

void RegisterFleetSubmit(CLI::App& fleet) {
  auto* cmd = fleet.add_subcommand(
      "submit", "Run the map step as a Slurm job array and the report as a job depending on it");
  struct Options {
    bool slurm = false;
    std::vector<std::string> inputs;
    std::string output;
    std::string partition;
    uint32_t array_max = 0;
    size_t chunk = 1;
    bool dry_run = false;
    FleetOptionArgs fleet_options;
  };
  auto o = std::make_shared<Options>();
  cmd->add_flag("--slurm", o->slurm, "Submit to Slurm with sbatch (the engine; required)")
      ->required();
  cmd->add_option("INPUTS", o->inputs, "Trace files, directories or glob patterns")->required();
  cmd->add_option("-o,--output", o->output,
                  "Fleet directory (on a file system every node sees)")->required();
  cmd->add_option("--partition", o->partition, "Slurm partition (default: the cluster's)");
  cmd->add_option("--array-max", o->array_max,
                  "Most map tasks running at once (sbatch --array=0-N%MAX)")
      ->check(CLI::Range(uint32_t{1}, UINT32_MAX));
  cmd->add_option("--chunk", o->chunk, "Traces per map task (default 1)")
      ->check(CLI::Range(size_t{1}, SIZE_MAX));
  cmd->add_flag("--dry-run", o->dry_run, "Write the scripts, print them, submit nothing");
  AddFleetOptionArgs(cmd, &o->fleet_options, /*recorded=*/true);
  cmd->callback([o] {
    const std::vector<fs::path> inputs = core::fleet::ExpandInputs(o->inputs);
    const core::fleet::FleetPaths paths{fs::absolute(o->output)};
    core::fleet::WriteInputList(paths, inputs);
    core::fleet::WriteFleetOptions(paths, ApplyFleetOptionArgs(o->fleet_options, {}));
    std::error_code ec;
    fs::create_directories(paths.dir / "slurm", ec);
    if (ec) {
      throw core::Error(fmt::format("{}: cannot create: {}", (paths.dir / "slurm").string(),
                                    ec.message()));
    }
    core::fleet::SlurmJobSpec spec;
    spec.executable = SelfExecutable();
    spec.fleet = paths.dir;
    spec.traces = inputs.size();
    spec.chunk = o->chunk;
    spec.array_max = o->array_max;
    spec.partition = o->partition;
    const fs::path map_script = paths.dir / "slurm" / "map.sbatch";
    const fs::path reduce_script = paths.dir / "slurm" / "reduce.sbatch";
    core::store::WriteFileAtomically(map_script, core::fleet::MapScript(spec));
    core::store::WriteFileAtomically(reduce_script, core::fleet::ReduceScript(spec));
    if (o->dry_run) {
      std::cout << "# " << map_script.string() << "\n" << core::fleet::MapScript(spec) << "# "
                << reduce_script.string() << "\n" << core::fleet::ReduceScript(spec);
      return;
    }
    // A Slurm client whose SLURM_CONF names no file retries for a minute before it fails.
    if (const char* conf = std::getenv("SLURM_CONF"); conf && !fs::exists(conf)) {
      throw core::Error(fmt::format("SLURM_CONF names {}, which does not exist", conf));
    }
    const std::string map_job = Sbatch("", map_script);
    const std::string reduce_job = Sbatch("--dependency=afterok:" + map_job, reduce_script);
    const std::string jobs = fmt::format(
        "map job {} (array of {} tasks, {} traces), reduce job {} (after the map job succeeds)",
        map_job, core::fleet::ArrayTasks(spec), inputs.size(), reduce_job);
    core::store::WriteFileAtomically(paths.dir / "slurm" / "jobs.txt", jobs + "\n");
    std::cout << jobs << "\n"
              << fmt::format("reports: {}/fleet.html, fleet.json, fleet.md; progress: fencescope "
                             "fleet status {}\n",
                             paths.dir.string(), paths.dir.string());
  });
}

}  // namespace app::cli
