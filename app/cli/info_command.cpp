#include <iostream>

#include "app/cli/commands.h"
#include "app/gui_entry.h"
#include "core/report/trace_info.h"
#include "core/store/sqlite_db.h"

namespace app::cli {

void RegisterInfoCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "info", "Print a trace's schema version, source, time span, rows per table and import "
              "problems");
  auto trace = std::make_shared<std::string>();
  cmd->add_option("TRACE", *trace, "fencescope trace database")->required();
  auto check = std::make_shared<bool>(false);
  cmd->add_flag("--check", *check,
                "Also run SQLite's PRAGMA integrity_check over every page and print its result "
                "(exit 4 when it is not \"ok\")");
  cmd->callback([trace, check] {
    if (!*check) {
      std::cout << core::report::FormatTraceInfo(*trace);
      return;
    }
    // The summary when it can be read; the damage it stops at goes to stderr and the check
    // below still runs over the whole file.
    try {
      std::cout << core::report::FormatTraceInfo(*trace);
    } catch (const core::store::DamagedDatabaseError& e) {
      std::cerr << "fencescope: error: " << e.what() << "\n";
    }
    auto result = core::store::RunCheck(*trace, true);
    std::cout << "\nintegrity_check\n";
    if (result.ok) std::cout << "ok\n";
    for (const auto& problem : result.problems) std::cout << problem << "\n";
    if (!result.ok) app::SetExitCode(core::store::kDamagedExitCode);
  });
}

}  // namespace app::cli
