// `fencescope record -o trace.db -- CMD ARGS`: runs CMD under `trace-cmd record` with the GPU
// scheduling events the ftrace importer maps, then imports the capture.
#include <cstring>

#include <filesystem>
#include <iostream>

#include <fmt/format.h>

#include "app/cli/child_process.h"
#include "app/cli/commands.h"
#include "core/model/error.h"
#include "importers/ftrace/trace_cmd_record.h"
#include "importers/import_file.h"

namespace app::cli {
namespace {

int Run(const std::vector<std::string>& args) {
  const ChildRun run = RunChild(args, false);
  if (run.spawn_error != 0) {
    throw core::Error(fmt::format("record: cannot run {}: {} (install trace-cmd)", args[0],
                                  std::strerror(run.spawn_error)));
  }
  return run.exit_code;
}

}  // namespace

void RegisterRecordCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "record", "Run a command under trace-cmd record (GPU scheduler, dma_fence, amdgpu, i915, "
                "xe, msm, vblank and CPU scheduling events) and import the capture");
  auto output = std::make_shared<std::string>();
  auto keep = std::make_shared<std::string>();
  auto clock = std::make_shared<std::string>("mono");
  auto buffer_kb = std::make_shared<int>(0);
  auto command = std::make_shared<std::vector<std::string>>();
  cmd->add_option("-o,--output", *output, "fencescope trace database to write")->required();
  cmd->add_option("--keep-dat", *keep, "Keep trace-cmd's .dat at this path");
  cmd->add_option("--clock", *clock, "Trace clock (trace-cmd -C: mono, local, boot, ...)");
  cmd->add_option("--buffer-kb", *buffer_kb, "Per-CPU ring buffer size in KiB (trace-cmd -b)")
      ->check(CLI::Range(0, 1 << 22));
  cmd->add_option("CMD", *command, "Program to run and its arguments (after --)")->required();
  cmd->callback([output, keep, clock, buffer_kb, command] {
    const auto tracefs = importers::ftrace::CheckTracefs();
    importers::ftrace::RecordPlan plan;
    plan.dat = keep->empty() ? std::filesystem::path(*output + ".trace-cmd.dat")
                             : std::filesystem::path(*keep);
    plan.clock = *clock;
    plan.buffer_kb = *buffer_kb;
    plan.command = *command;
    const auto args =
        importers::ftrace::TraceCmdRecordArgs(plan, importers::ftrace::AvailableEvents(tracefs));
    const int code = Run(args);
    if (code != 0) {
      throw core::Error(fmt::format("record: trace-cmd record exited with {}", code));
    }
    const auto summary = importers::ImportFile(plan.dat, *output);
    if (keep->empty()) std::filesystem::remove(plan.dat);
    std::cout << fmt::format("recorded {} -> {}: {} events\n", (*command)[0], *output,
                             summary.events_written);
  });
}

}  // namespace app::cli
