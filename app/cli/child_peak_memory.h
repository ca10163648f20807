// Peak resident memory of a command run as a child process (the kernel's ru_maxrss from
// wait4), for the benchmarks: a separate process, so the figure is the command's own and not
// mixed with what the benchmark itself holds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace app::cli {

struct ChildRun {
  int exit_code = -1;
  int64_t peak_resident_bytes = 0;
};

// Runs `argv` (argv[0] a path, looked up on PATH when it has no '/') with stdout and stderr sent
// to /dev/null. Throws core::Error when it cannot be started.
ChildRun RunChildForPeakMemory(const std::vector<std::string>& argv);

// This executable's own path (/proc/self/exe), to run another of its subcommands.
std::string SelfExecutable();

}  // namespace app::cli
