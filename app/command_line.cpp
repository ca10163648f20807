#include "app/command_line.h"

#include "app/cli/commands.h"
#include "app/cli/examples.h"
#include "app/gui_entry.h"
#include "app/version.h"

namespace app {

void DefineCommandLine(CLI::App& app) {
  app.description("fencescope: see and analyse how GPU work is synchronised");
  app.set_version_flag("--version", VersionText(),
                       "Print the version and the trace schema version, and exit");
  cli::RegisterAllCommands(app);
  RegisterWindowCommands(app);
  cli::AddExamples(app);
}

}  // namespace app
