// The whole command line in one place: description, --version and every subcommand with its
// examples. main() parses with it; fencescope_clidoc (app/clidoc_main.cpp) writes the man page and
// the shell completions from it at build time, so none of them can drift from --help.
#pragma once

#include <CLI/CLI.hpp>

namespace app {

void DefineCommandLine(CLI::App& app);

}  // namespace app
