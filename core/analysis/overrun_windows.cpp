#include "core/analysis/overrun_windows.h"

#include <algorithm>

#include "core/analysis/intervals.h"

namespace core::analysis {

OverrunAnalysis ComputeOverruns(const core::store::TraceStore& store, const Reconstruction& r) {
  OverrunAnalysis out;
  for (const QueueTrack& q : r.queues) {
    if (q.missing.empty()) continue;
    QueueMissing m;
    m.queue = q.id;
    std::vector<Interval> spans;
    for (const MissingWindow& w : q.missing) {
      out.windows.push_back(w);
      ++m.overruns;
      m.entries_lost += w.entries_lost;
      spans.push_back({w.start, w.end});
    }
    m.missing_ns = TotalLength(UnionOf(std::move(spans)));
    out.overruns += m.overruns;
    out.entries_lost += m.entries_lost;
    out.per_queue.push_back(m);
  }
  std::stable_sort(out.windows.begin(), out.windows.end(),
                   [](const MissingWindow& a, const MissingWindow& b) { return a.start < b.start; });
  for (EventKind k : store.events.kind) out.fallback_scans += k == EventKind::LogFallbackScan;
  return out;
}

}  // namespace core::analysis
