#include "core/report/report_markdown.h"

#include <fmt/format.h>

#include "core/report/figure_labels.h"
#include "core/report/findings.h"
#include "core/report/import_problems_report.h"
#include "core/report/report_json.h"
#include "core/report/report_sections.h"
#include "core/report/svg_chart.h"

namespace core::report {

namespace {
std::string Cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out.push_back(' ');  // a line break would end the table row
    else out.push_back(c);
  }
  return out;
}
}  // namespace

std::string MarkdownTable(const std::vector<std::string>& header,
                          const std::vector<std::vector<std::string>>& rows) {
  // Appended piece by piece: GCC 12 takes `" " + Cell(h) + " |"` for an overlapping copy
  // (a -Wrestrict false positive).
  std::string out = "|";
  auto add_cell = [&out](const std::string& text) {
    out += ' ';
    out += Cell(text);
    out += " |";
  };
  for (const auto& h : header) add_cell(h);
  out += "\n|";
  for (size_t i = 0; i < header.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (const auto& c : row) add_cell(c);
    out += "\n";
  }
  return out + "\n";
}

namespace {

using namespace core::analysis;  // NOLINT

std::string Table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows) {
  return MarkdownTable(header, rows);
}

std::string D(double ns) { return FormatDuration(ns); }

std::string PacketStatsTable(const ReportData& d) {
  const auto& stats = d.packet_stats;
  if (stats.empty()) return "No completed packets.\n\n";
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < stats.size() && i < kMarkdownPacketRows; ++i) {
    const PacketNameStats& r = stats[i];
    rows.push_back({ShortenName(PacketLabel(*d.store, r.name)), d.QueueName(r.queue),
                    std::to_string(r.count),
                    D(static_cast<double>(r.total_ns)), D(r.mean_ns),
                    D(static_cast<double>(r.p50_ns)), D(static_cast<double>(r.p99_ns)),
                    D(static_cast<double>(r.max_ns))});
  }
  return fmt::format("Run time of completed packets per name and queue (a preempted packet counts "
                     "the time it ran); the {} of {} with the most total time.\n\n",
                     rows.size(), stats.size()) +
         Table({"name", "queue", "count", "total", "mean", "p50", "p99", "max"}, rows);
}

// The latest steps of the critical path, latest first, with the packet each step is about.
std::string PathStepsTable(const ReportData& d) {
  constexpr size_t kShown = 20;
  const auto& steps = d.critical_path.steps;
  std::vector<std::vector<std::string>> rows;
  for (auto it = steps.rbegin(); it != steps.rend() && rows.size() < kShown; ++it) {
    const uint32_t packet = it->NamedPacket();
    rows.push_back({PathStepKindName(it->kind), d.TrackName(it->queue, it->thread),
                    fmt::format("{} ns", it->start - d.recon.start_ns),
                    D(static_cast<double>(it->end - it->start)),
                    packet != kNoIndex
                        ? ShortenName(PacketLabel(*d.store, d.recon.packets[packet].name))
                        : ""});
  }
  if (rows.empty()) return "";
  return "### Last steps (latest first)\n\n" +
         Table({"step", "track", "from", "length", "packet"}, rows);
}

std::string LongestWaitsMarkdown(const ReportData& d) {
  std::vector<std::vector<std::string>> rows;
  for (const HeldWait& w : d.longest_waits) {
    const bool signal = w.signal != kNoIndex;
    const SignalBox sig = signal ? d.recon.signals[w.signal] : SignalBox{};
    rows.push_back(
        {d.TrackName(w.queue, w.thread), D(static_cast<double>(w.Held())),
         fmt::format("{} >= {}", d.FenceName(w.fence), w.value),
         signal ? d.SignallerName(sig.queue, sig.cpu) : "none",
         w.packet != kNoIndex ? ShortenName(PacketLabel(*d.store, d.recon.packets[w.packet].name))
                              : "",
         !signal ? "" : w.link_inferred ? "inferred" : "from the trace"});
  }
  if (rows.empty()) return "";
  return "## Longest waits and what released them\n\n" +
         Table({"waiting", "held", "fence", "released by", "packet", "link"}, rows);
}

std::string PgoMarkdown(const ReportData& d) {
  std::string out = "## PGO convergence\n\n";
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < d.pgo.passes.size(); ++i) {
    const PgoPass& p = d.pgo.passes[i];
    rows.push_back({std::to_string(i), ModeInForceText(p),
                    std::string(FurtherMeasurementsDesiredName(p)), std::to_string(p.tasks_queued),
                    std::to_string(p.packets), D(p.mean_packet_ns)});
  }
  out += rows.empty() ? "No PGO passes (no mode_changed records and no background tasks).\n\n"
                      : Table({"pass", "mode in force", "further measurements desired", "tasks queued",
                               "packets", "mean packet time"},
                              rows);
  return out;
}

