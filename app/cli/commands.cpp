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

void AddMaxInflatedOption(CLI::App& cmd, uint64_t& max_inflated) {
  cmd.add_option("--max-inflated", max_inflated,
                 "Most bytes a gzip or zip input may inflate to (e.g. 512M, 8G; default 4G); "
                 "more is an error naming the compressed byte where it was passed")
      ->transform(CLI::AsSizeValue(/*kb_is_1000=*/false))
      ->check(CLI::Range(uint64_t{1}, UINT64_MAX));
}

void RegisterAllCommands(CLI::App& app) {
  RegisterInfoCommand(app);
  RegisterQueryCommand(app);
  RegisterSimulateCommand(app);
  RegisterBenchCommand(app);
  RegisterImportCommand(app);
  RegisterRecordCommand(app);
  RegisterExportCommand(app);
  RegisterStatsCommand(app);
  RegisterReportCommand(app);
  RegisterCompareCommand(app);
  RegisterWhatIfCommand(app);
  RegisterFleetCommand(app);
  RegisterCaptureCommand(app);
}

}  // namespace app::cli
