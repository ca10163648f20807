#include "core/analysis/active_span.h"

#include <algorithm>

#include "core/analysis/intervals.h"
#include "core/analysis/queue_time.h"
#include "core/analysis/wait_cover.h"

namespace core::analysis {

ActiveSpan ComputeActiveSpan(const Reconstruction& r) {
  const TimeRange span = TraceSpan(r);
  ActiveSpan out;
  out.active = span;
  TimeNs first = span.end, last = span.start;
  auto add = [&](TimeNs start, TimeNs end) {
    start = std::max(start, span.start);
    end = std::min(end, span.end);
    if (end < start) return;
    out.any = true;
    first = std::min(first, start);
    last = std::max(last, end);
  };
  for (const QueueTrack& q : r.queues) {
    if (q.id == 0) continue;
    for (const Interval& i : BusyIntervals(r, q.id)) add(i.start, i.end);
    for (const WaitPiece& p : WaitCover(r, q.id)) add(p.start, p.end);
  }
  if (!out.any) return out;
  out.active = {first, last};
  out.lead_in_ns = first - span.start;
  out.tail_ns = span.end - last;
  return out;
}

}  // namespace core::analysis
