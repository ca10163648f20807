// The man page and the bash, zsh and fish completions, written from a CLI11 definition (the one
// main() parses with, app/command_line.h) by fencescope_clidoc at build time.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace app::cli {

// fencescope.1 in roff: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, then one subsection per subcommand
// (nested ones too: "fencescope bench import") with its usage, arguments, options and examples.
std::string ManPage(const CLI::App& app, const std::string& version);

// Completion scripts: subcommands at every level, each level's options, the values of options
// with a fixed set of choices, and file names for arguments and option values.
std::string BashCompletion(const CLI::App& app);
std::string ZshCompletion(const CLI::App& app);
std::string FishCompletion(const CLI::App& app);

}  // namespace app::cli
