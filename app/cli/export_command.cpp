#include <iostream>

#include <fmt/format.h>

#include "app/cli/commands.h"
#include "app/cli/terminal_progress.h"
#include "core/export/chrome_json_export.h"

namespace app::cli {

void RegisterExportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "export", "Write a fencescope trace as Chrome trace-event JSON (chrome://tracing, "
                "Perfetto UI); gzip-compressed when the output name ends in .gz");
  auto trace = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  cmd->add_option("TRACE", *trace, "fencescope trace database")->required();
  cmd->add_option("-o,--output", *output, "JSON file to write (out.json or out.json.gz)")
      ->required();
  cmd->callback([trace, output] {
    TerminalProgress progress("export");
    const auto summary = core::exporting::ExportChromeJson(
        *trace, *output, [&progress](double f) { progress.Update(f); });
    progress.Finish();
    std::cout << fmt::format("exported {} -> {}: {} JSON events\n", *trace, *output,
                             summary.json_events);
  });
}

}  // namespace app::cli