std::string PreemptionMarkdown(const ReportData& d) {
  std::string out = "## Preemption\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const GranularityLatency& g : d.preemption.per_granularity) {
    rows.push_back({std::string(PreemptionGranularityName(g.granularity)),
                    std::to_string(g.requests), std::to_string(g.latency.count),
                    D(static_cast<double>(g.latency.p50)), D(static_cast<double>(g.latency.p99)),
                    D(static_cast<double>(g.latency.max))});
  }
  out += rows.empty() ? "No preemption requests.\n\n"
                      : Table({"granularity", "requests", "completed", "latency p50", "p99", "max"},
                              rows);
  out += fmt::format("{} packets preempted mid-packet, {} TDRs.\n\n",
                     d.preemption.packets_preempted, d.preemption.tdrs);
  return out;
}

std::string Gaps(uint64_t gaps, DurationNs ns) { return fmt::format("{} ({})", D(ns), gaps); }

// Idle time between packets like HTA, launch delays and queue lengths (launch figures).
std::string LaunchMarkdown(const ReportData& d) {
  std::vector<std::vector<std::string>> rows;
  for (const QueueIdleSplit& s : d.gaps.split) {
    if (d.IsQuietQueue(s.queue)) continue;
    std::vector<std::string> row = {d.QueueName(s.queue)};
    for (size_t c = 0; c < kIdleClasses; ++c) row.push_back(Gaps(s.gaps[c], s.ns[c]));
    std::string why;
    for (size_t r = 0; r < kOtherReasons; ++r) {
      if (s.other_ns[r] == 0) continue;
      why += (why.empty() ? "" : "; ") +
             std::string(OtherReasonName(static_cast<OtherReason>(r))) + " " + D(s.other_ns[r]);
    }
    row.push_back(why);
    row.push_back(D(s.outside_ns));
    rows.push_back(std::move(row));
  }
  std::string out = fmt::format(
      "### Idle time between packets\n\nWhole gaps by the next packet's launch call (as HTA): "
      "host wait = launched after the previous packet ended; kernel wait = launched before, gap "
      "under {}; other = the rest; unlinked = no launch call in the trace. Time (gaps).\n\n",
      D(kKernelWaitMaxNs));
  out += d.launches.any() ? Table({"queue", "host wait", "kernel wait", "other", "unlinked",
                                   "other: why", "before first / after last"},
                                  rows)
                          : d.NoLaunchCallsGapSentence() + "\n\n";
  rows.clear();
  for (const QueueLaunchDelay& q : d.launch_delays.per_queue) {
    if (q.delay.count == 0 && q.without_launch == 0) continue;
    rows.push_back({d.QueueName(q.queue), std::to_string(q.delay.count), D(q.delay.p50),
                    D(q.delay.p90), D(q.delay.p99), D(q.delay.max), std::to_string(q.negative),
                    std::to_string(q.without_launch)});
  }
  out += "### Launch delay\n\nPacket start minus the end of its launch call.\n\n";
  out += d.launches.any() ? Table({"queue", "n", "p50", "p90", "p99", "max", "negative",
                                   "without launch call"},
                                  rows)
                          : std::string("No packet has a launch call in this trace.\n\n");
  rows.clear();
  for (const QueueLaunchDelay& q : d.launch_delays.per_queue) {
    for (const LaunchDelayOutlier& o : q.outliers) {
      rows.push_back({d.QueueName(q.queue),
                      o.name ? ShortenName(d.store->String(o.name)) : std::string(),
                      fmt::format("{} ns", o.start - d.recon.start_ns), D(o.delay)});
    }
  }
  if (!rows.empty()) {
    out += "Longest launch delays:\n\n" + Table({"queue", "packet", "start", "delay"}, rows);
  }
  rows.clear();
  for (const QueueLength& q : d.queue_lengths.per_queue) {
    if (q.packets_counted == 0 && q.packets_left_out == 0) continue;
    rows.push_back({d.QueueName(q.queue), std::to_string(q.max), fmt::format("{:.3f}", q.mean),
                    std::to_string(q.packets_counted), std::to_string(q.packets_left_out)});
  }
  out += fmt::format("### Queue length\n\nPackets {} and not yet started.\n\n",
                     d.queue_lengths.from_launch_calls ? "launched" : "submitted");
  out += Table({"queue", "max", "time-weighted mean", "packets counted", "left out"}, rows);
  return out;
}

