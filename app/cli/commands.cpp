#include "app/cli/commands.h"

namespace app::cli {

void RegisterAllCommands(CLI::App& app) {
  RegisterInfoCommand(app);
  RegisterQueryCommand(app);
  RegisterSimulateCommand(app);
  RegisterBenchCommand(app);
  RegisterImportCommand(app);
  RegisterExportCommand(app);
  RegisterStatsCommand(app);
  RegisterReportCommand(app);
  RegisterCompareCommand(app);
}

}  // namespace app::cli
