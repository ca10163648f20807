#include <iostream>

#include <fmt/format.h>

#include "app/cli/analysed_trace.h"
#include "app/cli/commands.h"
#include "app/cli/report_output.h"
#include "app/cli/terminal_progress.h"
#include "app/gui_entry.h"
#include "core/model/error.h"
#include "core/report/report_html.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown.h"
#include "core/store/output_file.h"

namespace app::cli {

void RegisterReportCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "report", "Analyse a trace and write a report (HTML with charts, JSON or Markdown)");
  struct Options {
    std::string trace;
    std::string output;
    std::string format;
    std::vector<std::string> fail_if;
    std::string path_until;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("TRACE", options->trace, "fencescope trace database")->required();
  cmd->add_option("-o,--output", options->output,
                  "Output file (default: standard output); the format follows the extension "
                  "(.html, .json, .md; JSON on standard output) unless --format is given");
  cmd->add_option("--format", options->format, "html | json | md")
      ->check(CLI::IsMember({"html", "json", "md"}));
  cmd->add_option("--path-until", options->path_until,
                  "Walk the critical path back from this time instead of the end of the last "
                  "packet: ns from the trace start (or with a unit: 1.5ms, 2s), or an absolute "
                  "clock value written @NS; it must lie inside the trace");
  cmd->add_option("--fail-if", options->fail_if,
                  "Exit with code 3 when EXPR over the JSON keys is true, e.g. "
                  "\"interrupts.spurious > 10 || fences.waits_stuck > 0\" (may repeat; fences.waits_stuck counts every wait nothing in or after the trace can release)");
  cmd->callback([options] {
    if (!options->output.empty()) {
      core::store::CheckOutputIsNotInput(options->trace, options->output, "input trace");
      core::store::ResolveOutputTarget(options->output);  // refuse a device or FIFO up front
    }
    const std::string format = ReportFormatFor(options->output, options->format);
    AnalysedTrace t = LoadAndAnalyse(options->trace, /*full=*/true, options->path_until,
                                     /*all_columns=*/true);
    {
      TerminalProgress progress("replaying the opportunities");
      core::report::ComputeOpportunities(t.data);
    }
    core::report::Json json = core::report::ReportJson(t.data);
    // the gates first: an unknown key is an error before anything is written
    const std::vector<std::string> tripped = TrippedGates(json, options->fail_if);
    std::string content = format == "json" ? json.Dump()
                          : format == "md" ? core::report::ReportMarkdown(t.data)
                                           : core::report::ReportHtml(t.data);
    DeliverReport(options->output, content, format + " report", tripped);
  });
}

}  // namespace app::cli
