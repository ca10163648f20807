#include "app/cli/commands.h"

namespace app::cli {

void RegisterAllCommands(CLI::App& app) {
  RegisterInfoCommand(app);
  RegisterQueryCommand(app);
  RegisterSimulateCommand(app);
  RegisterStatsCommand(app);
  RegisterBenchCommand(app);
  RegisterReportCommand(app);
  RegisterCompareCommand(app);
}

}  // namespace app::cli
