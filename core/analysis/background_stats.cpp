#include "core/analysis/background_stats.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace core::analysis {

BackgroundStats ComputeBackgroundStats(const core::store::TraceStore& store,
                                       const Reconstruction& r, const PgoSeries& series) {
  BackgroundStats s;
  // (time, +1 start / -1 end); at equal times ends sort first, so a task that starts exactly
  // when another finishes does not count as running beside it.
  std::vector<std::pair<TimeNs, int>> edges;
  for (const BackgroundTask& t : r.tasks) {
    if (t.queued != kUnknownTime) ++s.tasks_queued;
    switch (t.outcome) {
      case TaskOutcome::kFinished: ++s.tasks_finished; break;
      case TaskOutcome::kCancelled: ++s.tasks_cancelled; break;
      case TaskOutcome::kAbandoned: ++s.tasks_abandoned; break;
      case TaskOutcome::kPending: break;
    }
    if (t.queued != kUnknownTime && t.started == kUnknownTime && t.outcome == TaskOutcome::kPending) {
      ++s.tasks_waiting_at_end;
    }
    if (t.started == kUnknownTime) continue;
    ++s.tasks_started;
    if (t.outcome == TaskOutcome::kPending) ++s.tasks_running_at_end;
    edges.emplace_back(t.started, +1);
    edges.emplace_back(t.ended != kUnknownTime ? t.ended : r.end_ns, -1);
  }
  std::sort(edges.begin(), edges.end());
  int64_t running = 0;
  for (const auto& [ts, delta] : edges) {
    running += delta;
    s.max_concurrent = std::max<uint64_t>(s.max_concurrent, static_cast<uint64_t>(std::max<int64_t>(running, 0)));
  }

  const auto& ev = store.events;
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev.kind[i] == EventKind::ApiError) ++s.api_errors;
  }

  // Packet time per pass: the mean of the packets PGO works on (instrumented or running a
  // variant) when the trace has any, else of every packet, so first and last use one measure.
  bool pgo_measure = false;
  for (const PgoPass& pass : series.passes) pgo_measure |= pass.pgo_packets > 0;
  auto measured = [&](const PgoPass& pass) {
    return pgo_measure ? pass.pgo_packets > 0 : pass.packets > 0;
  };
  auto packet_ns = [&](const PgoPass& pass) {
    return std::llround(pgo_measure ? pass.mean_pgo_packet_ns : pass.mean_packet_ns);
  };
  const PgoPass* first_measured = nullptr;
  const PgoPass* last_measured = nullptr;
  TimeNs first_call = kUnknownTime;
  // FurtherMeasurementsDesired is only known from SetBackgroundProcessingMode calls.
  const bool flag_known = series.boundary == PgoBoundary::kModeChanged;
  for (const PgoPass& pass : series.passes) {
    if (pass.refused) continue;
    ++s.passes;
    if (first_call == kUnknownTime) first_call = pass.start;
    if (flag_known && !s.converged && !pass.further_measurements_desired) {
      s.converged = true;
      s.passes_to_converge = s.passes;
      s.time_to_converge_ns = pass.start - first_call;
    }
    if (measured(pass)) {
      if (!first_measured) first_measured = &pass;
      last_measured = &pass;
    }
  }
  if (first_measured) {
    s.packet_time_first_pass_ns = packet_ns(*first_measured);
    s.packet_time_last_pass_ns = packet_ns(*last_measured);
  }
  return s;
}

}  // namespace core::analysis
