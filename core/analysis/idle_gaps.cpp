#include "core/analysis/idle_gaps.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/analysis/intervals.h"
#include "core/analysis/queue_time.h"
#include "core/analysis/wait_cover.h"

namespace core::analysis {

const char* GapCauseName(GapCause cause) {
  switch (cause) {
    case GapCause::kWaitingOnFence: return "waiting_on_fence";
    case GapCause::kPreempted: return "preempted";
    case GapCause::kNothingSubmitted: return "nothing_submitted";
    case GapCause::kSubmittedNotRunning: return "submitted_not_running";
  }
  return "unknown";
}

namespace {

// Earliest submit among the queue's packets that never started (the work left at the end).
TimeNs EarliestUnstartedSubmit(const Reconstruction& r, const QueueTrack& q) {
  TimeNs earliest = kUnknownTime;
  for (uint32_t p : q.packets) {
    const Packet& packet = r.packets[p];
    if (packet.start != kUnknownTime || packet.submit == kUnknownTime) continue;
    if (earliest == kUnknownTime || packet.submit < earliest) earliest = packet.submit;
  }
  return earliest;
}

void AddPiece(IdleGaps& out, QueueGaps& totals, GapPiece piece) {
  if (piece.end <= piece.start) return;
  totals.by_cause[static_cast<size_t>(piece.cause)] += piece.end - piece.start;
  out.pieces.push_back(piece);
}

}  // namespace

IdleGaps AttributeIdleGaps(const core::store::TraceStore& store, const Reconstruction& r) {
  IdleGaps out;
  std::vector<std::vector<Interval>> busy_of(store.queues.size() + 1);
  for (const auto& queue : store.queues) busy_of[queue.id] = BusyIntervals(r, queue.id);
  // The queue of the same engine that ran longest in [start, end), or 0.
  auto engine_busy_with = [&](const core::store::Queue& queue, TimeNs start, TimeNs end,
                              DurationNs* busy_ns) {
    QueueId best = 0;
    DurationNs best_ns = 0, total = 0;
    if (queue.engine == 0) return best;
    for (const auto& other : store.queues) {
      if (other.id == queue.id || other.engine != queue.engine) continue;
      DurationNs ns = TotalLength(Intersect(busy_of[other.id], {{start, end}}));
      total += ns;
      if (ns > best_ns) {
        best_ns = ns;
        best = other.id;
      }
    }
    *busy_ns += std::min<DurationNs>(total, end - start);
    return best;
  };
  for (const auto& queue : store.queues) {
    QueueGaps totals;
    totals.queue = queue.id;
    if (queue.id >= r.queues.size()) {
      out.per_queue.push_back(totals);
      continue;
    }
    const QueueTrack& track = r.queues[queue.id];
    const std::vector<Interval>& busy = busy_of[queue.id];
    std::vector<Interval> gaps = Subtract({{r.start_ns, r.end_ns}}, busy);

    std::vector<GapPiece> pieces;
    std::vector<Interval> waited;
    std::map<std::tuple<FenceId, QueueId, bool>, DurationNs> per_fence;
    for (const WaitPiece& wp : WaitCover(r, queue.id)) {
      for (const Interval& held : Intersect(gaps, {{wp.start, wp.end}})) {
        pieces.push_back({queue.id, held.start, held.end, GapCause::kWaitingOnFence, wp.wait});
        waited.push_back(held);
        uint32_t s = r.waits[wp.wait].signal;
        bool cpu = s != kNoIndex && r.signals[s].cpu;
        per_fence[{r.waits[wp.wait].fence, SignallingQueue(r, wp.wait), cpu}] += held.Length();
      }
    }
    TimeNs unstarted_submit = EarliestUnstartedSubmit(r, track);
    for (const Interval& rest : Subtract(gaps, UnionOf(waited))) {
      // the run segment that ends this gap, if any
      const size_t next = track.segments.Column<&RunSegment::start>().LowerBound(rest.end);
      TimeNs submitted = unstarted_submit;
      if (next != track.segments.size()) {
        const RunSegment& segment = track.segments[next];
        if (segment.resumed) {
          pieces.push_back({queue.id, rest.start, rest.end, GapCause::kPreempted, kNoIndex});
          continue;
        }
        submitted = r.packets[segment.packet].submit;
      }
      if (submitted == kUnknownTime) submitted = rest.end;  // no record: count as not submitted
      TimeNs split = std::clamp(submitted, rest.start, rest.end);
      pieces.push_back({queue.id, rest.start, split, GapCause::kNothingSubmitted, kNoIndex});
      GapPiece waiting_for_engine{queue.id, split, rest.end, GapCause::kSubmittedNotRunning,
                                  kNoIndex};
      if (split < rest.end) {
        waiting_for_engine.engine_busy_with =
            engine_busy_with(queue, split, rest.end, &totals.engine_busy_ns);
      }
      pieces.push_back(waiting_for_engine);
    }
    std::stable_sort(pieces.begin(), pieces.end(),
                     [](const GapPiece& a, const GapPiece& b) { return a.start < b.start; });
    for (const GapPiece& piece : pieces) AddPiece(out, totals, piece);
    for (const auto& [key, ns] : per_fence) {
      totals.per_fence.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), ns});
    }
    out.per_queue.push_back(totals);
  }
  return out;
}

}  // namespace core::analysis
