#include "app/cli/analysed_trace.h"

#include "app/cli/terminal_progress.h"

namespace app::cli {

AnalysedTrace LoadAndAnalyse(const std::string& path, bool full, int64_t path_until_ns) {
  AnalysedTrace out;
  {
    TerminalProgress progress("loading  " + path);
    out.store = std::make_unique<core::store::TraceStore>(
        core::store::LoadTrace(path, [&](double f) { progress.Update(f); }));
  }
  TerminalProgress progress("analysing");
  out.data = core::report::AnalyseTrace(
      *out.store, full, [&](double f) { progress.Update(f); },
      path_until_ns < 0 ? core::analysis::kUnknownTime : out.store->start_ns() + path_until_ns);
  return out;
}

}  // namespace app::cli
