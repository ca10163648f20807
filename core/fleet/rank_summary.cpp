#include "core/fleet/rank_summary.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <tuple>

#include "core/analysis/critical_path.h"
#include "core/analysis/queue_time.h"
#include "core/fleet/fleet_inputs.h"
#include "core/fleet/step_marks.h"
#include "core/model/event_types.h"

namespace core::fleet {
namespace {

using core::analysis::kNoIndex;
using core::analysis::Reconstruction;
using core::model::EventKind;

struct CollectivePacket {
  TimeNs start = 0;
  TimeNs end = 0;
  core::model::QueueId queue = 0;
  core::model::StringId name = 0;
};

std::vector<CollectivePacket> FindCollectives(const core::store::TraceStore& store,
                                              const Reconstruction& r) {
  std::vector<int8_t> is_collective(store.strings.size(), -1);
  std::vector<CollectivePacket> out;
  for (size_t i = 0; i < r.packets.size(); ++i) {
    const core::analysis::Packet p = r.packets[i];
    if (p.start == core::analysis::kUnknownTime || p.end == core::analysis::kUnknownTime ||
        p.name >= is_collective.size()) {
      continue;
    }
    if (is_collective[p.name] < 0) is_collective[p.name] = IsCollectiveName(store.String(p.name));
    if (is_collective[p.name]) out.push_back({p.start, p.end, p.queue, p.name});
  }
  std::sort(out.begin(), out.end(), [](const CollectivePacket& a, const CollectivePacket& b) {
    return std::tie(a.start, a.queue) < std::tie(b.start, b.queue);
  });
  return out;
}

// Where the walk back for a step without a collective starts: the queue whose last run
// segment ending by `end` ends latest (the work the step's end waited for).
core::analysis::PathPosition LastWorkBefore(const core::analysis::PathIndex& index, TimeNs end) {
  core::analysis::PathPosition best{false, 0, core::analysis::kUnknownTime};
  for (uint32_t q = 0; q < index.segment_end.size(); ++q) {
    const std::vector<TimeNs>& ends = index.segment_end[q];
    // Segments are by start; their ends are too, on one queue (a queue runs one at a time).
    auto it = std::upper_bound(ends.begin(), ends.end(), end);
    if (it == ends.begin()) continue;
    const TimeNs t = *std::prev(it);
    if (best.t == core::analysis::kUnknownTime || t > best.t) best = {false, q, t};
  }
  return best;
}

std::vector<PathItem> PathItems(const core::report::ReportData& data,
                                const core::analysis::CriticalPath& path, TimeNs from,
                                DurationNs* length) {
  const core::store::TraceStore& store = *data.store;
  std::map<std::tuple<std::string, std::string, std::string>, DurationNs> totals;
  *length = 0;
  for (const core::analysis::PathStep& s : path.steps) {
    const TimeNs start = std::max(s.start, from);
    if (s.end <= start) continue;
    const DurationNs ns = s.end - start;
    *length += ns;
    const uint32_t named = s.NamedPacket();
    std::string name = named == kNoIndex ? "" : store.String(data.recon.packets[named].name);
    std::string track = s.queue ? data.QueueName(s.queue) : data.TrackName(0, s.thread);
    totals[{core::analysis::PathStepKindName(s.kind), std::move(track), std::move(name)}] += ns;
  }
  std::vector<PathItem> items;
  for (auto& [key, ns] : totals) {
    items.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), ns});
  }
  std::sort(items.begin(), items.end(), [](const PathItem& a, const PathItem& b) {
    return std::tie(b.ns, a.kind, a.track, a.name) < std::tie(a.ns, b.kind, b.track, b.name);
  });
  if (items.size() > kPathItems) items.resize(kPathItems);
  return items;
}

int64_t MetaInt(const core::store::TraceStore& store, const std::string& key) {
  const std::string text = store.MetaOr(key, "");
  int64_t n = -1;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  return ec == std::errc() && p == text.data() + text.size() && n >= 0 ? n : -1;
}

}  // namespace

