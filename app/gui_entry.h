// What the executable does beyond the headless subcommands: the window. The GUI build links the
// desktop implementation; the window-less build (FENCESCOPE_GUI=OFF) links no_gui_entry.cpp,
// which explains that the window is not part of that build.
#pragma once

#include <CLI/CLI.hpp>

namespace app {

// Adds the subcommands that open a window (`view`).
void RegisterWindowCommands(CLI::App& app);
// `fencescope` with no subcommand. Returns the process exit code.
int RunDefaultWindow();
// Exit code chosen by a subcommand callback (0 unless one set it, e.g. report --fail-if).
int ExitCode();
void SetExitCode(int code);

}  // namespace app
