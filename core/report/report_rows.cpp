#include "core/report/report_rows.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/report/svg_chart.h"

namespace core::report {
namespace {

using namespace core::analysis;  // NOLINT

auto All() {
  return [](const auto&) { return true; };
}

template <typename T>
Bounded<T> First(const std::vector<T>& items, size_t limit = kTableRows) {
  Bounded<T> out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i < limit) out.shown.push_back(&items[i]);
  }
  out.more = items.size() - out.shown.size();
  return out;
}

}  // namespace

Bounded<QueueTime> QueueRows(const ReportData& d) {
  return TopOf(
      d.queue_time.queues, [&](const QueueTime& t) { return !d.IsQuietQueue(t.queue); },
      [](const QueueTime& t) { return t.busy_ns; }, kTableRows, true);
}

Bounded<QueuePairWait> PairRows(const ReportData& d) {
  return TopOf(d.queue_time.pairs, All(), [](const QueuePairWait& p) { return p.waiting_ns; });
}

Bounded<QueueGaps> GapRows(const ReportData& d) {
  return TopOf(
      d.gaps.per_queue, [&](const QueueGaps& g) { return !d.IsQuietQueue(g.queue); },
      [](const QueueGaps& g) {
        DurationNs ns = 0;
        for (DurationNs c : g.by_cause) ns += c;
        return ns;
      },
      kTableRows, true);
}

std::string FencesCell(const ReportData& d, const std::vector<FenceGapTotal>& fences) {
  const auto items = TopOf(
      fences, All(), [](const FenceGapTotal& f) { return f.ns; }, kCellItems);
  std::vector<std::string> texts;
  for (const FenceGapTotal* f : items.shown) {
    texts.push_back(fmt::format("{} from {}: {}", d.FenceName(f->fence),
                                d.SignallerName(f->signalling, f->cpu_signal),
                                FormatDuration(static_cast<double>(f->ns))));
  }
  return ListCell(texts, items.more, FormatDuration(items.more_value));
}

std::string SyncsCell(const ReportData& d, const std::vector<SyncGapTotal>& syncs) {
  const auto items = TopOf(
      syncs, All(), [](const SyncGapTotal& s) { return s.ns; }, kCellItems);
  std::vector<std::string> texts;
  for (const SyncGapTotal* s : items.shown) {
    texts.push_back(d.SyncName(*s) + ": " + FormatDuration(static_cast<double>(s->ns)));
  }
  return ListCell(texts, items.more, FormatDuration(items.more_value));
}

Bounded<QueueIdleSplit> SplitRows(const ReportData& d) {
  return TopOf(
      d.gaps.split, [&](const QueueIdleSplit& s) { return !d.IsQuietQueue(s.queue); },
      [](const QueueIdleSplit& s) {
        DurationNs ns = s.outside_ns;
        for (DurationNs c : s.ns) ns += c;
        return ns;
      },
      kTableRows, true);
}

Bounded<FenceInterrupts> InterruptFenceRows(const ReportData& d) {
  return TopOf(d.interrupts.per_fence, All(),
               [](const FenceInterrupts& f) { return f.interrupts; });
}

double WaitedNs(const LatencyGroup& g) {
  return g.total.mean * static_cast<double>(g.total.count);
}

Bounded<LatencyGroup> LatencyRows(const std::vector<LatencyGroup>& groups) {
  return TopOf(groups, All(), WaitedNs);
}

Bounded<PacketNameStats> PacketRows(const ReportData& d) {
  return TopOf(d.packet_stats, All(), [](const PacketNameStats& p) { return p.total_ns; });
}

Bounded<PathShare> PathShareRows(const ReportData& d) {
  return TopOf(d.critical_path.shares, All(), [](const PathShare& s) { return s.ns; });
}

Bounded<PathStep> PathStepRows(const ReportData& d) {
  const auto& steps = d.critical_path.steps;
  Bounded<PathStep> out;
  for (size_t k = 0; k < steps.size(); ++k) {
    const PathStep& s = steps[steps.size() - 1 - k];
    if (k < kTableRows) {
      out.shown.push_back(&s);
    } else {
      ++out.more;
      out.more_value += static_cast<double>(s.end - s.start);
    }
  }
  return out;
}

Bounded<QueueLaunchDelay> LaunchDelayRows(const ReportData& d) {
  return TopOf(
      d.launch_delays.per_queue,
      [](const QueueLaunchDelay& q) { return q.delay.count != 0 || q.without_launch != 0; },
      [](const QueueLaunchDelay& q) { return q.delay.mean * static_cast<double>(q.delay.count); },
      kTableRows, true);
}

OutlierRows LongestLaunchDelays(const ReportData& d) {
  std::vector<QueueOutlier> all;
  for (const QueueLaunchDelay& q : d.launch_delays.per_queue) {
    for (const LaunchDelayOutlier& o : q.outliers) all.push_back({q.queue, &o});
  }
  // stable: of equal delays, queue order and then each queue's own order
  std::stable_sort(all.begin(), all.end(), [](const QueueOutlier& a, const QueueOutlier& b) {
    return a.outlier->delay > b.outlier->delay;
  });
  OutlierRows out;
  for (size_t i = 0; i < all.size(); ++i) {
    if (i < kTableRows) {
      out.shown.push_back(all[i]);
    } else {
      ++out.more;
      out.more_value += static_cast<double>(all[i].outlier->delay);
    }
  }
  return out;
}

Bounded<QueueLength> QueueLengthRows(const ReportData& d) {
  return TopOf(
      d.queue_lengths.per_queue,
      [](const QueueLength& q) { return q.packets_counted != 0 || q.packets_left_out != 0; },
      [](const QueueLength& q) { return q.packets_counted; }, kTableRows, true);
}

Bounded<PgoPass> PgoPassRows(const ReportData& d) {
  return First(d.pgo.passes);
}
Bounded<Finding> FindingRows(const std::vector<Finding>& findings) {
  return First(findings);
}

Bounded<LinkProblem> LinkProblemRows(const ReportData& d) {
  return TopOf(d.recon.problems, All(), [](const LinkProblem& p) { return p.count; });
}

}  // namespace core::report
