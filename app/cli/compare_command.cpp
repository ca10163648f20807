#include <iostream>

#include <fmt/format.h>

#include "app/cli/analysed_trace.h"
#include "app/cli/commands.h"
#include "core/report/compare.h"
#include "core/report/report_json.h"
#include "core/store/output_file.h"

namespace app::cli {

void RegisterCompareCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compare", "Compare two traces per queue and per metric (e.g. native vs monitored fences)");
  struct Options {
    std::string a;
    std::string b;
    std::string output;
    std::string format = "text";
    bool all = false;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("A", options->a, "first trace (the baseline)")->required();
  cmd->add_option("B", options->b, "second trace")->required();
  cmd->add_option("--format", options->format, "text | json | html (default text)")
      ->check(CLI::IsMember({"text", "json", "html"}));
  cmd->add_option("-o,--output", options->output, "Output file (default: standard output)");
  cmd->add_flag("--all", options->all, "text: list unchanged metrics too");
  cmd->callback([options] {
    if (!options->output.empty()) {
      core::store::CheckOutputIsNotInput(options->a, options->output, "first trace");
      core::store::CheckOutputIsNotInput(options->b, options->output, "second trace");
      core::store::ResolveOutputTarget(options->output);  // refuse a device or FIFO up front
    }
    AnalysedTrace a = LoadAndAnalyse(options->a, /*full=*/true);
    core::report::Json ja = core::report::ReportJson(a.data);
    AnalysedTrace b = LoadAndAnalyse(options->b, /*full=*/true);
    core::report::Json jb = core::report::ReportJson(b.data);
    auto c = core::report::CompareReports(options->a, ja, options->b, jb);
    std::string content = options->format == "json"   ? core::report::CompareJson(c).Dump()
                          : options->format == "html" ? core::report::CompareHtml(c)
                                                      : core::report::CompareText(c, !options->all);
    if (options->output.empty()) {
      std::cout << content;
    } else {
      core::store::WriteFileAtomically(options->output, content);
    }
  });
}

}  // namespace app::cli
