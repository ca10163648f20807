// Running another program as a child process and waiting for it: `record` runs trace-cmd,
// `bench import` runs an import to read its peak resident memory (the kernel's ru_maxrss from
// wait4: a separate process, so the figure is the command's own and not mixed with what the
// benchmark itself holds).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace app::cli {

struct ChildRun {
  int spawn_error = 0;  // errno of a child that could not be started; then nothing else is set
  int exit_code = -1;   // the exit status, or 128 + the signal that ended it
  int64_t peak_resident_bytes = 0;
  double cpu_seconds = 0;  // user + system time of the child (its threads included)
  // What the child read from storage rather than from the page cache (rusage's ru_inblock: a
  // benchmark's figures compare only runs that read their inputs alike).
  int64_t disk_read_bytes = 0;
};

// Runs `argv` (argv[0] a path, looked up on PATH when it has no '/') and waits for it; with
// `quiet` its stdout and stderr go to /dev/null, else they are this process's. Throws
// core::Error when the child is lost (waiting for it fails other than by a signal).
ChildRun RunChild(const std::vector<std::string>& argv, bool quiet);

// This executable's own path (/proc/self/exe), to run another of its subcommands.
std::string SelfExecutable();

}  // namespace app::cli
