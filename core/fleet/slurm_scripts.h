// The two Slurm batch scripts of `fencescope fleet submit --slurm`: a job array whose tasks run
// the map step (`fencescope fleet map`, one chunk of traces each) and a reduce job, submitted
// with --dependency=afterok on the array, that writes the fleet report. Slurm does the
// scheduling, retries and node placement; these are only the scripts.
//
// A map task exits 0 when a trace could not be read (the reason is in its .error file and the
// report lists it), so one bad trace does not keep the reduce job from running; a task that
// crashes or is killed fails the array and, by afterok, the reduce job with it.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

namespace core::fleet {

struct SlurmJobSpec {
  std::string executable;       // absolute path of fencescope (the nodes see the same file)
  std::filesystem::path fleet;  // FLEETDIR (absolute; on a file system the nodes share)
  size_t traces = 0;
  size_t chunk = 1;             // traces per array task
  uint32_t array_max = 0;       // most array tasks running at once (0: Slurm decides)
  std::string partition;        // "" : the cluster's default
};

// Array tasks: ceil(traces / chunk).
size_t ArrayTasks(const SlurmJobSpec& spec);
std::string MapScript(const SlurmJobSpec& spec);
// The reduce job writes FLEETDIR/fleet.json, fleet.md and fleet.html.
std::string ReduceScript(const SlurmJobSpec& spec);

// `text` in single quotes for sh ('\'' for a quote inside).
std::string ShellQuote(const std::string& text);

}  // namespace core::fleet
