#include "core/report/report_markdown.h"

#include <fmt/format.h>

#include "core/report/findings.h"
#include "core/report/report_json.h"
#include "core/report/svg_chart.h"

namespace core::report {
namespace {

using namespace core::analysis;  // NOLINT

std::string Cell(std::string text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else out.push_back(c);
  }
  return out;
}

std::string Table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows) {
  std::string out = "|";
  for (const auto& h : header) out += " " + Cell(h) + " |";
  out += "\n|";
  for (size_t i = 0; i < header.size(); ++i) out += " --- |";
  out += "\n";
  for (const auto& row : rows) {
    out += "|";
    for (const auto& c : row) out += " " + Cell(c) + " |";
    out += "\n";
  }
  return out + "\n";
}

std::string D(double ns) { return FormatDuration(ns); }

}  // namespace

std::string ReportMarkdown(const ReportData& d) {
  std::string out = fmt::format("# fencescope report: {}\n\n", d.store->path.filename().string());
  Json stats = StatsJson(d);
  const Json& fences = *stats.Find("fences");
  out += "## Summary\n\n";
  out += Table({"figure", "value"},
               {{"source", d.store->MetaOr("source", "")},
                {"duration", D(static_cast<double>(d.recon.end_ns - d.recon.start_ns))},
                {"events", std::to_string(d.store->events.size())},
                {"packets", std::to_string(d.recon.packets.size())},
                {"GPU signals executed", std::to_string(fences.Find("signals_executed")->Int())},
                {"interrupts", std::to_string(d.interrupts.total)},
                {"spurious interrupts", fmt::format("{} ({:.1f}%)", d.interrupts.spurious,
                                                    100 * d.interrupts.spurious_ratio)},
                {"interrupts per GPU signal", fmt::format("{:.3f}", d.interrupts.per_signal)},
                {"waits never unblocked", std::to_string(d.waits.never_unblocked.size())},
                {"waits stuck after a rewind", std::to_string(d.waits.stuck_after_rewind.size())},
                {"waits pending at the end (released if the trace went on)",
                 std::to_string(d.waits.pending_at_end.size())},
                {"waits whose signal is not in the capture",
                 std::to_string(d.waits.signal_not_in_capture.size())},
                {"wait cycles", std::to_string(d.waits.cycles.size())},
                {"log overruns", std::to_string(d.overruns.overruns)},
                {"resource hazards", std::to_string(d.hazards.hazards)},
                {"fence rewinds", std::to_string(d.rewinds.size())},
                {"critical path", D(static_cast<double>(d.critical_path.Length()))}});

  out += "## Queues\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const QueueTime& t : d.queue_time.queues) {
    rows.push_back({d.QueueName(t.queue), std::to_string(t.packets), D(t.busy_ns), D(t.waiting_ns),
                    D(t.idle_ns)});
  }
  out += Table({"queue", "packets", "busy", "waiting", "idle"}, rows);
  rows.clear();
  for (const QueuePairWait& p : d.queue_time.pairs) {
    rows.push_back({d.QueueName(p.waiting), d.SignallerName(p.signalling, p.cpu_signal),
                    D(p.waiting_ns), std::to_string(p.waits)});
  }
  out += "### Queue pairs\n\n" + Table({"waiting queue", "signalled by", "held", "waits"}, rows);
  rows.clear();
  for (const QueueGaps& g : d.gaps.per_queue) {
    rows.push_back({d.QueueName(g.queue), D(g.by_cause[0]), D(g.by_cause[1]), D(g.by_cause[2]),
                    D(g.by_cause[3])});
  }
  out += "### Idle-gap attribution\n\n" +
         Table({"queue", "waiting on fence", "preempted", "nothing submitted",
                "submitted, not running"},
               rows);

  out += "## Wait latency\n\n";
  rows.clear();
  auto add = [&](const std::string& kind, const std::string& group, const LatencyGroup& g) {
    rows.push_back({kind, group, std::to_string(g.to_signal.count), D(g.to_signal.p50),
                    D(g.to_signal.p90), D(g.to_signal.p99), D(g.to_unblock.p50),
                    D(g.to_unblock.p90), D(g.to_unblock.p99)});
  };
  add("GPU", "all", d.latency.gpu);
  add("CPU", "all", d.latency.cpu);
  for (const auto& g : d.latency.per_fence) add(g.cpu ? "CPU" : "GPU", d.FenceName(g.fence), g);
  for (const auto& g : d.latency.per_queue_pair) {
    add(g.cpu ? "CPU" : "GPU",
        d.PairName(g),
        g);
  }
  out += Table({"kind", "group", "n", "to signal p50", "p90", "p99", "to unblock p50", "p90", "p99"},
               rows);

  out += "## Critical path\n\n";
  out += fmt::format("{} long, {} steps.\n\n", D(static_cast<double>(d.critical_path.Length())),
                     d.critical_path.steps.size());
  rows.clear();
  for (const PathShare& s : d.critical_path.shares) {
    rows.push_back({d.TrackName(s.queue, s.thread),
                    fmt::format("{:.1f}%", 100 * s.share), D(s.ns)});
  }
  out += Table({"track", "share", "time"}, rows);

  out += "## PGO convergence\n\n";
  rows.clear();
  for (size_t i = 0; i < d.pgo.passes.size(); ++i) {
    const PgoPass& p = d.pgo.passes[i];
    rows.push_back({std::to_string(i), std::string(BackgroundModeName(p.mode)),
                    p.further_measurements_desired ? "yes" : "no", std::to_string(p.tasks_queued),
                    std::to_string(p.packets), D(p.mean_packet_ns)});
  }
  out += rows.empty() ? "No PGO passes (no mode_changed records and no background tasks).\n\n"
                      : Table({"pass", "mode", "further measurements desired", "tasks queued",
                               "packets", "mean packet time"},
                              rows);

  // seed 004: preemption latency per granularity in force at the request.
  out += "## Preemption\n\n";
  rows.clear();
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

  out += "## Findings\n\n";
  rows.clear();
  std::vector<Finding> findings = CollectFindings(d);
  for (size_t i = 0; i < findings.size() && i < kMaxListedFindings; ++i) {
    rows.push_back({findings[i].kind, fmt::format("{} ns", findings[i].ts - d.recon.start_ns),
                    findings[i].message});
  }
  out += rows.empty() ? "None.\n" : Table({"kind", "at", "what"}, rows);
  return out;
}

}  // namespace core::report
