#include "app/cli/commands.h"

namespace app::cli {

void RegisterAllCommands(CLI::App& app) {
  RegisterInfoCommand(app);
  RegisterQueryCommand(app);
  RegisterBenchCommand(app);
  RegisterStatsCommand(app);
  RegisterReportCommand(app);
  RegisterCompareCommand(app);
}

}  // namespace app::cli
