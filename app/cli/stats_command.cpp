#include <iostream>

#include <fmt/format.h>

#include "app/cli/analysed_trace.h"
#include "app/cli/commands.h"
#include "core/report/report_json.h"
#include "core/report/svg_chart.h"

namespace app::cli {
namespace {

std::string StatsText(const core::report::Json& j) {
  using core::report::FormatDuration;
  std::string out;
  out += fmt::format("source          {}\n", j.Find("source")->String());
  out += fmt::format("duration        {}\n", FormatDuration(j.Find("duration_ns")->Number()));
  out += fmt::format("events          {}\n\n", j.Find("events")->Int());
  out += fmt::format("{:<24} {:>9} {:>9} {:>9} {:>9} {:>12} {:>12} {:>12}\n", "queue",
                     "packets", "", "", "running", "busy", "waiting", "idle");
  out += fmt::format("{:<24} {:>9} {:>9} {:>9} {:>9}\n", "", "submitted", "started",
                     "completed", "at end");
  for (const auto& q : j.Find("queues")->items()) {
    out += fmt::format("{:<24} {:>9} {:>9} {:>9} {:>9} {:>12} {:>12} {:>12}\n",
                       q.Find("name")->String(), q.Find("packets_submitted")->Int(),
                       q.Find("packets_started")->Int(), q.Find("packets_completed")->Int(),
                       q.Find("packets_running_at_end")->Int(),
                       FormatDuration(q.Find("busy_ns")->Number()),
                       FormatDuration(q.Find("waiting_ns")->Number()),
                       FormatDuration(q.Find("idle_ns")->Number()));
  }
  for (const char* group : {"fences", "interrupts", "log_buffers", "preemption"}) {
    out += fmt::format("\n{}\n", group);
    for (const auto& [key, value] : j.Find(group)->members()) {
      if (value.type() == core::report::Json::Type::kString) {
        out += fmt::format("  {:<28} {}\n", key, value.String());
      } else if (value.type() == core::report::Json::Type::kDouble) {
        out += fmt::format("  {:<28} {:.4f}\n", key, value.Number());
      } else {
        out += fmt::format("  {:<28} {}\n", key, value.Int());
      }
    }
  }
  return out;
}

}  // namespace

void RegisterStatsCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "stats", "Print a trace's counts and per-queue busy / waiting / idle time");
  struct Options {
    std::string trace;
    bool json = false;
  };
  auto options = std::make_shared<Options>();
  cmd->add_option("TRACE", options->trace, "fencescope trace database")->required();
  cmd->add_flag("--json", options->json,
                "Print JSON with stable keys (schema_version, source, duration_ns, events, "
                "queues, latency, fences, interrupts, log_buffers, preemption, background)");
  cmd->callback([options] {
    AnalysedTrace t = LoadAndAnalyse(options->trace, /*full=*/false);
    core::report::Json j = core::report::StatsJson(t.data);
    std::cout << (options->json ? j.Dump() : StatsText(j));
  });
}

}  // namespace app::cli
