// `fencescope whatif TRACE -o PREDICTED.db [edits] [--json]`: replays the trace's program through
// the simulator with the edits made (core/replay/whatif.h) and prints what they would save,
// with the replay's fidelity beside it.
#include <iostream>

#include <fmt/format.h>

#include "app/cli/commands.h"
#include "app/cli/terminal_progress.h"
#include "app/cli/whatif_edit_options.h"
#include "core/analysis/reconstruction.h"
#include "core/model/error.h"
#include "core/replay/whatif.h"
#include "core/store/output_file.h"
#include "core/store/trace_store.h"

namespace app::cli {

namespace {

struct Options {
  std::string trace;
  std::string output;
  bool json = false;
  WhatIfEditOptions edits;
};

}  // namespace

void RegisterWhatIfCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "whatif",
      "Replay a trace through the simulator with a change made (a kernel faster, a wait or sync "
      "removed, a faster host) and print what it would save, with the replay's fidelity");
  auto o = std::make_shared<Options>();
  cmd->add_option("TRACE", o->trace, "the trace to replay")->required();
  cmd->add_option("-o,--output", o->output, "the predicted trace to write")->required();
  AddWhatIfEditOptions(*cmd, o->edits);
  cmd->add_flag("--json", o->json, "print the result as JSON with stable keys");
  cmd->callback([o] {
    core::store::CheckOutputIsNotInput(o->trace, o->output, "trace");
    core::store::ResolveOutputTarget(o->output);
    const core::replay::Edits edits = EditsOf(o->edits);
    core::store::TraceStore trace;
    {
      TerminalProgress progress("loading  " + o->trace);
      trace = core::store::LoadTrace(o->trace, [&](double f) { progress.Update(f); });
    }
    const core::analysis::Reconstruction recon = core::analysis::Reconstruct(trace);
    core::replay::WhatIfResult result;
    {
      TerminalProgress progress("replaying");
      result = core::replay::RunWhatIf(trace, recon, edits, o->output,
                                       [&](double f) { progress.Update(f); });
    }
    std::cout << (o->json ? core::replay::WhatIfJson(result).Dump() + "\n"
                          : core::replay::WhatIfText(result));
    std::cerr << fmt::format("wrote the prediction to {}\n", o->output);
  });
}

}  // namespace app::cli
