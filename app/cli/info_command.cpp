#include <iostream>

#include "app/cli/commands.h"
#include "core/report/trace_info.h"

namespace app::cli {

void RegisterInfoCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "info", "Print a trace's schema version, source, time span, rows per table and import "
              "problems");
  auto trace = std::make_shared<std::string>();
  cmd->add_option("TRACE", *trace, "fencescope trace database")->required();
  cmd->callback([trace] { std::cout << core::report::FormatTraceInfo(*trace); });
}

}  // namespace app::cli
