#include "core/fleet/fleet_report.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include <fmt/format.h>

#include "core/fleet/summary_file.h"
#include "core/report/html_parts.h"
#include "core/report/report_markdown.h"
#include "core/report/svg_chart.h"

namespace core::fleet {
namespace {

using core::report::FormatDuration;
using core::report::Json;
using core::report::ObjectArray;
using core::report::ValueArray;
using core::report::XmlEscape;

std::string D(DurationNs ns) { return FormatDuration(static_cast<double>(ns)); }

// What one trace is called in the reports' first line (all of them: TracesAreName).
const char* Singular(const FleetAnalysis& a) {
  return TraceName(a.options.traces_are);
}

// A whole-trace queue figure: "-" when unknown (-1, an older summary).
// Days / hours / minutes / seconds, the two largest units that are not zero.
std::string TimeBetween(DurationNs ns) {
  const char* sign = ns < 0 ? "-" : "+";
  const DurationNs a = ns < 0 ? -ns : ns;
  constexpr DurationNs kSecond = 1'000'000'000;
  const int64_t seconds = a / kSecond;
  if (seconds < 60) return sign + D(a);
  const int64_t d = seconds / 86400, h = seconds / 3600 % 24, min = seconds / 60 % 60,
                s = seconds % 60;
  if (d > 0) return fmt::format("{}{} d {} h", sign, d, h);
  if (h > 0) return fmt::format("{}{} h {} min", sign, h, min);
  return fmt::format("{}{} min {} s", sign, min, s);
}

std::string KnownD(DurationNs ns) {
  return ns < 0 ? "-" : D(ns);
}

// The figures over matched steps of a rank; "-" when no step matched (not "0 ns": nothing was
// measured).
std::vector<std::string> MatchedStepCells(const FleetAnalysis& a, const RankRow& r) {
  if (a.steps.empty()) return std::vector<std::string>(6, "-");
  return {D(r.step_ns_mean), D(r.busy_ns),       D(r.waiting_ns),
          D(r.idle_ns),      D(r.collective_ns), D(r.collective_wait_ns)};
}

// "1009-1011", "7" or "-" (none).
std::string StepIds(const RankRow& r) {
  if (r.step_id_min < 0) return "-";
  if (r.step_id_min == r.step_id_max) return std::to_string(r.step_id_min);
  return fmt::format("{}-{}", r.step_id_min, r.step_id_max);
}

// "552, 553" or "-".
std::string CutOff(const RankRow& r) {
  std::string out;
  for (int64_t id : r.steps_cut_off) out += (out.empty() ? "" : ", ") + std::to_string(id);
  return out.empty() ? "-" : out;
}

// One row of the whole-trace table.
std::vector<std::string> WholeTraceCells(const RankRow& r) {
  return {std::to_string(r.rank),
          std::to_string(r.steps),
          StepIds(r),
          CutOff(r),
          D(r.trace_ns),
          std::to_string(r.trace_queues),
          KnownD(r.trace_busy_ns),
          KnownD(r.trace_waiting_ns),
          KnownD(r.trace_idle_ns),
          r.input};
}
// The whole-trace table's header; the first column says run or rank.
std::vector<std::string> WholeTraceHeader(const FleetAnalysis& a) {
  return {Singular(a), "steps", "step ids", "cut off", "span",
          "queues",    "busy",  "waiting",  "idle",    "trace"};
}

// Said when some steps were left out for ending after their trace's last record.
std::string CutOffSentence(const FleetAnalysis& a) {
  if (a.steps_cut_off == 0) return "";
  std::string which;
  for (const RankRow& r : a.ranks) {
    if (r.steps_cut_off.empty()) continue;
    if (!which.empty()) which += "; ";
    which += fmt::format("{} {} step{} {}", Singular(a), r.rank,
                         r.steps_cut_off.size() > 1 ? "s" : "", CutOff(r));
  }
  const bool many = a.steps_cut_off > 1;
  return fmt::format(
      "{} {} left out for ending after the last record of {} trace (the capture ended inside, "
      "so what happened until the step's end is not in it): {}.",
      a.steps_cut_off, many ? "steps were" : "step was", many ? "their" : "its", which);
}

// Said when no step id is on every trace: the per-step figures are empty, and why.
std::string NoStepMatchedSentence(const FleetAnalysis& a) {
  if (a.ranks.empty() || !a.steps.empty()) return "";
  return fmt::format(
      "No step id is on every {0}: the figures over matched steps (mean step, busy, waiting, "
      "idle, collectives) and the stragglers are empty, and the {1} are compared over their "
      "whole traces (Whole traces: each one's steps and step ids say why).",
      Singular(a), TracesAreName(a.options.traces_are));
}

std::string Doing(const Straggler& s) {
  std::string out;
  for (const PathItem& item : s.doing) {
    if (!out.empty()) out += "; ";
    out += fmt::format("{} {} on {}{}", D(item.ns), item.kind, item.track,
                       item.name.empty() ? "" : ": " + core::report::ShortenName(item.name, 60));
  }
  return out.empty() ? "(no critical path in the step)" : out;
}

struct ByRank {
  int64_t rank = 0;
  uint64_t steps = 0;
};
std::vector<ByRank> StragglersByRank(const FleetAnalysis& a) {
  std::vector<ByRank> out;
  for (const RankRow& r : a.ranks) {
    if (r.straggler_steps) out.push_back({r.rank, r.straggler_steps});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const ByRank& x, const ByRank& y) { return x.steps > y.steps; });
  return out;
}

DurationNs MaxLateness(const FleetAnalysis& a) {
  DurationNs m = 0;
  for (const StepRow& s : a.steps) m = std::max(m, s.straggler.lateness_ns);
  return m;
}

bool StepsAreProfilerSteps(const FleetAnalysis& a) {
  return a.steps_from == "profiler_step" || a.steps_from == "none";
}

// Said when the steps are frames (ProfilerStep reports read as before).
std::string StepsSentence(const FleetAnalysis& a) {
  if (a.steps_from == "present_marker") return "Steps are frames, each ended by a present marker.";
  if (a.steps_from == "present_packet") {
    return "Steps are frames, each ended by the completion of a present packet.";
  }
  if (a.steps_from == "vsync_marker") return "Steps are frames, each ended by a vsync marker.";
  // Mixed: how many traces have each kind.
  std::map<std::string, size_t> count;
  for (const RankRow& r : a.ranks) ++count[r.steps_from];
  std::string kinds;
  for (const auto& [from, n] : count) {
    const char* what = from == "profiler_step"    ? "ProfilerStep slices"
                       : from == "present_marker" ? "frames ended by a present marker"
                       : from == "present_packet" ? "frames ended by a present packet"
                       : from == "vsync_marker"   ? "frames ended by a vsync marker"
                                                  : "no steps";
    if (!kinds.empty()) kinds += ", ";
    kinds += fmt::format("{} on {}", what, n);
  }
  return fmt::format(
      "Steps are not of one kind on every {}: {} (steps_from of each in the JSON "
      "report).",
      Singular(a), kinds);
}

// Said when the traces are not the ranks of one job numbered by the ranks they state
// (--traces-are, --ranks-from).
std::string OptionsSentence(const FleetAnalysis& a) {
  std::string runs, numbering;
  if (a.options.traces_are == TracesAre::kRuns) {
    runs =
        "The traces are runs (--traces-are runs): no run waited for another, so a step's "
        "straggler is the run whose step took longest, late by how much longer it took than "
        "the next longest; the clock offsets only line the runs' steps up.";
  }
  if (a.options.numbering == RankNumbering::kOrder) {
    numbering =
        "Traces are numbered by their place in the input list (--ranks-from order), not by "
        "the rank they state.";
  } else if (a.options.numbering == RankNumbering::kFileName) {
    numbering =
        "Traces are numbered by the number in their file name (--ranks-from name), not by "
        "the rank they state.";
  }
  return runs.empty() || numbering.empty() ? runs + numbering : runs + " " + numbering;
}

std::string NoStepHtml(const FleetAnalysis& a) {
  return "<p>No step matched on every " + std::string(Singular(a)) + ".</p>\n";
}

// Rank x step, the step time from the fastest (light) to the slowest (dark red); at most
// kHeatMapRanks ranks, those with the longest mean step. `a.steps` not empty.
std::string HeatMapHtml(const FleetAnalysis& a) {
  std::string out;
  std::vector<size_t> shown(a.ranks.size());
  for (size_t i = 0; i < shown.size(); ++i) shown[i] = i;
  if (shown.size() > kHeatMapRanks) {
    std::stable_sort(shown.begin(), shown.end(), [&](size_t x, size_t y) {
      return a.ranks[x].step_ns_mean > a.ranks[y].step_ns_mean;
    });
    shown.resize(kHeatMapRanks);
    std::sort(shown.begin(), shown.end());
  }
  if (shown.size() < a.ranks.size()) {
    out += fmt::format("<p>The {} {} with the longest mean step of {}.</p>\n", shown.size(),
                       TracesAreName(a.options.traces_are), a.ranks.size());
  }
  out += fmt::format("<table>\n<tr><th>{}</th>", Singular(a));
  for (const StepRow& s : a.steps) out += fmt::format("<th>{}</th>", s.step);
  out += "</tr>\n";
  for (size_t i : shown) {
    out += fmt::format("<tr><td>{}</td>", a.ranks[i].rank);
    for (const StepRow& s : a.steps) {
      const double span = static_cast<double>(s.step_ns_max - s.step_ns_min);
      const double f = span > 0 ? (s.step_ns[i] - s.step_ns_min) / span : 0;
      const bool straggler = s.straggler.rank == a.ranks[i].rank;
      out += fmt::format(
          "<td class=\"h\" style=\"background:rgb(255,{0},{0})\" title=\"{6} {1} step {2}: "
          "{3}{4}\">{5}</td>",
          static_cast<int>(235 - 200 * f), a.ranks[i].rank, s.step, D(s.step_ns[i]),
          straggler ? ", straggler" : "", straggler ? "S" : "", Singular(a));
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

}  // namespace

std::string OffsetText(const FleetAnalysis& a, const RankRow& r) {
  if (a.clock_method == "trace_start") return TimeBetween(r.offset_ns);
  return fmt::format("{} ns", r.offset_ns);
}

Json FleetJson(const FleetAnalysis& a) {
  Json j = Json::Object();
  j.Set("schema_version", 1);
  j.Set("ranks_count", static_cast<uint64_t>(a.ranks.size()));
  j.Set("traces_failed", static_cast<uint64_t>(a.failed.size()));
  j.Set("steps_matched", static_cast<uint64_t>(a.steps.size()));
  j.Set("steps_unmatched", static_cast<uint64_t>(a.steps_unmatched));
  j.Set("steps_cut_off", static_cast<uint64_t>(a.steps_cut_off));
  j.Set("steps_from", a.steps_from);
  j.Set("ranks_from", std::string(RankNumberingName(a.options.numbering)));
  j.Set("traces_are", std::string(TracesAreName(a.options.traces_are)));
  Json clock = Json::Object();
  clock.Set("method", a.clock_method);
  clock.Set("reference_rank", a.reference_rank);
  int64_t max_abs = 0, max_spread = 0;
  for (const RankRow& r : a.ranks) {
    max_abs = std::max(max_abs, std::abs(r.offset_ns));
    max_spread = std::max(max_spread, r.offset_spread_ns);
  }
  clock.Set("max_abs_offset_ns", max_abs);
  clock.Set("max_spread_ns", max_spread);
  clock.Set("offsets", ObjectArray(a.ranks, [](Json& x, const RankRow& r) {
              x.Set("rank", r.rank);
              x.Set("offset_ns", r.offset_ns);
              x.Set("samples", r.offset_samples);
              x.Set("spread_ns", r.offset_spread_ns);
            }));
  j.Set("clock", std::move(clock));
  j.Set("ranks", ObjectArray(a.ranks, [](Json& x, const RankRow& r) {
          x.Set("rank", r.rank);
          x.Set("rank_source", r.rank_source);
          x.Set("input", r.input);
          x.Set("steps", static_cast<uint64_t>(r.steps));
          x.Set("step_id_min", r.step_id_min);
          x.Set("step_id_max", r.step_id_max);
          x.Set("steps_from", r.steps_from);
          x.Set("step_ns_mean", r.step_ns_mean);
          x.Set("busy_ns", r.busy_ns);
          x.Set("waiting_ns", r.waiting_ns);
          x.Set("idle_ns", r.idle_ns);
          x.Set("collective_ns", r.collective_ns);
          x.Set("collective_wait_ns", r.collective_wait_ns);
          x.Set("straggler_steps", r.straggler_steps);
          x.Set("offset_ns", r.offset_ns);
          x.Set("trace_ns", r.trace_ns);
          x.Set("trace_queues", static_cast<uint64_t>(r.trace_queues));
          x.Set("trace_busy_ns", r.trace_busy_ns);
          x.Set("trace_waiting_ns", r.trace_waiting_ns);
          x.Set("trace_idle_ns", r.trace_idle_ns);
          x.Set("steps_cut_off", ValueArray(r.steps_cut_off));
        }));
  DurationNs waited = 0;
  j.Set("steps", ObjectArray(a.steps, [&waited](Json& x, const StepRow& s) {
          x.Set("step", s.step);
          x.Set("step_ns_min", s.step_ns_min);
          x.Set("step_ns_max", s.step_ns_max);
          x.Set("step_ns_mean", s.step_ns_mean);
          x.Set("step_ns", ValueArray(s.step_ns));
          Json st = Json::Object();
          st.Set("rank", s.straggler.rank);
          st.Set("lateness_ns", s.straggler.lateness_ns);
          st.Set("at", s.straggler.at);
          st.Set("others_waited_ns", s.straggler.others_waited_ns);
          st.Set("doing", PathItemsJson(s.straggler.doing));
          x.Set("straggler", std::move(st));
          waited += s.straggler.others_waited_ns;
        }));
  Json stragglers = Json::Object();
  stragglers.Set("max_lateness_ns", MaxLateness(a));
  stragglers.Set("others_waited_ns", waited);
  stragglers.Set("by_rank", ObjectArray(StragglersByRank(a), [](Json& x, const ByRank& b) {
                   x.Set("rank", b.rank);
                   x.Set("steps", b.steps);
                 }));
  j.Set("stragglers", std::move(stragglers));
  j.Set("failed", ObjectArray(a.failed, [](Json& x, const FailedTrace& f) {
          x.Set("input", f.input);
          x.Set("error", f.error);
        }));
  return j;
}

std::string FleetMarkdown(const FleetAnalysis& a) {
  using core::report::MarkdownTable;
  std::string out = "# fencescope fleet report\n\n";
  out += fmt::format(
      "{} {}, {} steps matched ({} unmatched), {} traces failed. Clock "
      "alignment: {} (reference {} {}).\n\n",
      a.ranks.size(), TracesAreName(a.options.traces_are), a.steps.size(), a.steps_unmatched,
      a.failed.size(), a.clock_method, Singular(a), a.reference_rank);
  if (!StepsAreProfilerSteps(a)) out += StepsSentence(a) + "\n\n";
  if (const std::string options = OptionsSentence(a); !options.empty()) {
    out += options + "\n\n";
  }
  if (const std::string none = NoStepMatchedSentence(a); !none.empty()) out += none + "\n\n";
  if (const std::string cut = CutOffSentence(a); !cut.empty()) out += cut + "\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const RankRow& r : a.ranks) {
    std::vector<std::string> row = {std::to_string(r.rank), r.rank_source};
    for (std::string& cell : MatchedStepCells(a, r)) row.push_back(std::move(cell));
    row.insert(row.end(), {std::to_string(r.straggler_steps), OffsetText(a, r), r.input});
    rows.push_back(std::move(row));
  }
  out += "## Ranks\n\n" +
         MarkdownTable({Singular(a), "from", "mean step", "busy", "waiting", "idle", "collectives",
                        "waiting for others", "straggler in", "clock offset", "trace"},
                       rows);
  rows.clear();
  for (const RankRow& r : a.ranks) rows.push_back(WholeTraceCells(r));
  out += "## Whole traces\n\n" + MarkdownTable(WholeTraceHeader(a), rows);
  rows.clear();
  for (const StepRow& s : a.steps) {
    rows.push_back({std::to_string(s.step), D(s.step_ns_min), D(s.step_ns_max),
                    s.straggler.rank < 0 ? "-" : std::to_string(s.straggler.rank),
                    D(s.straggler.lateness_ns), s.straggler.at, D(s.straggler.others_waited_ns),
                    Doing(s.straggler)});
  }
  out += "## Stragglers per step\n\n";
  if (a.steps.empty()) {
    out += "No step matched on every " + std::string(Singular(a)) + ".\n\n";
  } else {
    out += MarkdownTable({"step", "fastest", "slowest", "straggler", "late by", "at",
                          "others waited (sum)", "what it was doing (critical path)"},
                         rows);
  }
  if (!a.failed.empty()) {
    rows.clear();
    for (const FailedTrace& f : a.failed) rows.push_back({f.input, f.error});
    out += "## Failed traces\n\n" + MarkdownTable({"trace", "error"}, rows);
  }
  return out;
}

std::string FleetHtml(const FleetAnalysis& a) {
  using core::report::Row;
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>fencescope fleet "
      "report</title><style>body{font-family:sans-serif;margin:24px}table{border-collapse:"
      "collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}"
      "td.h{width:18px;height:14px;padding:0}</style></head><body>\n<h1>fencescope fleet "
      "report</h1>\n";
  out += fmt::format(
      "<p>{} {}, {} steps matched ({} unmatched), {} traces failed. Clock "
      "alignment: {} (reference {} {}).</p>\n",
      a.ranks.size(), TracesAreName(a.options.traces_are), a.steps.size(), a.steps_unmatched,
      a.failed.size(), XmlEscape(a.clock_method), Singular(a), a.reference_rank);
  if (!StepsAreProfilerSteps(a)) out += "<p>" + XmlEscape(StepsSentence(a)) + "</p>\n";
  if (const std::string options = OptionsSentence(a); !options.empty()) {
    out += "<p>" + XmlEscape(options) + "</p>\n";
  }
  if (const std::string none = NoStepMatchedSentence(a); !none.empty()) {
    out += "<p>" + XmlEscape(none) + "</p>\n";
  }
  if (const std::string cut = CutOffSentence(a); !cut.empty()) {
    out += "<p>" + XmlEscape(cut) + "</p>\n";
  }
  out += core::report::Section("ranks", "Ranks") + "<table>\n" +
         Row({Singular(a), "from", "mean step", "busy", "waiting", "idle", "collectives",
              "waiting for others", "straggler in", "clock offset", "samples", "spread", "trace"},
             true);
  for (const RankRow& r : a.ranks) {
    std::vector<std::string> row = {std::to_string(r.rank), r.rank_source};
    for (std::string& cell : MatchedStepCells(a, r)) row.push_back(std::move(cell));
    row.insert(row.end(), {std::to_string(r.straggler_steps), OffsetText(a, r),
                           std::to_string(r.offset_samples), D(r.offset_spread_ns), r.input});
    out += Row(row);
  }
  out += "</table>\n";
  out += core::report::Section("whole-traces", "Whole traces") + "<table>\n" +
         Row(WholeTraceHeader(a), true);
  for (const RankRow& r : a.ranks) out += Row(WholeTraceCells(r));
  out += "</table>\n";

  out += core::report::Section("heat-map", "Step time, rank x step");
  out += a.steps.empty() ? NoStepHtml(a) : HeatMapHtml(a);

  out += core::report::Section("stragglers", "Stragglers per step");
  if (a.steps.empty()) out += NoStepHtml(a);
  if (!a.steps.empty()) {
    out += "<table>\n" + Row({"step", "fastest", "slowest", "straggler", "late by", "at",
                              "others waited (sum)", "what it was doing (critical path)"},
                             true);
    for (const StepRow& s : a.steps) {
      out += Row({std::to_string(s.step), D(s.step_ns_min), D(s.step_ns_max),
                  s.straggler.rank < 0 ? "-" : std::to_string(s.straggler.rank),
                  D(s.straggler.lateness_ns), s.straggler.at, D(s.straggler.others_waited_ns),
                  Doing(s.straggler)});
    }
    out += "</table>\n";
  }
  if (!a.failed.empty()) {
    out += core::report::Section("failed", "Failed traces") + "<table>\n" +
           Row({"trace", "error"}, true);
    for (const FailedTrace& f : a.failed) out += Row({f.input, f.error});
    out += "</table>\n";
  }
  return out + "</body></html>\n";
}

}  // namespace core::fleet
