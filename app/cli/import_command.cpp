#include <iostream>

#include <fmt/format.h>

#include "app/cli/commands.h"
#include "app/cli/terminal_progress.h"
#include "importers/import_file.h"

namespace app::cli {

void RegisterImportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "import", "Import a trace from another tool (Chrome trace-event JSON / PyTorch Kineto, "
                "ETW .etl with DxgKrnl events, trace-cmd .dat and ftrace text, JAX / XLA .xplane.pb, "
                "Nsight Systems .sqlite exports and .nsys-rep through nsys; "
                "plain, gzip or zip) "
                "into a fencescope trace "
                "database");
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  auto lenient = std::make_shared<bool>(false);
  auto max_inflated = std::make_shared<uint64_t>(importers::ImportOptions{}.max_inflated);
  cmd->add_option("FILE", *input, "File to import (format sniffed from its content)")->required();
  cmd->add_option("-o,--output", *output, "fencescope trace database to write")->required();
  cmd->add_flag("--lenient", *lenient,
                "Skip malformed events (and a truncated end) and count them as import problems");
  AddMaxInflatedOption(*cmd, *max_inflated);
  cmd->callback([input, output, lenient, max_inflated] {
    TerminalProgress progress("import");
    importers::ImportOptions options;
    options.lenient = *lenient;
    options.max_inflated = *max_inflated;
    options.progress = [&progress](double f) { progress.Update(f); };
    const importers::ImportSummary summary = importers::ImportFile(*input, *output, options);
    progress.Finish();
    std::cout << fmt::format("imported {} ({}{}, {} bytes) -> {}: {} events\n", summary.label,
                             summary.format_name,
                             summary.container == importers::FileFormat::kUnknown
                                 ? ""
                                 : fmt::format(" in {}", importers::FileFormatName(summary.container)),
                             summary.content_bytes, *output, summary.events_written);
  });
}

}  // namespace app::cli
