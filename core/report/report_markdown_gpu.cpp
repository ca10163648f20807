#include "core/report/report_markdown_gpu.h"

#include <cctype>

#include <fmt/format.h>

#include "core/report/figure_labels.h"
#include "core/report/lead.h"
#include "core/report/queue_streams.h"
#include "core/report/report_markdown.h"
#include "core/report/report_rows.h"
#include "core/report/svg_chart.h"
#include "core/report/table_bounds.h"

namespace core::report {
namespace {

using namespace core::analysis;  // NOLINT

using Rows = std::vector<std::vector<std::string>>;

std::string D(double ns) {
  return FormatDuration(ns);
}

std::string Heading(const char* level, const std::string& text) {
  return std::string(level) + " " + text + "\n\n";
}

std::string QueuesMarkdown(const ReportData& d) {
  Rows rows;
  const Bounded<QueueTime> queues = QueueRows(d);
  std::vector<std::string> shown_names;
  for (const QueueTime* t : queues.shown) {
    shown_names.push_back(d.QueueName(t->queue));
    rows.push_back({d.QueueName(t->queue), std::to_string(t->counts.submitted),
                    std::to_string(t->counts.started), std::to_string(t->counts.completed),
                    std::to_string(t->counts.running_at_end), D(t->busy_ns), D(t->waiting_ns),
                    D(t->idle_ns)});
  }
  std::string out =
      Heading("##", kMdQueuesHeading) +
      MarkdownTable({"queue", kPacketsSubmitted, kPacketsStarted, kPacketsCompleted,
                     kPacketsRunningAtEnd, "busy", "waiting", "idle"},
                    rows) +
      MarkdownMore(MoreLine(queues.more, "queue", "queues", D(queues.more_value) + " busy"));
  if (std::string quiet = d.QuietQueuesSentence(); !quiet.empty()) out += quiet + "\n\n";
  if (std::string streams = QueueStreamsSentence(*d.store, shown_names); !streams.empty()) {
    out += streams + "\n\n";
  }
  out += "### Queue pairs\n\n";
  if (d.queue_time.pairs.empty()) return out + d.NoQueuePairsSentence() + "\n\n";
  rows.clear();
  const Bounded<QueuePairWait> pairs = PairRows(d);
  for (const QueuePairWait* p : pairs.shown) {
    rows.push_back({d.QueueName(p->waiting), d.SignallerName(p->signalling, p->cpu_signal),
                    D(p->waiting_ns), std::to_string(p->waits)});
  }
  out += MarkdownTable({"waiting queue", "signalled by", "held", "waits"}, rows) +
         MarkdownMore(
             MoreLine(pairs.more, "queue pair", "queue pairs", D(pairs.more_value) + " held"));
  if (std::string unplaced = d.UnplacedWaitsSentence(); !unplaced.empty()) {
    out += unplaced + "\n\n";
  }
  return out;
}

std::string GapsMarkdown(const ReportData& d) {
  Rows rows;
  const Bounded<QueueGaps> gaps = GapRows(d);
  for (const QueueGaps* g : gaps.shown) {
    std::vector<std::string> row = {d.QueueName(g->queue)};
    for (DurationNs ns : g->by_cause) row.push_back(D(ns));
    row.push_back(FencesCell(d, g->per_fence));
    row.push_back(SyncsCell(d, g->per_sync));
    rows.push_back(std::move(row));
  }
  std::vector<std::string> header = {"queue"};
  header.insert(header.end(), std::begin(kGapCauseLabels), std::end(kGapCauseLabels));
  header.insert(header.end(), {"fences waited on", "host syncs"});
  return Heading("###", kMdGapsHeading) + MarkdownTable(header, rows) +
         MarkdownMore(MoreLine(gaps.more, "queue", "queues", D(gaps.more_value) + " idle"));
}

std::string Gaps(uint64_t gaps, DurationNs ns) {
  return fmt::format("{} ({})", D(ns), gaps);
}

// Idle time between packets like HTA.
std::string IdleSplitMarkdown(const ReportData& d) {
  std::string out = fmt::format(
      "### Idle time between packets\n\nWhole gaps by the next packet's launch call (as HTA): "
      "host wait = launched after the previous packet ended; kernel wait = launched before, gap "
      "under {}; other = the rest; unlinked = no launch call in the trace. Time (gaps).\n\n",
      D(kKernelWaitMaxNs));
  if (!d.launches.any()) return out + d.NoLaunchCallsGapSentence() + "\n\n";
  Rows rows;
  const Bounded<QueueIdleSplit> splits = SplitRows(d);
  for (const QueueIdleSplit* s : splits.shown) {
    std::vector<std::string> row = {d.QueueName(s->queue)};
    for (size_t c = 0; c < kIdleClasses; ++c) row.push_back(Gaps(s->gaps[c], s->ns[c]));
    std::string why;
    for (size_t r = 0; r < kOtherReasons; ++r) {
      if (s->other_ns[r] == 0) continue;
      why += (why.empty() ? "" : "; ") + std::string(OtherReasonName(static_cast<OtherReason>(r))) +
             " " + D(s->other_ns[r]);
    }
    row.push_back(why);
    row.push_back(D(s->outside_ns));
    rows.push_back(std::move(row));
  }
  return out +
         MarkdownTable({"queue", "host wait", "kernel wait", "other", "unlinked", "other: why",
                        "before first / after last"},
                       rows) +
         MarkdownMore(MoreLine(splits.more, "queue", "queues", D(splits.more_value) + " idle"));
}

std::string PacketStatsMarkdown(const ReportData& d) {
  std::string out = "## Packets by name\n\n";
  if (d.packet_stats.empty()) return out + "No completed packets.\n\n";
  Rows rows;
  const Bounded<PacketNameStats> stats = PacketRows(d);
  for (const PacketNameStats* r : stats.shown) {
    rows.push_back({ShortenName(PacketLabel(*d.store, r->name)), d.QueueName(r->queue),
                    std::to_string(r->count), D(static_cast<double>(r->total_ns)), D(r->mean_ns),
                    D(static_cast<double>(r->p50_ns)), D(static_cast<double>(r->p99_ns)),
                    D(static_cast<double>(r->max_ns))});
  }
  return out +
         fmt::format(
             "Run time of completed packets per name and queue (a preempted packet "
             "counts the time it ran); the {} of {} with the most total time.\n\n",
             rows.size(), d.packet_stats.size()) +
         MarkdownTable({"name", "queue", "count", "total", "mean", "p50", "p99", "max"}, rows) +
         MarkdownMore(MoreLine(stats.more, "packet group", "packet groups", D(stats.more_value)));
}

// The wait latency tables: all waits, then per fence and per queue pair (the groups whose waits
// took the most time).
std::string LatencyMarkdown(const ReportData& d) {
  std::string out = "## Wait latency\n\n";
  if (d.latency.gpu.total.count == 0 && d.latency.cpu.total.count == 0) {
    return out + "No GPU or CPU wait was released in the trace: no latency to show.\n\n";
  }
  out += std::string(kToUnblockExplained) + "\n\n";
  const std::vector<std::string> header = {"kind",
                                           "group",
                                           "n",
                                           std::string(kToSignal) + " p50",
                                           "p90",
                                           "p99",
                                           std::string(kToUnblock) + " p50",
                                           "p90",
                                           "p99",
                                           std::string(kBeforeReached) + " p50",
                                           "p90",
                                           std::string(kAfterReached) + " p50",
                                           "p90"};
  Rows rows;
  auto add = [&](const std::string& kind, const std::string& group, const LatencyGroup& g) {
    rows.push_back({kind, group, std::to_string(g.to_signal.count), D(g.to_signal.p50),
                    D(g.to_signal.p90), D(g.to_signal.p99), D(g.to_unblock.p50),
                    D(g.to_unblock.p90), D(g.to_unblock.p99), D(g.before_reached.p50),
                    D(g.before_reached.p90), D(g.after_reached.p50), D(g.after_reached.p90)});
  };
  add("GPU", "all", d.latency.gpu);
  add("CPU", "all", d.latency.cpu);
  out += MarkdownTable(header, rows);
  for (bool pair : {false, true}) {
    rows.clear();
    const Bounded<LatencyGroup> groups =
        LatencyRows(pair ? d.latency.per_queue_pair : d.latency.per_fence);
    for (const LatencyGroup* g : groups.shown) {
      add(g->cpu ? "CPU" : "GPU", pair ? d.PairName(*g) : d.FenceName(g->fence), *g);
    }
    out += fmt::format(
               "### Per {}\n\nThe {} whose waits took the most time (queued -> "
               "unblocked, all waits added up).\n\n",
               pair ? "queue pair" : "fence", pair ? "queue pairs" : "fences") +
           MarkdownTable(header, rows) +
           MarkdownMore(MoreLine(groups.more, pair ? "pair" : "fence", pair ? "pairs" : "fences",
                                 D(groups.more_value) + " waited"));
  }
  return out;
}

std::string LongestWaitsMarkdown(const ReportData& d) {
  Rows rows;
  for (const HeldWait& w : d.longest_waits) {
    const bool signal = w.signal != kNoIndex;
    const SignalBox sig = signal ? d.recon.signals[w.signal] : SignalBox{};
    rows.push_back({d.TrackName(w.queue, w.thread), D(static_cast<double>(w.Held())),
                    fmt::format("{} >= {}", d.FenceName(w.fence), w.value),
                    signal ? d.SignallerName(sig.queue, sig.cpu) : "none",
                    w.packet != kNoIndex
                        ? ShortenName(PacketLabel(*d.store, d.recon.packets[w.packet].name))
                        : "",
                    !signal           ? ""
                    : w.link_inferred ? "inferred"
                                      : "from the trace"});
  }
  if (rows.empty()) return "";
  return Heading("##", kMdWaitsHeading) +
         MarkdownTable({"waiting", "held", "fence", "released by", "packet", "link"}, rows);
}

// Launch delays and queue lengths (launch figures).
std::string LaunchMarkdown(const ReportData& d) {
  std::string out =
      "## Launch delay and queue length\n\n### Launch delay\n\nPacket start minus "
      "the end of its launch call.\n\n";
  if (!d.launches.any()) {
    out += "No packet has a launch call in this trace.\n\n";
  } else {
    Rows rows;
    const Bounded<QueueLaunchDelay> queues = LaunchDelayRows(d);
    for (const QueueLaunchDelay* q : queues.shown) {
      rows.push_back({d.QueueName(q->queue), std::to_string(q->delay.count), D(q->delay.p50),
                      D(q->delay.p90), D(q->delay.p99), D(q->delay.max),
                      std::to_string(q->negative), std::to_string(q->without_launch)});
    }
    out +=
        MarkdownTable({"queue", "n", "p50", "p90", "p99", "max", "negative", "without launch call"},
                      rows) +
        MarkdownMore(MoreLine(queues.more, "queue", "queues", D(queues.more_value) + " of delay"));
    rows.clear();
    const OutlierRows longest = LongestLaunchDelays(d);
    for (const QueueOutlier& o : longest.shown) {
      rows.push_back({d.QueueName(o.queue),
                      o.outlier->name ? ShortenName(d.store->String(o.outlier->name)) : "",
                      fmt::format("{} ns", o.outlier->start - d.recon.start_ns),
                      D(o.outlier->delay)});
    }
    if (!rows.empty()) {
      out += "Longest launch delays:\n\n" +
             MarkdownTable({"queue", "packet", "start", "delay"}, rows) +
             MarkdownMore(
                 MoreLine(longest.more, "launch delay", "launch delays", D(longest.more_value)));
    }
  }
  Rows rows;
  const Bounded<QueueLength> lengths = QueueLengthRows(d);
  for (const QueueLength* q : lengths.shown) {
    rows.push_back({d.QueueName(q->queue), std::to_string(q->max), fmt::format("{:.3f}", q->mean),
                    std::to_string(q->packets_counted), std::to_string(q->packets_left_out)});
  }
  out += fmt::format("### Queue length\n\nPackets {} and not yet started.\n\n",
                     d.queue_lengths.from_launch_calls ? "launched" : "submitted");
  return out +
         MarkdownTable({"queue", "max", "time-weighted mean", "packets counted", "left out"},
                       rows) +
         MarkdownMore(MoreLine(lengths.more, "queue", "queues"));
}

// The critical path's share per track and its latest steps, latest first.
std::string PathMarkdown(const ReportData& d) {
  std::string out =
      Heading("##", kMdPathHeading) + fmt::format("{} long, {} steps.\n\n",
                                                  D(static_cast<double>(d.critical_path.Length())),
                                                  d.critical_path.steps.size());
  Rows rows;
  const Bounded<PathShare> shares = PathShareRows(d);
  for (const PathShare* s : shares.shown) {
    rows.push_back(
        {d.TrackName(s->queue, s->thread), Percent(s->share), D(s->ns), D(s->running_ns)});
  }
  out += MarkdownTable({"track", "share", "time", "of it running"}, rows) +
         MarkdownMore(MoreLine(shares.more, "track", "tracks", D(shares.more_value)));
  rows.clear();
  const Bounded<PathStep> steps = PathStepRows(d);
  for (const PathStep* s : steps.shown) {
    const uint32_t packet = s->NamedPacket();
    rows.push_back({PathStepKindName(s->kind), d.TrackName(s->queue, s->thread),
                    fmt::format("{} ns", s->start - d.recon.start_ns),
                    D(static_cast<double>(s->end - s->start)),
                    packet != kNoIndex
                        ? ShortenName(PacketLabel(*d.store, d.recon.packets[packet].name))
                        : ""});
  }
  if (rows.empty()) return out;
  return out + "### Last steps (latest first)\n\n" +
         MarkdownTable({"step", "track", "from", "length", "packet"}, rows) +
         MarkdownMore(MoreLine(steps.more, "earlier step", "earlier steps", D(steps.more_value)));
}

}  // namespace

std::string MarkdownMore(const std::string& line) {
  return line.empty() ? std::string() : "_" + line + "._\n\n";
}

std::string MarkdownAnchor(const std::string& heading) {
  std::string out;
  for (unsigned char c : heading) {
    if (std::isalnum(c)) {
      out += static_cast<char>(std::tolower(c));
    } else if (c == ' ' || c == '-' || c == '_') {
      out += c == ' ' ? '-' : static_cast<char>(c);
    }
  }
  return out;
}

std::string GpuMarkdown(const ReportData& d) {
  return QueuesMarkdown(d) + GapsMarkdown(d) + IdleSplitMarkdown(d) + PacketStatsMarkdown(d) +
         LatencyMarkdown(d) + LongestWaitsMarkdown(d) + LaunchMarkdown(d) + PathMarkdown(d);
}

}  // namespace core::report