// The wait latency tables: all waits, per fence, per queue pair.
std::string LatencyMarkdown(const ReportData& d) {
  std::string out;
  std::vector<std::vector<std::string>> rows;
  out += std::string(kToUnblockExplained) + "\n\n";
  auto add = [&](const std::string& kind, const std::string& group, const LatencyGroup& g) {
    rows.push_back({kind, group, std::to_string(g.to_signal.count), D(g.to_signal.p50),
                    D(g.to_signal.p90), D(g.to_signal.p99), D(g.to_unblock.p50),
                    D(g.to_unblock.p90), D(g.to_unblock.p99), D(g.before_reached.p50),
                    D(g.before_reached.p90), D(g.after_reached.p50), D(g.after_reached.p90)});
  };
  add("GPU", "all", d.latency.gpu);
  add("CPU", "all", d.latency.cpu);
  for (const auto& g : d.latency.per_fence) add(g.cpu ? "CPU" : "GPU", d.FenceName(g.fence), g);
  for (const auto& g : d.latency.per_queue_pair) add(g.cpu ? "CPU" : "GPU", d.PairName(g), g);
  out += Table({"kind", "group", "n", std::string(kToSignal) + " p50", "p90", "p99",
                std::string(kToUnblock) + " p50", "p90", "p99",
                std::string(kBeforeReached) + " p50", "p90", std::string(kAfterReached) + " p50",
                "p90"},
               rows);
  return out;
}

std::string ImportProblemsMarkdown(const ReportData& d) {
  const auto rows = ImportProblemRows(d);
  if (rows.empty()) return "## Import notes\n\nThe importer used every record of the capture.\n\n";
  return "## Import notes\n\n" + std::string(kImportNotesExplained) + "\n\n" +
         Table({"counter", "severity", "count", "first at", "meaning"}, rows);
}

// The queue, packet, latency, longest-wait and critical-path sections.
std::string GpuMarkdown(const ReportData& d) {
  std::string out;
  out += "## Queues\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const QueueTime& t : d.queue_time.queues) {
    if (d.IsQuietQueue(t.queue)) continue;
    rows.push_back({d.QueueName(t.queue), std::to_string(t.counts.submitted),
                    std::to_string(t.counts.started), std::to_string(t.counts.completed),
                    std::to_string(t.counts.running_at_end), D(t.busy_ns), D(t.waiting_ns),
                    D(t.idle_ns)});
  }
  out += Table({"queue", kPacketsSubmitted, kPacketsStarted, kPacketsCompleted,
                kPacketsRunningAtEnd, "busy", "waiting", "idle"},
               rows);
  if (std::string quiet = d.QuietQueuesSentence(); !quiet.empty()) out += quiet + "\n\n";
  rows.clear();
  for (const QueuePairWait& p : d.queue_time.pairs) {
    rows.push_back({d.QueueName(p.waiting), d.SignallerName(p.signalling, p.cpu_signal),
                    D(p.waiting_ns), std::to_string(p.waits)});
  }
  out += "### Queue pairs\n\n";
  if (rows.empty()) {
    out += d.NoQueuePairsSentence() + "\n\n";
  } else {
    out += Table({"waiting queue", "signalled by", "held", "waits"}, rows);
    if (std::string unplaced = d.UnplacedWaitsSentence(); !unplaced.empty()) {
      out += unplaced + "\n\n";
    }
  }
  rows.clear();
  for (const QueueGaps& g : d.gaps.per_queue) {
    if (d.IsQuietQueue(g.queue)) continue;
    std::vector<std::string> row = {d.QueueName(g.queue)};
    for (DurationNs ns : g.by_cause) row.push_back(D(ns));
    std::string syncs;
    for (const SyncGapTotal& sync : g.per_sync) {
      syncs += (syncs.empty() ? "" : "; ") + d.SyncName(sync) + ": " + D(sync.ns);
    }
    row.push_back(syncs);
    rows.push_back(std::move(row));
  }
  out += "### Idle-gap attribution\n\n" +
         Table({"queue", "waiting on fence", "preempted", "nothing submitted",
                "submitted, not running", "launch-bound", "synchronised", "host syncs"},
               rows);
  out += LaunchMarkdown(d);

  out += "## Packets by name\n\n" + PacketStatsTable(d);

  out += "## Wait latency\n\n";
  if (d.latency.gpu.total.count == 0 && d.latency.cpu.total.count == 0) {
    out += "No GPU or CPU wait was released in the trace: no latency to show.\n\n";
  } else {
    out += LatencyMarkdown(d);
  }

  out += LongestWaitsMarkdown(d);
  out += "## Critical path\n\n";
  out += fmt::format("{} long, {} steps.\n\n", D(static_cast<double>(d.critical_path.Length())),
                     d.critical_path.steps.size());
  rows.clear();
  for (const PathShare& s : d.critical_path.shares) {
    rows.push_back({d.TrackName(s.queue, s.thread),
                    fmt::format("{:.1f}%", 100 * s.share), D(s.ns)});
  }
  out += Table({"track", "share", "time"}, rows);
  out += PathStepsTable(d);
  return out;
}

}  // namespace

