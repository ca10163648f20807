#include <iostream>

#include "app/gui_entry.h"

namespace app {

void RegisterWindowCommands(CLI::App& app) {
  auto* view = app.add_subcommand("view", "Open a trace in the window (not in this build)");
  view->allow_extras();
  view->group("");  // hidden: not in --help, the man page or the completions of this build
  view->callback([] {
    std::cerr << "fencescope: error: this build has no window (configured with "
                 "-DFENCESCOPE_GUI=OFF); use info, query, stats or report\n";
    SetExitCode(2);
  });
}

int RunDefaultWindow() {
  std::cerr << "fencescope: this build has no window (configured with -DFENCESCOPE_GUI=OFF).\n"
               "Run 'fencescope --help' for the headless commands.\n";
  return 2;
}

}  // namespace app
