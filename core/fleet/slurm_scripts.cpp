#include "core/fleet/slurm_scripts.h"

#include <fmt/format.h>

namespace core::fleet {
namespace {

std::string Header(const SlurmJobSpec& spec, const std::string& name, const std::string& log) {
  std::string out = "#!/bin/sh\n";
  out += fmt::format("#SBATCH --job-name={}\n", name);
  out += fmt::format("#SBATCH --output={}\n", (spec.fleet / "slurm" / log).string());
  out += "#SBATCH --ntasks=1\n";
  if (!spec.partition.empty()) out += fmt::format("#SBATCH --partition={}\n", spec.partition);
  return out;
}

}  // namespace

std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

size_t ArrayTasks(const SlurmJobSpec& spec) {
  const size_t chunk = spec.chunk ? spec.chunk : 1;
  return (spec.traces + chunk - 1) / chunk;
}

std::string MapScript(const SlurmJobSpec& spec) {
  std::string out = Header(spec, "fencescope-map", "map-%A_%a.log");
  const size_t chunk = spec.chunk ? spec.chunk : 1;
  out += fmt::format("#SBATCH --array=0-{}{}\n", ArrayTasks(spec) - 1,
                     spec.array_max ? fmt::format("%{}", spec.array_max) : "");
  out += fmt::format("exec {} fleet map {} --first $((SLURM_ARRAY_TASK_ID * {})) --count {}\n",
                     ShellQuote(spec.executable), ShellQuote(spec.fleet.string()), chunk, chunk);
  return out;
}

std::string ReduceScript(const SlurmJobSpec& spec) {
  std::string out = Header(spec, "fencescope-reduce", "reduce-%j.log");
  const std::string exe = ShellQuote(spec.executable);
  const std::string fleet = ShellQuote(spec.fleet.string());
  out += "set -e\n";
  for (const char* name : {"fleet.json", "fleet.md", "fleet.html"}) {
    out += fmt::format("{} fleet report {} -o {}\n", exe, fleet,
                       ShellQuote((spec.fleet / name).string()));
  }
  return out;
}

}  // namespace core::fleet
