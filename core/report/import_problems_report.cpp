#include "core/report/import_problems_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/report/html_parts.h"
#include "core/report/table_bounds.h"

namespace core::report {
namespace {

std::vector<const core::store::ImportProblem*> Sorted(const ReportData& d) {
  std::vector<const core::store::ImportProblem*> out;
  for (const auto& p : d.store->problems) out.push_back(&p);
  std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
    if (a->severity != b->severity) return a->severity > b->severity;
    return a->name < b->name;
  });
  return out;
}

}  // namespace

Json ImportProblemsJson(const ReportData& d) {
  Json list = Json::Array();
  for (const auto* p : Sorted(d)) {
    Json item = Json::Object();
    item.Set("name", p->name);
    item.Set("severity", std::string(core::model::SeverityName(p->severity)));
    item.Set("count", p->count);
    item.Set("first_place", p->first_place);
    item.Set("description", p->description);
    list.Push(std::move(item));
  }
  return list;
}

ImportNoteRows ImportProblemRows(const ReportData& d) {
  const auto sorted = Sorted(d);
  const BoundedRows shown = TopRows(sorted.size(), [&](size_t i) {
    // severity first, then the count (below 2^53, so the sum orders as the pair does)
    return static_cast<double>(sorted[i]->severity) * 9e15 + static_cast<double>(sorted[i]->count);
  }, kTableRows, true);
  ImportNoteRows out;
  for (size_t i : shown.shown) {
    const auto* p = sorted[i];
    out.rows.push_back({p->name, std::string(core::model::SeverityName(p->severity)),
                        std::to_string(p->count), p->first_place, p->description});
  }
  uint64_t counted = 0;
  for (size_t i = 0, k = 0; i < sorted.size(); ++i) {
    if (k < shown.shown.size() && shown.shown[k] == i) {
      ++k;
    } else {
      counted += sorted[i]->count;
    }
  }
  out.more = MoreLine(shown.more, "note", "notes", Thousands(counted) + " counted");
  return out;
}

std::string ImportProblemText(const core::store::ImportProblem& p) {
  if (p.first_place.empty()) return fmt::format("{} ({})", p.count, p.description);
  return fmt::format("{} ({}) first at {}", p.count, p.description, p.first_place);
}

std::string ImportProblemsHtml(const ReportData& d) {
  std::string out = Section("import", "Import notes");
  const ImportNoteRows notes = ImportProblemRows(d);
  if (notes.rows.empty()) return out + "<p>The importer used every record of the capture.</p>\n";
  out += "<p>" + std::string(kImportNotesExplained) + "</p>\n";
  out += "<table><tr><th>counter</th><th>severity</th><th>count</th><th>first at</th>"
         "<th>meaning</th></tr>\n";
  for (const auto& row : notes.rows) out += Row(row);
  return out + "</table>\n" + MoreParagraph(notes.more);
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
