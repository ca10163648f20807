#include "app/cli/analysed_trace.h"

#include <cstdio>
#include <cstdlib>

#include "app/cli/terminal_progress.h"
#include "core/analysis/time_input.h"
#include "core/cache/cached_trace.h"

namespace app::cli {

namespace {

// kept_columns: load only the columns the reports need when the analyses are cached.
AnalysedTrace Load(const std::string& path, bool full, std::string_view path_until,
                   bool kept_columns) {
  AnalysedTrace out;
  // Through the trace's packed cache (core/cache/cached_trace.h): what is valid there is read,
  // what is not is computed from the rows and written back for the next open.
  core::cache::CachedTrace trace(path);
  const auto kind = full ? core::cache::AnalysisKind::kFull : core::cache::AnalysisKind::kFindings;
  {
    // The reports read no raw record fields, only the analyses: with those cached, the bulk
    // event columns are not needed (a --path-until walk is computed, from the columns).
    const bool analysed = kept_columns && path_until.empty() && trace.HasAnalysis(kind);
    TerminalProgress progress("loading  " + path);
    out.store = std::make_unique<core::store::TraceStore>(trace.LoadStore(
        analysed ? core::cache::EventColumnsNeeded::kKept : core::cache::EventColumnsNeeded::kAll,
        [&](double f) { progress.Update(f); }));
  }
  const core::model::TimeNs until =
      path_until.empty()
          ? core::analysis::kUnknownTime
          : core::analysis::ParseTimeInTrace("--path-until", path_until,
                                             core::analysis::ClockOf(*out.store, path));
  {
    TerminalProgress progress("analysing");
    out.data = trace.Analyse(*out.store, kind, [&](double f) { progress.Update(f); }, until);
  }
  out.cache_write = trace.FlushInBackground();
  if (std::getenv("FENCESCOPE_CACHE_NOTES")) {
    for (const auto& note : trace.notes()) std::fprintf(stderr, "cache: %s\n", note.c_str());
  }
  return out;
}

}  // namespace

AnalysedTrace LoadAndAnalyse(const std::string& path, bool full, std::string_view path_until,
                             bool all_columns) {
  try {
    return Load(path, full, path_until, /*kept_columns=*/!all_columns);
  } catch (const core::cache::CacheDamaged&) {
    // The cached analyses did not read after all: again, from every column.
    return Load(path, full, path_until, /*kept_columns=*/false);
  }
}

}  // namespace app::cli
