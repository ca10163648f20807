#include "app/cli/commands.h"

#include <cmath>

#include <fmt/format.h>

namespace app::cli {

CLI::Validator FiniteRange(double min, double max) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        double value = 0;
        if (!CLI::detail::lexical_cast(text, value) || !std::isfinite(value) || value < min ||
            value > max) {
          return fmt::format("'{}' is not a number in [{:g}, {:g}]", text, min, max);
        }
        return {};
      },
      fmt::format("NUMBER in [{:g}, {:g}]", min, max));
}

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
