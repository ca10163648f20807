#include "core/report/report_opportunities.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/replay/whatif.h"
#include "core/report/html_parts.h"
#include "core/report/report_markdown.h"
#include "core/report/svg_chart.h"

namespace core::report {

namespace {

constexpr const char* kIntro =
    "Each change below was tried by replaying the trace's program through the simulator with "
    "it made (fencescope whatif, with the options shown); the gain is against the unedited "
    "replay. A kernel that is busy but off the critical path saves about nothing; one on it "
    "saves what it loses until another path takes over. Each packet keeps the run time it was "
    "measured at.";

std::string What(const replay::Opportunity& o) {
  if (o.kind == "faster_packets") return "twice as fast: " + o.name;
  if (o.kind == "faster_host") return "the host twice as fast";
  return "not made: " + o.name;
}

std::string Pct(double v) { return fmt::format("{:.1f}%", v); }

// "-" where the trace has no steps to compare (no ProfilerStep slices, no frames): a 0.0%
// there would read as a change that saves no step time.
std::string StepSaved(const replay::Opportunities& o, const replay::Opportunity& p) {
  return o.fidelity.steps_compared > 0 ? Pct(p.step_gain_pct) : "-";
}

}  // namespace

std::string OpportunitiesHtml(const ReportData& d) {
  const replay::Opportunities& o = d.opportunities;
  if (!o.computed || o.list.empty()) return {};
  std::string out = Section("opportunities", kMdOpportunitiesHeading);
  out += "<p>" + XmlEscape(kIntro) + "</p>\n";
  // One bar a change, its label beside it (the names are long).
  std::vector<StackedRow> rows;
  for (const replay::Opportunity& p : o.list) {
    rows.push_back({ShortenName(What(p), 48), {std::max(0.0, p.gain_pct)}});
  }
  out += SvgStackedBars("Span saved by each change", {"span saved"}, {kBusy}, rows, "%");
  out += "<table><tr><th>change</th><th>why it was tried</th><th>predicted span</th>"
         "<th>span saved</th><th>mean step saved</th><th>ask it</th></tr>\n";
  for (const replay::Opportunity& p : o.list) {
    const std::string why =
        p.kind == "faster_packets"
            ? fmt::format("{} on the critical path, {} busy",
                          FormatDuration(static_cast<double>(p.why_ns)),
                          FormatDuration(static_cast<double>(p.busy_ns)))
        : p.kind == "faster_host" ? "the CPU time between the host's calls"
                                  : "held " + FormatDuration(static_cast<double>(p.why_ns));
    out += "<tr>" + NameCell(What(p)) + Cell(why) +
           Cell(FormatDuration(static_cast<double>(p.predicted_span_ns))) + Cell(Pct(p.gain_pct)) +
           Cell(StepSaved(o, p)) + Cell("fencescope whatif TRACE -o OUT " + p.edit, "name") +
           "</tr>\n";
  }
  out += "</table>\n<p>How far to trust these: " +
         XmlEscape(replay::FidelitySentence(o.fidelity)) + ".</p>\n";
  return out;
}

std::string OpportunitiesMarkdown(const ReportData& d) {
  const replay::Opportunities& o = d.opportunities;
  if (!o.computed || o.list.empty()) return {};
  std::string out =
      "## " + std::string(kMdOpportunitiesHeading) + "\n\n" + std::string(kIntro) + "\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const replay::Opportunity& p : o.list) {
    rows.push_back({ShortenName(What(p)), FormatDuration(static_cast<double>(p.predicted_span_ns)),
                    Pct(p.gain_pct), StepSaved(o, p), "`" + p.edit + "`"});
  }
  out += MarkdownTable({"change", "predicted span", "span saved", "mean step saved", "whatif options"},
                       rows);
  out += "How far to trust these: " + replay::FidelitySentence(o.fidelity) + ".\n\n";
  return out;
}

}  // namespace core::report