std::string ReportMarkdown(const ReportData& d) {
  std::string out = fmt::format("# fencescope report: {}\n\n", d.store->path.filename().string());
  Json stats = StatsJson(d);
  const Json& fences = *stats.Find("fences");
  // Sections for record families the trace has none of are left out (report_sections.h).
  const ReportSections sections = SectionsOf(d);
  out += "## Summary\n\n";
  const PacketCounts packets = TotalPacketCounts(d.queue_time);
  std::vector<std::vector<std::string>> summary = {
      {"source", d.store->MetaOr("source", "")},
      {"duration", D(static_cast<double>(d.recon.end_ns - d.recon.start_ns))},
      {"events", std::to_string(d.store->events.size())},
      {fmt::format("{} / {} / {} / {}", kPacketsSubmitted, kPacketsStarted, kPacketsCompleted,
                   kPacketsRunningAtEnd),
       fmt::format("{} / {} / {} / {}", packets.submitted, packets.started, packets.completed,
                   packets.running_at_end)},
      {"GPU signals executed", std::to_string(fences.Find("signals_executed")->Int())}};
  // An importer's note on what the capture lacks (ftrace: CPUs that started recording late).
  if (auto note = d.store->MetaOr("capture_note", ""); !note.empty()) {
    summary.insert(summary.begin() + 1, {"capture", note});
  }
  if (sections.interrupts) {
    summary.push_back({"interrupts", std::to_string(d.interrupts.total)});
    summary.push_back({"spurious interrupts", fmt::format("{} ({:.1f}%)", d.interrupts.spurious,
                                                          100 * d.interrupts.spurious_ratio)});
    summary.push_back(
        {"interrupts per GPU signal", fmt::format("{:.3f}", d.interrupts.per_signal)});
  }
  summary.push_back({"waits stuck (the CI gate: fences.waits_stuck)",
                     std::to_string(d.waits.Stuck())});
  summary.push_back({"waits never unblocked", std::to_string(d.waits.never_unblocked.size())});
  summary.push_back(
      {"waits stuck after a rewind", std::to_string(d.waits.stuck_after_rewind.size())});
  summary.push_back({"waits pending at the end (released if the trace went on)",
                     std::to_string(d.waits.pending_at_end.size())});
  summary.push_back({"waits whose signal is not in the capture",
                     std::to_string(d.waits.signal_not_in_capture.size())});
  summary.push_back({"wait cycles", std::to_string(d.waits.cycles.size())});
  if (sections.log_buffers) {
    summary.push_back({"log overruns", std::to_string(d.overruns.overruns)});
  }
  summary.push_back({"resource hazards", std::to_string(d.hazards.hazards)});
  summary.push_back({"fence rewinds", std::to_string(d.rewinds.size())});
  summary.push_back({"critical path", D(static_cast<double>(d.critical_path.Length()))});
  out += Table({"figure", "value"}, summary);

  if (HasGpuWork(d)) {
    out += GpuMarkdown(d);
  } else {
    out += NoGpuWorkSentence(d) + "\n\n";
  }

  if (sections.background) out += PgoMarkdown(d);
  // seed 004: preemption latency per granularity in force at the request.
  if (sections.preemption) out += PreemptionMarkdown(d);

  out += ImportProblemsMarkdown(d);
  out += "## Findings\n\n";
  std::vector<std::vector<std::string>> rows;
  std::vector<Finding> findings = CollectFindings(d);
  for (size_t i = 0; i < findings.size() && i < kMaxListedFindings; ++i) {
    rows.push_back({findings[i].kind, fmt::format("{} ns", findings[i].ts - d.recon.start_ns),
                    findings[i].message});
  }
  out += rows.empty() ? "None.\n" : Table({"kind", "at", "what"}, rows);
  return out;
}

}  // namespace core::report