bool IsCollectiveName(std::string_view name) {
  for (std::string_view library : {"nccl", "rccl", "NCCL", "RCCL"}) {
    if (name.find(library) != std::string_view::npos) return true;
  }
  return false;
}

RankSummary ComputeRankSummary(const core::report::ReportData& data, const std::string& input,
                               int64_t order) {
  const core::store::TraceStore& store = *data.store;
  const Reconstruction& r = data.recon;
  RankSummary out;
  out.input = input;
  out.order = order;
  out.metadata_rank = MetaInt(store, "json.distributedInfo.rank");
  out.name_rank = RankFromFileName(input);
  out.start_ns = r.start_ns;
  out.end_ns = r.end_ns;
  for (const core::analysis::QueueTime& q : data.queue_time.queues) {
    if (data.IsQuietQueue(q.queue)) continue;
    out.queues.push_back({data.QueueName(q.queue), q.busy_ns, q.waiting_ns, q.idle_ns});
  }

  std::vector<StepMark> marks = FindSteps(store);
  out.steps_from = "profiler_step";
  // (Frames end at presents, which are records: none is cut off.)
  std::erase_if(marks, [&](const StepMark& mark) {
    if (mark.end <= r.end_ns) return false;
    out.steps_cut_off.push_back(mark.id);
    return true;
  });
  if (marks.empty() && out.steps_cut_off.empty()) {
    marks = FindFrames(store, r, &out.steps_from);
  }
  if (marks.empty()) return out;
  const std::vector<CollectivePacket> collectives = FindCollectives(store, r);
  const core::analysis::PathIndex index = core::analysis::IndexForPaths(r);
  std::vector<core::analysis::TimeRange> ranges;
  for (const StepMark& mark : marks) ranges.push_back({mark.start, mark.end});
  // Steps follow one another; ComputeQueueTimeSplits needs that (frames touch: one's end is
  // the next one's start, which it takes). Should two overlap (a profiler restarted inside a
  // step), each step is split on its own, the same figures.
  bool disjoint = true;
  for (size_t m = 1; m < ranges.size(); ++m) disjoint &= ranges[m].start >= ranges[m - 1].end;
  std::vector<std::vector<core::analysis::QueueTime>> splits;
  if (disjoint) {
    splits = core::analysis::ComputeQueueTimeSplits(store, r, ranges);
  } else {
    for (const auto& range : ranges) {
      splits.push_back(core::analysis::ComputeQueueTime(store, r, range).queues);
    }
  }
  for (size_t m = 0; m < marks.size(); ++m) {
    const StepMark& mark = marks[m];
    StepSummary step;
    step.id = mark.id;
    step.start_ns = mark.start;
    step.end_ns = mark.end;
    for (const core::analysis::QueueTime& q : splits[m]) {
      if (data.IsQuietQueue(q.queue)) continue;
      step.queues.push_back({data.QueueName(q.queue), q.busy_ns, q.waiting_ns, q.idle_ns});
    }
    auto first = std::lower_bound(
        collectives.begin(), collectives.end(), mark.start,
        [](const CollectivePacket& c, TimeNs t) { return c.start < t; });
    for (auto it = first; it != collectives.end() && it->start <= mark.end; ++it) {
      step.collectives.push_back({store.String(it->name), data.QueueName(it->queue), it->start,
                                  it->end});
    }
    core::analysis::PathPosition from =
        first != collectives.end() && first->start <= mark.end
            ? core::analysis::PathPosition{false, first->queue, first->start}
            : LastWorkBefore(index, mark.end);
    if (from.t != core::analysis::kUnknownTime && from.t >= mark.start) {
      const core::analysis::CriticalPath path =
          core::analysis::WalkBackFrom(r, index, from, /*stop_at=*/mark.start);
      step.path = PathItems(data, path, mark.start, &step.path_ns);
    }
    out.steps.push_back(std::move(step));
  }
  return out;
}

}  // namespace core::fleet
