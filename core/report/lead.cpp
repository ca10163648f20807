#include "core/report/lead.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/analysis/packet_stats.h"
#include "core/report/figure_labels.h"
#include "core/report/svg_chart.h"
#include "core/report/table_bounds.h"

namespace core::report {
namespace {

using namespace core::analysis;  // NOLINT

QueueLead QueueLeadOf(const QueueGaps& g, DurationNs busy_ns) {
  QueueLead q;
  q.queue = g.queue;
  q.busy_ns = busy_ns;
  for (size_t c = 0; c < kGapCauses; ++c) {
    if (g.by_cause[c] > q.cause_ns) {
      q.cause = static_cast<GapCause>(c);
      q.cause_ns = g.by_cause[c];
    }
  }
  if (q.cause_ns == 0) return q;
  // The first of the longest, as the tables list them.
  auto longest = [](const auto& items) {
    return std::max_element(items.begin(), items.end(),
                            [](const auto& a, const auto& b) { return a.ns < b.ns; });
  };
  if (q.cause == GapCause::kWaitingOnFence && !g.per_fence.empty()) q.fence = *longest(g.per_fence);
  if (q.cause == GapCause::kSynchronised && !g.per_sync.empty()) q.sync = *longest(g.per_sync);
  return q;
}

std::string D(DurationNs ns) {
  return FormatDuration(static_cast<double>(ns));
}

// The packet names of a line are cut shorter than in the tables (the line is a sentence).
constexpr size_t kLeadNameBytes = 60;

}  // namespace

std::string ActiveFromTo(const ReportData& d, const ActiveSpan& a) {
  // told apart to a tenth of the span's length: 30.5 s, not 30 s, for a span of 12.9 s
  const double step = static_cast<double>(std::max<DurationNs>(a.active.Length(), 10)) / 10;
  return fmt::format("from {} to {}",
                     FormatTimeAt(static_cast<double>(a.active.start - d.recon.start_ns), step),
                     FormatTimeAt(static_cast<double>(a.active.end - d.recon.start_ns), step));
}

std::string IdleEnds(const ActiveSpan& a) {
  if (a.lead_in_ns > 0 && a.tail_ns > 0) {
    return fmt::format("in the first {} and the last {}", D(a.lead_in_ns), D(a.tail_ns));
  }
  return a.lead_in_ns > 0 ? "in the first " + D(a.lead_in_ns) : "in the last " + D(a.tail_ns);
}

namespace {}  // namespace

std::string Percent(double share) {
  if (share > 0 && share < 0.0005) return "<0.1%";
  return fmt::format("{:.1f}%", 100 * share);
}

Lead ComputeLead(const ReportData& d) {
  Lead lead;
  lead.span_ns = d.recon.end_ns - d.recon.start_ns;
  lead.active = ComputeActiveSpan(d.recon);
  std::vector<QueueLead> queues;
  for (const QueueGaps& g : d.gaps.per_queue) {
    if (d.IsQuietQueue(g.queue)) continue;
    DurationNs busy = 0;
    for (const QueueTime& t : d.queue_time.queues) {
      if (t.queue == g.queue) busy = t.busy_ns;
    }
    queues.push_back(QueueLeadOf(g, busy));
  }
  std::stable_sort(queues.begin(), queues.end(),
                   [](const QueueLead& a, const QueueLead& b) { return a.busy_ns > b.busy_ns; });
  lead.queues_left_out = queues.size() > kLeadQueues ? queues.size() - kLeadQueues : 0;
  queues.resize(std::min(queues.size(), kLeadQueues));
  lead.queues = std::move(queues);
  for (size_t i = 0; i < d.longest_waits.size() && i < kLeadWaits; ++i) {
    lead.waits.push_back(d.longest_waits[i]);
  }
  lead.path_ns = d.critical_path.Length();
  lead.path = d.critical_path.shares;
  std::stable_sort(lead.path.begin(), lead.path.end(),
                   [](const PathShare& a, const PathShare& b) { return a.ns > b.ns; });
  lead.path.resize(std::min(lead.path.size(), kLeadPathTracks));
  return lead;
}

std::vector<LeadLine> LeadLines(const ReportData& d, const Lead& lead) {
  std::vector<LeadLine> out;
  const double span = static_cast<double>(std::max<DurationNs>(lead.span_ns, 1));
  const ActiveSpan& a = lead.active;
  // Said when the queues did nothing for a twentieth of the capture or more (a PyTorch
  // capture's warm-up); a few microseconds before the first kernel are not worth a line.
  if (a.any && (a.lead_in_ns + a.tail_ns) * 20 >= lead.span_ns) {
    out.push_back(
        {fmt::format("The queues were active for {} of the {} capture, {}: nothing ran or waited "
                     "on a queue {}.",
                     D(a.active.Length()), D(lead.span_ns), ActiveFromTo(d, a), IdleEnds(a)),
         "timeline"});
  }
  for (const QueueLead& q : lead.queues) {
    std::string text = fmt::format("{} was busy {} ({} of the capture)", d.QueueName(q.queue),
                                   D(q.busy_ns), Percent(q.busy_ns / span));
    if (q.cause_ns > 0) {
      text += fmt::format("; its largest idle cause: {}, {} ({})",
                          kGapCauseLabels[static_cast<size_t>(q.cause)], D(q.cause_ns),
                          Percent(q.cause_ns / span));
    }
    if (q.fence) {
      text +=
          fmt::format(", longest on {} from {} ({})", d.FenceName(q.fence->fence),
                      d.SignallerName(q.fence->signalling, q.fence->cpu_signal), D(q.fence->ns));
    }
    if (q.sync) text += fmt::format(", longest in {} ({})", d.SyncName(*q.sync), D(q.sync->ns));
    out.push_back({text + ".", "gaps"});
  }
  if (lead.queues_left_out > 0) {
    out.push_back({fmt::format("{} more {} did something: the idle-gap attribution has them all.",
                               Thousands(lead.queues_left_out),
                               lead.queues_left_out == 1 ? "queue" : "queues"),
                   "gaps"});
  }
  for (size_t i = 0; i < lead.waits.size(); ++i) {
    const HeldWait& w = lead.waits[i];
    std::string text =
        fmt::format("{} {} was held {} from {}, waiting for {} >= {}",
                    i == 0 ? "The longest wait:" : "Next:", d.TrackName(w.queue, w.thread),
                    D(w.Held()), D(w.start - d.recon.start_ns), d.FenceName(w.fence), w.value);
    if (w.signal != kNoIndex) {
      const SignalBox& s = d.recon.signals[w.signal];
      text += ", released by " + d.SignallerName(s.queue, s.cpu);
      if (w.packet != kNoIndex) {
        text += " when " +
                ShortenName(PacketLabel(*d.store, d.recon.packets[w.packet].name), kLeadNameBytes) +
                " completed";
      }
    } else {
      text += " (the trace links no signal to its release)";
    }
    out.push_back({text + ".", "longest-waits"});
  }
  // The change that would pay most, replayed (core/replay/opportunities.h).
  if (d.opportunities.computed && !d.opportunities.list.empty() &&
      d.opportunities.list.front().gain_pct > 0) {
    const replay::Opportunity& best = d.opportunities.list.front();
    const std::string change = best.kind == "faster_packets"
                                   ? ShortenName(best.name, kLeadNameBytes) + " twice as fast"
                               : best.kind == "faster_host"
                                   ? "the host twice as fast"
                                   : "without the wait where " + best.name;
    out.push_back({fmt::format("Replayed with one change, {} would shorten the span by {:.1f}% "
                               "(the replay reproduces the trace's span to {:+.2f}%).",
                               change, best.gain_pct, d.opportunities.fidelity.span_error_pct),
                   "opportunities"});
  }
  if (!lead.path.empty()) {
    std::string tracks;
    for (const PathShare& s : lead.path) {
      tracks +=
          fmt::format("{}{} {} ({}; {} running)", tracks.empty() ? "" : ", ",
                      d.TrackName(s.queue, s.thread), D(s.ns), Percent(s.share), D(s.running_ns));
    }
    out.push_back(
        {fmt::format("The critical path ({}) runs longest on {}.", D(lead.path_ns), tracks),
         "critical-path"});
  }
  return out;
}

}  // namespace core::report
