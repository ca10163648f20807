#include "core/report/import_problems_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/report/html_parts.h"

namespace core::report {
namespace {

constexpr const char* kImportNotesExplained =
    "What the importer counted while reading the capture: data_loss, records it could not use "
    "(the figures above lack them); error, records it refused; info, what it noted or inferred "
    "(how it linked records, how many it read of a kind).";

const char* SeverityName(core::model::Severity s) {
  // the names of schemas/event_kinds.sql's enum_values for 'severity'
  switch (s) {
    case core::model::Severity::kInfo: return "info";
    case core::model::Severity::kError: return "error";
    case core::model::Severity::kDataLoss: return "data_loss";
  }
  return "info";
}

std::vector<const core::store::ImportProblem*> Sorted(const ReportData& d) {
  std::vector<const core::store::ImportProblem*> out;
  for (const auto& p : d.store->problems) out.push_back(&p);
  std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
    if (a->severity != b->severity) return a->severity > b->severity;
    return a->name < b->name;
  });
  return out;
}

std::string MarkdownCell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out.push_back(c);
  }
  return out;
}

}  // namespace

Json ImportProblemsJson(const ReportData& d) {
  Json list = Json::Array();
  for (const auto* p : Sorted(d)) {
    Json item = Json::Object();
    item.Set("name", p->name);
    item.Set("severity", SeverityName(p->severity));
    item.Set("count", p->count);
    item.Set("first_place", p->first_place);
    item.Set("description", p->description);
    list.Push(std::move(item));
  }
  return list;
}

std::string ImportProblemsHtml(const ReportData& d) {
  std::string out = Section("import", "Import notes");
  const auto problems = Sorted(d);
  if (problems.empty()) return out + "<p>The importer used every record of the capture.</p>\n";
  out += "<p>" + std::string(kImportNotesExplained) + "</p>\n";
  out += "<table><tr><th>counter</th><th>severity</th><th>count</th><th>first at</th>"
         "<th>meaning</th></tr>\n";
  for (const auto* p : problems) {
    out += Row({p->name, SeverityName(p->severity), std::to_string(p->count), p->first_place,
                p->description});
  }
  return out + "</table>\n";
}

std::string ImportProblemsMarkdown(const ReportData& d) {
  std::string out = "## Import notes\n\n";
  const auto problems = Sorted(d);
  if (problems.empty()) return out + "The importer used every record of the capture.\n\n";
  out += std::string(kImportNotesExplained) + "\n\n";
  out += "| counter | severity | count | first at | meaning |\n| --- | --- | --- | --- | --- |\n";
  for (const auto* p : problems) {
    out += fmt::format("| {} | {} | {} | {} | {} |\n", MarkdownCell(p->name),
                       SeverityName(p->severity), p->count, MarkdownCell(p->first_place),
                       MarkdownCell(p->description));
  }
  return out + "\n";
}

bool HasGpuWork(const ReportData& d) {
  if (!d.recon.waits.empty() || !d.recon.cpu_waits.empty()) return true;
  for (const auto& t : d.queue_time.queues) {
    if (!d.IsQuietQueue(t.queue)) return true;
  }
  return false;
}

std::string NoGpuWorkSentence(const ReportData& d) {
  if (HasGpuWork(d)) return {};
  return fmt::format(
      "No GPU work in this trace: no queue ran a packet and nothing waited on a fence ({} "
      "events, {} threads). The queue, packet, latency, launch and critical-path sections do "
      "not apply and are left out; the import notes below say what the importer could not use.",
      d.store->events.size(), d.store->threads.size());
}

}  // namespace core::report
