#include "app/cli/commands.h"

namespace app::cli {

void RegisterAllCommands(CLI::App& app) {
  RegisterInfoCommand(app);
  RegisterQueryCommand(app);
  RegisterSimulateCommand(app);
  RegisterBenchCommand(app);
}

}  // namespace app::cli
