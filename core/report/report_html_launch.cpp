#include "core/report/report_html_launch.h"

#include <fmt/format.h>

#include "core/report/html_parts.h"
#include "core/report/report_rows.h"
#include "core/report/svg_chart.h"
#include "core/report/table_bounds.h"

namespace core::report {
namespace {

using namespace core::analysis;  // NOLINT

// A count of gaps with their total time: "3 gaps, 12.0 us".
std::string Gaps(uint64_t gaps, DurationNs ns) {
  return fmt::format("{} ({} gaps)", FormatDuration(static_cast<double>(ns)), gaps);
}

// Why the gaps of class "other" were long: the reasons with the most time first, at most
// kCellItems of them, then a line for the rest.
std::string OtherReasons(const ReportData& d, const QueueIdleSplit& s) {
  struct Reason {
    std::string text;
    DurationNs ns = 0;
  };
  std::vector<Reason> reasons;
  for (const FenceGapTotal& f : s.other_on_fence) {
    reasons.push_back({fmt::format("cross-stream wait on {} from {}: {}", d.FenceName(f.fence),
                                   d.SignallerName(f.signalling, f.cpu_signal),
                                   FormatDuration(f.ns)),
                       f.ns});
  }
  for (const SyncGapTotal& sync : s.other_on_sync) {
    reasons.push_back(
        {fmt::format("host sync in {}: {}", d.SyncName(sync), FormatDuration(sync.ns)), sync.ns});
  }
  for (OtherReason why : {OtherReason::kPreempted, OtherReason::kUnexplained}) {
    const DurationNs ns = s.other_ns[static_cast<size_t>(why)];
    if (ns > 0) {
      reasons.push_back({fmt::format("{}: {}", OtherReasonName(why), FormatDuration(ns)), ns});
    }
  }
  const Bounded<Reason> shown = TopOf(
      reasons, [](const Reason&) { return true; }, [](const Reason& r) { return r.ns; },
      kCellItems);
  std::vector<std::string> texts;
  for (const Reason* r : shown.shown) texts.push_back(r->text);
  return ListCell(texts, shown.more, FormatDuration(shown.more_value));
}

// Colours of the queue length lines (presentation only).
constexpr const char* kLineColours[] = {"#3b7dd8", "#f0a030", "#7a2ea0", "#2f9e44",
                                        "#d03030", "#1098ad", "#868e96", "#e64980"};

}  // namespace

std::string IdleSplitSection(const ReportData& d) {
  std::string out = Section("idle-split", "Idle time between packets (host / kernel / other)");
  out += fmt::format(
      "<p>Each gap between two packets of a queue, whole, by the next packet's launch call (as "
      "HTA's idle time breakdown): <b>host wait</b> when the call started after the previous "
      "packet ended, <b>kernel wait</b> when it started before and the gap is shorter than {}, "
      "<b>other</b> otherwise (named when a GPU wait or a host sync held it), <b>unlinked</b> "
      "when the trace has no launch call for the next packet.</p>\n",
      FormatDuration(static_cast<double>(kKernelWaitMaxNs)));
  if (!d.launches.any()) return out + "<p>" + XmlEscape(d.NoLaunchCallsGapSentence()) + "</p>\n";
  out += "<table><tr><th>queue</th><th>host wait</th><th>kernel wait</th><th>other</th>"
         "<th>other: why</th><th>unlinked</th><th>before the first / after the last packet"
         "</th></tr>\n";
  std::vector<StackedRow> bars;
  const Bounded<QueueIdleSplit> rows = SplitRows(d);
  for (const QueueIdleSplit* split : rows.shown) {
    const QueueIdleSplit& s = *split;
    auto c = [&](IdleClass k) { return static_cast<size_t>(k); };
    out += Row({d.QueueName(s.queue), Gaps(s.gaps[c(IdleClass::kHostWait)], s.ns[c(IdleClass::kHostWait)]),
                Gaps(s.gaps[c(IdleClass::kKernelWait)], s.ns[c(IdleClass::kKernelWait)]),
                Gaps(s.gaps[c(IdleClass::kOther)], s.ns[c(IdleClass::kOther)]), OtherReasons(d, s),
                Gaps(s.gaps[c(IdleClass::kUnlinked)], s.ns[c(IdleClass::kUnlinked)]),
                FormatDuration(static_cast<double>(s.outside_ns))});
    bars.push_back({d.QueueName(s.queue), {}});
    for (DurationNs ns : s.ns) bars.back().values.push_back(static_cast<double>(ns));
  }
  out += "</table>\n" + MoreParagraph(MoreLine(rows.more, "queue", "queues",
                                                FormatDuration(rows.more_value) + " idle"));
  std::vector<std::string> labels;
  for (size_t k = 0; k < kIdleClasses; ++k) labels.push_back(IdleClassName(static_cast<IdleClass>(k)));
  out += SvgStackedBars("Idle time between packets by class", labels,
                        {"#c05050", "#8fbf60", "#f0a030", "#d8d8d8"}, bars, "ns");
  return out;
}

std::string LaunchSection(const ReportData& d) {
  const LaunchCalls& l = d.launches;
  std::string out = Section("launch", "Launch delay and queue length");
  if (!l.any()) {
    out += fmt::format("<p>The trace links no packet to the CPU call that launched it ({} CPU "
                       "launch flows): no launch delays.</p>\n",
                       l.flows);
  } else {
    out += fmt::format(
        "<p>{} of {} packets have a launch call (CPU launch flow); {} flows could not be "
        "matched. Launch delay = packet start &minus; end of its launch call (HTA's kernel "
        "launch delay); negative when the packet started before the call returned.</p>\n",
        l.packets_linked, d.recon.packets.size(), l.flows_unmatched);
    out += "<table><tr><th>queue</th><th>n</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>"
           "<th>negative</th><th>packets without launch call</th></tr>\n";
    const Bounded<QueueLaunchDelay> rows = LaunchDelayRows(d);
    for (const QueueLaunchDelay* q : rows.shown) {
      out += Row({d.QueueName(q->queue), std::to_string(q->delay.count),
                  FormatDuration(static_cast<double>(q->delay.p50)),
                  FormatDuration(static_cast<double>(q->delay.p90)),
                  FormatDuration(static_cast<double>(q->delay.p99)),
                  FormatDuration(static_cast<double>(q->delay.max)), std::to_string(q->negative),
                  std::to_string(q->without_launch)});
    }
    out += "</table>\n" + MoreParagraph(MoreLine(rows.more, "queue", "queues",
                                                  FormatDuration(rows.more_value) + " of delay"));
    std::string outliers;
    const OutlierRows longest = LongestLaunchDelays(d);
    for (const QueueOutlier& o : longest.shown) {
      outliers += "<tr>" + Cell(d.QueueName(o.queue)) +
                  NameCell(o.outlier->name ? d.store->String(o.outlier->name) : std::string()) +
                  Cell(Ms(o.outlier->start, d.recon.start_ns)) +
                  Cell(FormatDuration(static_cast<double>(o.outlier->delay))) + "</tr>\n";
    }
    out += fmt::format("<h3>Longest launch delays</h3>\n<p>Up to {} per queue, the longest of "
                       "them all first.</p>\n<table><tr><th>queue</th><th>packet</th><th>start"
                       "</th><th>delay</th></tr>\n{}</table>\n",
                       kLaunchDelayOutliers, outliers);
    out += MoreParagraph(MoreLine(longest.more, "launch delay", "launch delays",
                                  FormatDuration(longest.more_value)));
  }
  const QueueLengths& lengths = d.queue_lengths;
  out += fmt::format(
      "<h3>Queue length</h3>\n<p>Packets {} and not yet started, per queue (HTA's queue "
      "length).</p>\n",
      lengths.from_launch_calls ? "launched (launch call begun)" : "submitted");
  std::vector<double> x;
  std::vector<LineSeries> lines;
  out += "<table><tr><th>queue</th><th>max</th><th>time-weighted mean</th><th>packets counted"
         "</th><th>left out (no launch time)</th></tr>\n";
  const Bounded<QueueLength> rows = QueueLengthRows(d);
  for (const QueueLength* q : rows.shown) {
    out += Row({d.QueueName(q->queue), std::to_string(q->max), fmt::format("{:.3f}", q->mean),
                std::to_string(q->packets_counted), std::to_string(q->packets_left_out)});
    if (q->max == 0) continue;
    LineSeries line{d.QueueName(q->queue), kLineColours[lines.size() % std::size(kLineColours)],
                    {}, false};
    for (uint32_t v : q->bin_max) line.values.push_back(v);
    lines.push_back(std::move(line));
  }
  out += "</table>\n" + MoreParagraph(MoreLine(rows.more, "queue", "queues"));
  if (!lines.empty()) {
    for (size_t b = 0; b < lines.front().values.size(); ++b) {
      x.push_back(static_cast<double>((static_cast<DurationNs>(b) * lengths.bin_ns)));
    }
    out += SvgLineChart("Queue length over time (highest per bin)", x, "ns", lines, "", "");
  }
  return out;
}

}  // namespace core::report
