#include "core/report/report_markdown.h"

#include <fmt/format.h>

#include "core/report/exported_by.h"
#include "core/report/figure_labels.h"
#include "core/report/findings.h"
#include "core/report/import_problems_report.h"
#include "core/report/lead.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown_gpu.h"
#include "core/report/report_opportunities.h"
#include "core/report/report_rows.h"
#include "core/report/report_sections.h"
#include "core/report/svg_chart.h"
#include "core/report/table_bounds.h"

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

std::string PgoMarkdown(const ReportData& d) {
  std::string out = "## PGO convergence\n\n";
  std::vector<std::vector<std::string>> rows;
  const Bounded<PgoPass> passes = PgoPassRows(d);
  for (size_t i = 0; i < passes.shown.size(); ++i) {
    const PgoPass& p = *passes.shown[i];
    rows.push_back({std::to_string(i), ModeInForceText(p),
                    std::string(FurtherMeasurementsDesiredName(p)), std::to_string(p.tasks_queued),
                    std::to_string(p.packets), D(p.mean_packet_ns)});
  }
  out += rows.empty() ? "No PGO passes (no mode_changed records and no background tasks).\n\n"
                      : Table({"pass", "mode in force", "further measurements desired", "tasks queued",
                               "packets", "mean packet time"},
                              rows) +
                            MarkdownMore(MoreLine(passes.more, "pass", "passes"));
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

std::string ImportProblemsMarkdown(const ReportData& d) {
  const ImportNoteRows notes = ImportProblemRows(d);
  if (notes.rows.empty()) {
    return "## Import notes\n\nThe importer used every record of the capture.\n\n";
  }
  return "## Import notes\n\n" + std::string(kImportNotesExplained) + "\n\n" +
         Table({"counter", "severity", "count", "first at", "meaning"}, notes.rows) +
         MarkdownMore(notes.more);
}

// What held the GPU back (lead.h), each line linking to the section with its figures.
std::string LeadMarkdown(const ReportData& d) {
  const std::vector<LeadLine> lines = LeadLines(d, ComputeLead(d));
  if (lines.empty()) return "";
  static const std::pair<const char*, const char*> kTo[] = {
      {"timeline", kMdQueuesHeading},
      {"gaps", kMdGapsHeading},
      {"longest-waits", kMdWaitsHeading},
      {"critical-path", kMdPathHeading},
      {"opportunities", kMdOpportunitiesHeading}};
  std::string out = "## What held the GPU back\n\n";
  for (const LeadLine& line : lines) {
    std::string heading = kMdQueuesHeading;
    for (auto [id, to] : kTo) {
      if (line.section == id) heading = to;
    }
    out += fmt::format("- {} ([{}](#{}))\n", line.text, heading, MarkdownAnchor(heading));
  }
  return out + "\n";
}

}  // namespace

std::string ReportMarkdown(const ReportData& d) {
  std::string out = fmt::format("# fencescope report: {}\n\n", d.store->path.filename().string());
  Json stats = StatsJson(d);
  const Json& fences = *stats.Find("fences");
  // Sections for record families the trace has none of are left out (report_sections.h).
  const ReportSections sections = SectionsOf(d);
  const bool gpu = HasGpuWork(d);
  // The answer first, then the figures, in the HTML report's order.
  if (gpu) out += LeadMarkdown(d);
  out += OpportunitiesMarkdown(d);
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
  if (auto by = ExportedBy(*d.store); !by.empty()) {
    summary.insert(summary.begin() + 1, {"exported by", by});
  }
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

  if (gpu) {
    out += GpuMarkdown(d);
  } else {
    out += NoGpuWorkSentence(d) + "\n\n";
  }

  if (sections.background) out += PgoMarkdown(d);
  // seed 004: preemption latency per granularity in force at the request.
  if (sections.preemption) out += PreemptionMarkdown(d);

  out += "## Findings\n\n";
  std::vector<std::vector<std::string>> rows;
  const std::vector<Finding> findings = CollectFindings(d);
  const Bounded<Finding> shown = FindingRows(findings);
  for (const Finding* f : shown.shown) {
    rows.push_back({f->kind, fmt::format("{} ns", f->ts - d.recon.start_ns), f->message});
  }
  out += rows.empty() ? "None.\n\n"
                      : Table({"kind", "at", "what"}, rows) +
                            MarkdownMore(MoreLine(shown.more, "finding", "findings"));
  out += ImportProblemsMarkdown(d);
  return out;
}

}  // namespace core::report
