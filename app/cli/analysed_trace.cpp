#include "app/cli/analysed_trace.h"

#include "app/cli/terminal_progress.h"
#include "core/analysis/time_input.h"

namespace app::cli {

AnalysedTrace LoadAndAnalyse(const std::string& path, bool full, std::string_view path_until) {
  AnalysedTrace out;
  {
    TerminalProgress progress("loading  " + path);
    out.store = std::make_unique<core::store::TraceStore>(
        core::store::LoadTrace(path, [&](double f) { progress.Update(f); }));
  }
  const core::model::TimeNs until =
      path_until.empty()
          ? core::analysis::kUnknownTime
          : core::analysis::ParseTimeInTrace("--path-until", path_until,
                                             core::analysis::ClockOf(*out.store, path));
  TerminalProgress progress("analysing");
  out.data = core::report::AnalyseTrace(
      *out.store, full, [&](double f) { progress.Update(f); }, until);
  return out;
}

}  // namespace app::cli
