#include "core/fleet/fleet_analysis.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

#include "core/model/error.h"

namespace core::fleet {
namespace {

struct RankedSummary {
  int64_t rank = 0;
  std::string source;
  RankSummary summary;
  std::unordered_map<int64_t, const StepSummary*> steps;  // by id
};

// Lower median (one of the samples, like the reports' nearest-rank percentiles).
int64_t Median(std::vector<int64_t> v) {
  if (v.empty()) return 0;
  const size_t mid = (v.size() - 1) / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  return v[mid];
}

std::vector<RankedSummary> AssignRanks(std::vector<RankSummary> summaries,
                                       RankNumbering numbering) {
  std::vector<RankedSummary> out;
  out.reserve(summaries.size());
  for (RankSummary& s : summaries) {
    RankedSummary r;
    if (numbering == RankNumbering::kMetadata && s.metadata_rank >= 0) {
      r.rank = s.metadata_rank, r.source = "metadata";
    } else if (numbering != RankNumbering::kOrder && s.name_rank >= 0) {
      r.rank = s.name_rank, r.source = "file name";
    } else {
      r.rank = s.order, r.source = "order";
    }
    r.summary = std::move(s);
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(), [](const RankedSummary& a, const RankedSummary& b) {
    return std::tie(a.rank, a.summary.order) < std::tie(b.rank, b.summary.order);
  });
  for (size_t i = 1; i < out.size(); ++i) {
    if (out[i].rank == out[i - 1].rank) {
      throw core::Error(fmt::format(
          "{} and {} are both rank {} (from their {} and {}); give traces of one job only, "
          "with distinct ranks (runs of a CI rather than ranks of one job: --traces-are runs, "
          "which numbers them by their order)",
          out[i - 1].summary.input, out[i].summary.input, out[i].rank, out[i - 1].source,
          out[i].source));
    }
  }
  for (RankedSummary& r : out) {
    for (const StepSummary& s : r.summary.steps) r.steps.emplace(s.id, &s);
  }
  return out;
}

// The differences `value(rank) - value(reference)` over matched steps.
template <class Sample>
std::vector<int64_t> Differences(const RankedSummary& rank, const RankedSummary& reference,
                                 const std::vector<int64_t>& matched, Sample sample) {
  std::vector<int64_t> out;
  for (int64_t id : matched) sample(*rank.steps.at(id), *reference.steps.at(id), out);
  return out;
}

// `collectives_shared`: the ranks' collectives are the same operations (ranks of one job).
void AlignClocks(const std::vector<RankedSummary>& ranks, const std::vector<int64_t>& matched,
                 bool collectives_shared, FleetAnalysis& a) {
  a.clock_method = "none";
  if (ranks.empty()) return;
  a.reference_rank = ranks[0].rank;
  if (matched.empty()) {
    // No step on every trace: the traces' starts, the least exact (when each began recording),
    // so that they are drawn side by side rather than as far apart as their clocks' origins.
    a.clock_method = "trace_start";
    for (size_t i = 0; i < ranks.size(); ++i) {
      a.ranks[i].offset_ns = ranks[i].summary.start_ns - ranks[0].summary.start_ns;
      a.ranks[i].offset_samples = 1;
      a.ranks[i].offset_spread_ns = 0;
    }
    return;
  }
  auto collective_ends = [](const StepSummary& s, const StepSummary& ref,
                            std::vector<int64_t>& out) {
    const size_t n = std::min(s.collectives.size(), ref.collectives.size());
    for (size_t i = 0; i < n; ++i) out.push_back(s.collectives[i].end_ns - ref.collectives[i].end_ns);
  };
  auto step_starts = [](const StepSummary& s, const StepSummary& ref, std::vector<int64_t>& out) {
    out.push_back(s.start_ns - ref.start_ns);
  };
  std::vector<std::vector<int64_t>> samples(ranks.size());
  bool every_rank_has_collectives = collectives_shared;
  // (Stops at the first rank without one: the step starts are used then.)
  for (size_t i = 0; every_rank_has_collectives && i < ranks.size(); ++i) {
    samples[i] = Differences(ranks[i], ranks[0], matched, collective_ends);
    every_rank_has_collectives &= !samples[i].empty();
  }
  a.clock_method = "collective_end";
  if (!every_rank_has_collectives) {
    a.clock_method = "step_start";
    for (size_t i = 0; i < ranks.size(); ++i) {
      samples[i] = Differences(ranks[i], ranks[0], matched, step_starts);
    }
  }
  for (size_t i = 0; i < ranks.size(); ++i) {
    const auto [lo, hi] = std::minmax_element(samples[i].begin(), samples[i].end());
    a.ranks[i].offset_ns = Median(samples[i]);
    a.ranks[i].offset_samples = samples[i].size();
    a.ranks[i].offset_spread_ns = samples[i].empty() ? 0 : *hi - *lo;
  }
}

// The latest of `arrivals` (on the reference clock), the lateness over the next latest and
// the others' waits added up. Ties go to the lower rank.
struct Latest {
  size_t index = 0;
  DurationNs lateness = 0;
  DurationNs others_waited = 0;
};
Latest LatestArrival(const std::vector<TimeNs>& arrivals) {
  Latest l;
  for (size_t i = 1; i < arrivals.size(); ++i) {
    if (arrivals[i] > arrivals[l.index]) l.index = i;
  }
  TimeNs next = arrivals[l.index];
  bool any_other = false;
  for (size_t i = 0; i < arrivals.size(); ++i) {
    if (i == l.index) continue;
    next = any_other ? std::max(next, arrivals[i]) : arrivals[i];
    any_other = true;
    l.others_waited += arrivals[l.index] - arrivals[i];
  }
  l.lateness = arrivals[l.index] - next;
  return l;
}

// The lanes (FleetAnalysis::lanes): every step and collective of each rank minus its offset;
// `latest[(step, k)]` is the latest arrival and the straggler's index at the k-th collective of
// matched step `step`.
struct LatestAt {
  TimeNs arrival = 0;
  size_t index = 0;
};
void BuildLanes(const std::vector<RankedSummary>& ranks,
                const std::map<std::pair<int64_t, size_t>, LatestAt>& latest,
                const std::vector<int64_t>& matched, FleetAnalysis& a) {
  bool any = false;
  for (size_t i = 0; i < ranks.size(); ++i) {
    const TimeNs offset = a.ranks[i].offset_ns;
    RankLane lane;
    for (const StepSummary& s : ranks[i].summary.steps) {
      const bool is_matched = std::binary_search(matched.begin(), matched.end(), s.id);
      lane.steps.push_back({s.id, s.start_ns - offset, s.end_ns - offset, is_matched});
      for (size_t k = 0; k < s.collectives.size(); ++k) {
        const Collective& c = s.collectives[k];
        LaneCollective lc{s.id, c.name, c.start_ns - offset, c.end_ns - offset, c.start_ns - offset,
                          false};
        if (auto it = latest.find({s.id, k}); is_matched && it != latest.end()) {
          lc.others_arrived = it->second.arrival;
          lc.straggler = it->second.index == i && ranks.size() > 1;
        }
        lane.collectives.push_back(std::move(lc));
      }
    }
    auto by_start = [](const auto& x, const auto& y) { return x.start_ns < y.start_ns; };
    std::stable_sort(lane.steps.begin(), lane.steps.end(), by_start);
    std::stable_sort(lane.collectives.begin(), lane.collectives.end(), by_start);
    auto extend = [&](TimeNs start, TimeNs end) {
      a.lanes_start_ns = any ? std::min(a.lanes_start_ns, start) : start;
      a.lanes_end_ns = any ? std::max(a.lanes_end_ns, end) : end;
      any = true;
    };
    for (const LaneStep& s : lane.steps) extend(s.start_ns, s.end_ns);
    for (const LaneCollective& c : lane.collectives) extend(c.start_ns, c.end_ns);
    a.lanes.push_back(std::move(lane));
  }
}

}  // namespace

FleetAnalysis AnalyseFleet(std::vector<RankSummary> summaries, std::vector<FailedTrace> failed,
                           FleetDetail detail, const FleetOptions& options) {
  FleetAnalysis a;
  a.failed = std::move(failed);
  a.options = options;
  const bool runs = options.traces_are == TracesAre::kRuns;
  const std::vector<RankedSummary> ranks = AssignRanks(std::move(summaries), options.numbering);
  if (ranks.empty()) return a;

  // Matched steps: the ids every rank has.
  std::map<int64_t, size_t> seen;
  for (const RankedSummary& r : ranks) {
    for (const auto& [id, step] : r.steps) ++seen[id];
  }
  std::vector<int64_t> matched;
  for (const auto& [id, count] : seen) {
    if (count == ranks.size()) {
      matched.push_back(id);
    } else {
      ++a.steps_unmatched;
    }
  }

  for (const RankedSummary& r : ranks) {
    RankRow row;
    row.rank = r.rank;
    row.rank_source = r.source;
    row.input = r.summary.input;
    row.steps_from = r.summary.steps_from;
    row.steps = r.summary.steps.size();
    for (const StepSummary& s : r.summary.steps) {
      row.step_id_min = row.step_id_min < 0 ? s.id : std::min(row.step_id_min, s.id);
      row.step_id_max = std::max(row.step_id_max, s.id);
    }
    row.steps_cut_off = r.summary.steps_cut_off;
    a.steps_cut_off += row.steps_cut_off.size();
    row.trace_ns = r.summary.end_ns - r.summary.start_ns;
    row.trace_queues = r.summary.queues.size();
    if (r.summary.queues_known) {
      for (const QueueStepTime& q : r.summary.queues) {
        row.trace_busy_ns += q.busy_ns;
        row.trace_waiting_ns += q.waiting_ns;
        row.trace_idle_ns += q.idle_ns;
      }
    } else {
      row.trace_busy_ns = row.trace_waiting_ns = row.trace_idle_ns = -1;
    }
    a.steps_from = a.ranks.empty() || a.steps_from == row.steps_from ? row.steps_from : "mixed";
    a.ranks.push_back(std::move(row));
  }
  AlignClocks(ranks, matched, /*collectives_shared=*/!runs, a);

  const size_t n = ranks.size();
  std::vector<TimeNs> arrivals(n);
  std::map<std::pair<int64_t, size_t>, LatestAt> latest;  // by (step, collective)
  for (int64_t id : matched) {
    StepRow row;
    row.step = id;
    size_t collectives = SIZE_MAX;
    for (size_t i = 0; i < n; ++i) {
      const StepSummary& s = *ranks[i].steps.at(id);
      const DurationNs ns = s.end_ns - s.start_ns;
      row.step_ns.push_back(ns);
      row.start_ns.push_back(s.start_ns);
      collectives = std::min(collectives, s.collectives.size());
      RankRow& rr = a.ranks[i];
      rr.step_ns_mean += ns;  // divided below
      for (const QueueStepTime& q : s.queues) {
        rr.busy_ns += q.busy_ns, rr.waiting_ns += q.waiting_ns, rr.idle_ns += q.idle_ns;
      }
      for (const Collective& c : s.collectives) rr.collective_ns += c.end_ns - c.start_ns;
    }
    row.step_ns_min = *std::min_element(row.step_ns.begin(), row.step_ns.end());
    row.step_ns_max = *std::max_element(row.step_ns.begin(), row.step_ns.end());
    DurationNs total = 0;
    for (DurationNs ns : row.step_ns) total += ns;
    row.step_ns_mean = total / static_cast<DurationNs>(n);
    // Runs share no collective: what one run's collectives wait for is its own job's business.
    if (runs) collectives = 0;

    Latest worst;
    bool have = false;
    for (size_t c = 0; c < collectives; ++c) {
      for (size_t i = 0; i < n; ++i) {
        arrivals[i] = ranks[i].steps.at(id)->collectives[c].start_ns - a.ranks[i].offset_ns;
      }
      const Latest l = LatestArrival(arrivals);
      if (detail == FleetDetail::kLanes) latest[{id, c}] = {arrivals[l.index], l.index};
      for (size_t i = 0; i < n; ++i) {
        a.ranks[i].collective_wait_ns += arrivals[l.index] - arrivals[i];
      }
      if (!have || l.lateness > worst.lateness) {
        worst = l, have = true;
        row.straggler.at = fmt::format("collective {} of {}: {}", c + 1, collectives,
                                       ranks[l.index].steps.at(id)->collectives[c].name);
      }
    }
    if (!have && runs) {
      // The runs' steps compared as if they had started together: the longest is the latest.
      worst = LatestArrival(row.step_ns);
      worst.others_waited = 0;  // no run waited for it
      row.straggler.at = "step time";
    } else if (!have) {
      for (size_t i = 0; i < n; ++i) {
        arrivals[i] = ranks[i].steps.at(id)->end_ns - a.ranks[i].offset_ns;
      }
      worst = LatestArrival(arrivals);
      row.straggler.at = "step end";
    }
    if (n > 1) {
      row.straggler.rank = ranks[worst.index].rank;
      row.straggler.lateness_ns = worst.lateness;
      row.straggler.others_waited_ns = worst.others_waited;
      row.straggler.doing = ranks[worst.index].steps.at(id)->path;
      ++a.ranks[worst.index].straggler_steps;
    }
    a.steps.push_back(std::move(row));
  }
  if (!matched.empty()) {
    for (RankRow& r : a.ranks) r.step_ns_mean /= static_cast<DurationNs>(matched.size());
  }
  if (detail == FleetDetail::kLanes) BuildLanes(ranks, latest, matched, a);
  return a;
}

}  // namespace core::fleet
