#include "core/report/trace_info.h"

#include <fmt/format.h>

#include "core/cache/trace_cache.h"
#include "core/report/table_text.h"
#include "core/store/trace_file.h"

namespace core::report {
namespace {
constexpr const char* kTables[] = {
    "adapters",  "engines", "queues",         "processes",       "contexts", "threads",
    "fences",    "psos",    "resources",      "counter_series",  "counter_samples",
    "events",    "event_blocks", "flows", "event_args", "strings", "import_problems"};

std::string FormatDuration(int64_t ns) {
  if (ns >= 1'000'000'000) return fmt::format("{:.3f} s", ns / 1e9);
  if (ns >= 1'000'000) return fmt::format("{:.3f} ms", ns / 1e6);
  if (ns >= 1'000) return fmt::format("{:.3f} us", ns / 1e3);
  return fmt::format("{} ns", ns);
}
}  // namespace

std::string FormatTraceInfo(const std::filesystem::path& trace) {
  store::Database db = store::OpenTrace(trace);
  auto meta = store::ReadMeta(db);
  auto get = [&](const std::string& key) {
    auto it = meta.find(key);
    return it == meta.end() ? std::string("-") : it->second;
  };
  std::string out;
  out += fmt::format("file            {}\n", trace.string());
  out += fmt::format("schema_version  {}\n", db.QueryInt("PRAGMA user_version"));
  out += fmt::format("source          {}\n", get("source"));
  if (meta.count("source_file")) out += fmt::format("source_file     {}\n", get("source_file"));
  out += fmt::format("clock           {}\n", get("clock"));
  int64_t start = meta.count("start_ns") ? std::stoll(meta["start_ns"]) : 0;
  int64_t end = meta.count("end_ns") ? std::stoll(meta["end_ns"]) : 0;
  out += fmt::format("time_span       {} .. {} ns ({})\n", start, end, FormatDuration(end - start));

  out += "\nmeta\n";
  std::vector<std::vector<std::string>> meta_rows;
  for (const auto& [key, value] : meta) meta_rows.push_back({key, value});
  out += FormatAlignedTable({"key", "value"}, meta_rows);

  out += "\nrows per table\n";
  std::vector<std::vector<std::string>> rows;
  for (const char* table : kTables) {
    rows.push_back({table, std::to_string(db.QueryInt(fmt::format("SELECT count(*) FROM {}", table)))});
  }
  out += FormatAlignedTable({"table", "rows"}, rows);

  out += "\nevents per kind\n";
  std::vector<std::vector<std::string>> kinds;
  store::Statement s = db.Prepare(
      "SELECT k.name, count(*) FROM events e JOIN event_kinds k ON k.id = e.kind "
      "GROUP BY e.kind ORDER BY e.kind");
  while (s.Step()) kinds.push_back({s.ColumnText(0), s.ColumnText(1)});
  out += FormatAlignedTable({"kind", "events"}, kinds);

  out += "\nimport problems\n";
  std::vector<std::vector<std::string>> problems;
  store::Statement p = db.Prepare(
      "SELECT p.name, v.name, p.count, p.first_place, p.description FROM import_problems p "
      "LEFT JOIN enum_values v ON v.enum_name = 'severity' AND v.value = p.severity "
      "ORDER BY p.severity DESC, p.name");
  while (p.Step()) {
    problems.push_back({p.ColumnText(0), p.ColumnText(1), p.ColumnText(2), p.ColumnText(3),
                        p.ColumnText(4)});
  }
  if (problems.empty()) {
    out += "(none)\n";
  } else {
    out += FormatAlignedTable({"name", "severity", "count", "first_place", "description"},
                              problems);
  }

  // The packed cache later opens read instead of the rows (core/cache/trace_cache.h).
  out += "\npacked cache\n";
  std::vector<std::vector<std::string>> sections;
  for (const auto& c : cache::DescribeCache(db)) {
    sections.push_back({c.name, std::to_string(c.raw_bytes), std::to_string(c.stored_bytes),
                        c.events_hash, c.stale.empty() ? "valid" : "stale: " + c.stale});
  }
  if (sections.empty()) {
    out += "(none: the next open reads the rows and writes it)\n";
  } else {
    out += FormatAlignedTable({"section", "bytes", "stored", "events_hash", "state"}, sections);
  }
  return out;
}

}  // namespace core::report
