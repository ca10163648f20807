// Report JSON keys and values, --fail-if expressions, compare, and the HTML / Markdown sections
// (packet statistics, named critical-path steps, and the sections left out for record families a
// trace has none of), on hand-made traces (tests/support/hand_trace.h explains each trace and its
// answers).
#include <gtest/gtest.h>

#include <map>

#include "core/model/error.h"
#include "core/report/compare.h"
#include "core/report/fail_if.h"
#include "core/report/report_html.h"
#include "core/report/report_json.h"
#include "core/report/report_markdown.h"
#include "core/report/svg_chart.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

using namespace core::report;
using core::store::TraceStore;
using test_support::ScratchDir;

namespace {

double At(const Json& j, const std::string& path) {
  const Json* v = FindPath(j, path);
  EXPECT_NE(v, nullptr) << path;
  return v ? v->Number() : -1;
}

std::string Str(const Json& j, const std::string& path) {
  const Json* v = FindPath(j, path);
  EXPECT_NE(v, nullptr) << path;
  return v ? v->String() : std::string();
}

std::vector<std::string> Strings(const Json& list) {
  std::vector<std::string> out;
  for (const Json& item : list.items()) out.push_back(item.String());
  return out;
}

bool Contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// A hand trace (from `write`, given the file to write) analysed for a full report, with its
// JSON. Not movable: `data` points at `store`.
struct FullReport {
  template <typename Write>
  explicit FullReport(Write write)
      : store(write(dir / "t.db")), data(AnalyseTrace(store, true)), json(ReportJson(data)) {}
  FullReport(const FullReport&) = delete;
  ScratchDir dir;
  TraceStore store;
  ReportData data;
  Json json;
};


}  // namespace

TEST(StatsJson, KeysAndHandWorkedValues) {
  ScratchDir dir;
  TraceStore store = hand_trace::WriteReportTrace(dir / "r.db");
  ReportData d = AnalyseTrace(store, false);
  Json j = StatsJson(d);
  for (const char* key : {"schema_version", "source", "duration_ns", "events", "queues", "fences",
                          "interrupts", "log_buffers"}) {
    EXPECT_NE(j.Find(key), nullptr) << key;
  }
  for (const char* key : {"name", "adapter", "engine", "type", "packets", "busy_ns", "waiting_ns",
                          "idle_ns"}) {
    EXPECT_NE(FindPath(j, std::string("queues[0].") + key), nullptr) << key;
  }
  for (const char* key : {"objects", "signals_queued", "signals_executed", "gpu_waits_queued",
                          "gpu_waits_unblocked", "cpu_waits", "cpu_waits_released",
                          "waits_never_unblocked", "rewinds"}) {
    EXPECT_NE(FindPath(j, std::string("fences.") + key), nullptr) << key;
  }
  for (const char* key : {"total", "with_waiters_released", "spurious", "per_signal", "optimized",
                          "scan_all"}) {
    EXPECT_NE(FindPath(j, std::string("interrupts.") + key), nullptr) << key;
  }
  for (const char* key : {"entries_written", "overruns", "entries_lost", "fallback_scans"}) {
    EXPECT_NE(FindPath(j, std::string("log_buffers.") + key), nullptr) << key;
  }
  EXPECT_EQ(j.Find("source")->String(), "hand");
  EXPECT_EQ(At(j, "schema_version"), 1);
  EXPECT_EQ(At(j, "duration_ns"), 120);
  // trace A: 3 packets x 3 + signal 2 + wait 2 = 13; extras: mode, interrupt, overrun,
  // wait queued, pending = 5
  EXPECT_EQ(At(j, "events"), 18);
  EXPECT_EQ(At(j, "queues[\"copy\"].busy_ns"), 40);
  EXPECT_EQ(At(j, "queues[\"copy\"].idle_ns"), 80);
  // 3d: busy [60,100] 40; held [5,60] 55 + [105,120] 15 = 70; idle 120 - 40 - 70 = 10
  EXPECT_EQ(At(j, "queues[\"3d\"].busy_ns"), 40);
  EXPECT_EQ(At(j, "queues[\"3d\"].waiting_ns"), 70);
  EXPECT_EQ(At(j, "queues[\"3d\"].idle_ns"), 10);
  EXPECT_EQ(FindPath(j, "queues[1].type")->String(), "3d");
  EXPECT_EQ(FindPath(j, "queues[1].adapter")->String(), "GPU");
  EXPECT_EQ(At(j, "queues[2].packets"), 1);
  EXPECT_EQ(At(j, "fences.objects"), 1);
  EXPECT_EQ(At(j, "fences.signals_executed"), 1);
  EXPECT_EQ(At(j, "fences.gpu_waits_queued"), 2);
  EXPECT_EQ(At(j, "fences.gpu_waits_unblocked"), 1);
  EXPECT_EQ(At(j, "fences.waits_never_unblocked"), 1);
  EXPECT_EQ(At(j, "fences.cpu_waits"), 0);
  EXPECT_EQ(At(j, "interrupts.total"), 1);
  EXPECT_EQ(At(j, "interrupts.spurious"), 1);
  EXPECT_EQ(At(j, "interrupts.with_waiters_released"), 0);
  EXPECT_EQ(At(j, "interrupts.per_signal"), 1.0);
  EXPECT_EQ(At(j, "interrupts.optimized"), 1);
  EXPECT_EQ(At(j, "log_buffers.overruns"), 1);
  EXPECT_EQ(At(j, "log_buffers.entries_lost"), 4);
  EXPECT_EQ(At(j, "log_buffers.entries_written"), 0);
  // one successful mode call with FurtherMeasurementsDesired: one pass, not converged
  EXPECT_EQ(At(j, "background.passes"), 1);
  EXPECT_EQ(At(j, "background.converged"), 0);
  EXPECT_EQ(At(j, "background.tasks_queued"), 0);
}

TEST(ReportJson, SupersetWithPathLatencyFindingsPgo) {
  const FullReport r([](const auto& path) { return hand_trace::WriteReportTrace(path); });
  const Json& j = r.json;
  Json stats = StatsJson(r.data);
  for (const auto& [key, value] : stats.members()) EXPECT_NE(j.Find(key), nullptr) << key;
  for (const char* key : {"critical_path", "latency", "findings", "pgo_series"}) {
    EXPECT_NE(j.Find(key), nullptr) << key;
  }
  EXPECT_EQ(At(j, "critical_path.length_ns"), 100);  // submit 0 .. 3d end 100 (trace A)
  EXPECT_EQ(At(j, "latency.gpu.to_signal.p50_ns"), 45);
  EXPECT_EQ(At(j, "latency.gpu.to_unblock.p99_ns"), 10);
  // findings: the never-signalled wait (at 105) and the overrun window [70, 90]
  EXPECT_EQ(At(j, "findings.count"), 2);
  EXPECT_EQ(At(j, "findings.waits_never_unblocked"), 1);
  EXPECT_EQ(At(j, "findings.overrun_windows"), 1);
  EXPECT_EQ(FindPath(j, "findings.list[0].kind")->String(), "overrun");
  EXPECT_EQ(At(j, "findings.list[0].ts_ns"), 70);
  EXPECT_EQ(FindPath(j, "findings.list[1].kind")->String(), "never_unblocked");
  EXPECT_EQ(At(j, "findings.list[1].ts_ns"), 105);
  EXPECT_EQ(FindPath(j, "pgo_series")->size(), 1u);
  EXPECT_EQ(At(j, "pgo_series[0].further_measurements_desired"), 1);
}

TEST(FailIf, ComparisonsLogicAndErrors) {
  const FullReport r([](const auto& path) { return hand_trace::WriteReportTrace(path); });
  const Json& j = r.json;
  EXPECT_TRUE(EvaluateFailIf(j, "interrupts.spurious > 0"));
  EXPECT_FALSE(EvaluateFailIf(j, "interrupts.spurious > 10"));
  EXPECT_TRUE(EvaluateFailIf(j, "interrupts.spurious > 10 || fences.waits_never_unblocked > 0"));
  EXPECT_FALSE(EvaluateFailIf(j, "interrupts.spurious > 0 && fences.rewinds >= 1"));
  EXPECT_TRUE(EvaluateFailIf(j, "!(fences.rewinds != 0)"));
  EXPECT_TRUE(EvaluateFailIf(j, "queues[\"3d\"].waiting_ns == 70"));
  EXPECT_TRUE(EvaluateFailIf(j, "queues[1].busy_ns / duration_ns < 0.5"));
  EXPECT_TRUE(EvaluateFailIf(j, "latency.gpu.to_signal.p99_ns >= 4.5e1"));
  try {
    EvaluateFailIf(j, "interrupts.nope > 1");
    FAIL() << "no error for an unknown key";
  } catch (const core::Error& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("unknown key 'interrupts.nope'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("spurious"), std::string::npos) << msg;  // lists the known keys
  }
  EXPECT_THROW(EvaluateFailIf(j, "interrupts.spurious >"), core::Error);
  EXPECT_THROW(EvaluateFailIf(j, "source > 1"), core::Error);  // not a number
  EXPECT_THROW(EvaluateFailIf(j, "queues[9].busy_ns > 1"), core::Error);
}

// An expression nested as deep as a gate could want is evaluated; one nested deeper than 200
// levels ('(', '!' or unary '-') is refused with the column where it goes too deep, instead of
// running out of stack (found by fuzz_fail_if with 7,800 '(').
TEST(FailIf, NestingDeeperThanTwoHundredLevelsIsRefused) {
  const FullReport r([](const auto& path) { return hand_trace::WriteReportTrace(path); });
  const Json& j = r.json;
  EXPECT_TRUE(EvaluateFailIf(j, std::string(200, '(') + "1" + std::string(200, ')')));
  EXPECT_TRUE(EvaluateFailIf(j, std::string(200, '!') + "1"));  // an even count of '!'
  EXPECT_FALSE(EvaluateFailIf(j, std::string(199, '!') + "1"));
  EXPECT_TRUE(EvaluateFailIf(j, std::string(200, '-') + "1 > 0"));
  for (const char nest : {'(', '!', '-'}) {
    const std::string deep = std::string(100000, nest) + "1";
    const std::string error = test_support::ErrorOf([&] { EvaluateFailIf(j, deep); });
    EXPECT_NE(error.find("nested deeper than 200 levels at column 201"), std::string::npos)
        << nest << ": " << error.substr(0, 200);
  }
}

TEST(ReportHtml, SectionsAndDrawnCharts) {
  const FullReport r([](const auto& path) { return hand_trace::WriteReportTrace(path); });
  std::string html = ReportHtml(r.data);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  for (const char* id : {"summary", "timeline", "queues", "gaps", "interrupts", "latency",
                         "critical-path", "pgo", "findings"}) {
    EXPECT_NE(html.find(std::string("id=\"") + id + "\""), std::string::npos) << id;
  }
  for (const char* title : {"Per-queue timeline overview", "Interrupt rate over time",
                            "GPU wait latency histogram", "Share of the critical path",
                            "PGO convergence per pass", "Idle time by cause"}) {
    EXPECT_NE(html.find(std::string("<title>") + title), std::string::npos) << title;
  }
  EXPECT_GE(test_support::Occurrences(html, "<svg"), 8u);
  EXPECT_EQ(test_support::Occurrences(html, "<svg"), test_support::Occurrences(html, "</svg>"));
  EXPECT_EQ(html.find("<script src"), std::string::npos);  // inline script only (table sorting)
  EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // no remote loads
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_NE(html.find("never unblocked"), std::string::npos);
  EXPECT_NE(html.find("overran"), std::string::npos);
  std::string md = ReportMarkdown(r.data);
  for (const char* heading : {"## Summary", "## Queues", "## Wait latency", "## Critical path",
                              "## PGO convergence", "## Findings"}) {
    EXPECT_NE(md.find(heading), std::string::npos) << heading;
  }
}

TEST(Compare, DifferentSpansAreComparedAsRates) {
  ScratchDir dir;
  // The same records over [0, 120] and over [0, 240]: 3d runs [60, 100] (busy 40) and waits
  // [5, 60] (55), so it is idle 25 of 120 and 145 of 240 ns.
  TraceStore a_store = hand_trace::WriteTraceA(dir / "a.db");
  TraceStore b_store = hand_trace::WriteTraceA(
      dir / "b.db", [](hand_trace::HandTrace&) {}, 240);
  Comparison c = CompareReports("a", ReportJson(AnalyseTrace(a_store, true)), "b",
                                ReportJson(AnalyseTrace(b_store, true)));
  EXPECT_TRUE(c.rates);
  EXPECT_EQ(c.a_span_ns, 120);
  EXPECT_EQ(c.b_span_ns, 240);
  const QueueDiff* gfx = nullptr;
  for (const QueueDiff& q : c.queues) {
    if (q.queue == "3d") gfx = &q;
  }
  ASSERT_NE(gfx, nullptr);
  std::map<std::string, MetricDiff> m;
  for (const MetricDiff& x : gfx->metrics) m[x.key] = x;
  EXPECT_EQ(m.count("busy_ns"), 0u);
  EXPECT_DOUBLE_EQ(m["busy_share"].a, 40.0 / 120);
  EXPECT_DOUBLE_EQ(m["busy_share"].b, 40.0 / 240);
  EXPECT_DOUBLE_EQ(m["waiting_share"].a, 55.0 / 120);
  EXPECT_DOUBLE_EQ(m["waiting_share"].b, 55.0 / 240);
  EXPECT_DOUBLE_EQ(m["idle_share"].a, 25.0 / 120);
  EXPECT_DOUBLE_EQ(m["idle_share"].b, 145.0 / 240);
  EXPECT_DOUBLE_EQ(m["packets_per_s"].a, 1e9 / 120);
  EXPECT_DOUBLE_EQ(m["packets_per_s"].b, 1e9 / 240);
  // Counts over the span become rates; the span itself and latencies stay as they are.
  std::map<std::string, MetricDiff> top;
  for (const MetricDiff& x : c.metrics) top[x.key] = x;
  EXPECT_EQ(top.count("events"), 0u);
  EXPECT_DOUBLE_EQ(top["events_per_s"].Relative(), -0.5);  // the same records, twice the span
  EXPECT_EQ(top["duration_ns"].b, 240);
  EXPECT_EQ(top["latency.gpu.total.max_ns"].Delta(), 0);
  EXPECT_NE(CompareText(c, true).find("the spans differ"), std::string::npos);
  // Equal spans: the figures as they are.
  EXPECT_FALSE(CompareReports("a", ReportJson(AnalyseTrace(a_store, true)), "a",
                              ReportJson(AnalyseTrace(a_store, true)))
                   .rates);
}

namespace {

// Two queues named "3d" on different engines of `second_adapter` ("": the first adapter). The
// first runs [0, 30], the second [0, 60]; span [0, 120].
TraceStore TwoQueuesNamed3d(const std::filesystem::path& path, const std::string& second_adapter) {
  hand_trace::HandTrace t(path);
  const core::model::QueueId first = t.Queue("3d");
  auto& w = t.writer();
  const core::model::AdapterId adapter =
      second_adapter.empty() ? 1 : w.AddAdapter({second_adapter});
  const auto engine = w.AddEngine({adapter, core::model::EngineType::k3D, 1, "3d engine 2"});
  const auto second = w.AddQueue({engine, adapter, core::model::QueueType::k3D, 0, 1, "3d", 0});
  const auto thread = t.Thread("main");
  t.Packet(first, thread, 1, 0, 0, 30);
  t.Packet(second, thread, 2, 0, 0, 60);
  return t.Finish(0, 120);
}

}  // namespace

TEST(Compare, QueuesAreMatchedByIdentityNotByNameAlone) {
  ScratchDir dir;
  TraceStore x = TwoQueuesNamed3d(dir / "x.db", "");
  TraceStore y = TwoQueuesNamed3d(dir / "y.db", "");
  TraceStore z = TwoQueuesNamed3d(dir / "z.db", "GPU2");
  Comparison same = CompareReports("x", ReportJson(AnalyseTrace(x, true)), "y",
                                   ReportJson(AnalyseTrace(y, true)));
  ASSERT_EQ(same.queues.size(), 2u);
  // Both are "3d": the comparison labels them by identity.
  EXPECT_EQ(same.queues[0].queue, "GPU / 3d engine / 3d [pid 42]");
  EXPECT_EQ(same.queues[1].queue, "GPU / 3d engine 2 / 3d [pid 42]");
  for (size_t i = 0; i < 2; ++i) {
    for (const MetricDiff& m : same.queues[i].metrics) {
      EXPECT_TRUE(m.in_a && m.in_b) << m.key;
      EXPECT_EQ(m.Delta(), 0) << m.key;
      if (m.key == "busy_ns") {
        EXPECT_EQ(m.a, i == 0 ? 30 : 60);
      }
    }
  }
  // On another adapter the second "3d" is another queue.
  Comparison other = CompareReports("x", ReportJson(AnalyseTrace(x, true)), "z",
                                    ReportJson(AnalyseTrace(z, true)));
  ASSERT_EQ(other.queues.size(), 3u);
  EXPECT_TRUE(other.queues[0].metrics[0].in_a && other.queues[0].metrics[0].in_b);
  EXPECT_FALSE(other.queues[1].metrics[0].in_b);
  EXPECT_EQ(other.queues[2].identity, "GPU2 / 3d engine 2 / 3d [pid 42]");
  EXPECT_FALSE(other.queues[2].metrics[0].in_a);
}

TEST(Compare, PerQueueAndMetricDifferences) {
  ScratchDir dir;
  TraceStore a_store = hand_trace::WriteReportTrace(dir / "r.db");
  TraceStore b_store = hand_trace::WriteTraceA(dir / "a.db");
  ReportData a = AnalyseTrace(a_store, true);
  ReportData b = AnalyseTrace(b_store, true);
  Comparison c = CompareReports("r", ReportJson(a), "a", ReportJson(b));
  ASSERT_EQ(c.queues.size(), 3u);
  EXPECT_EQ(c.queues[1].queue, "3d");
  bool found = false;
  for (const MetricDiff& m : c.queues[1].metrics) {
    if (m.key != "waiting_ns") continue;
    found = true;
    EXPECT_EQ(m.a, 70);  // with the never-signalled wait [105,120]
    EXPECT_EQ(m.b, 55);
    EXPECT_EQ(m.Delta(), -15);
  }
  EXPECT_TRUE(found);
  bool spurious = false;
  for (const MetricDiff& m : c.metrics) {
    if (m.key == "interrupts.spurious") {
      spurious = true;
      EXPECT_EQ(m.a, 1);
      EXPECT_EQ(m.b, 0);
    }
  }
  EXPECT_TRUE(spurious);
  std::string text = CompareText(c, true);
  EXPECT_NE(text.find("waiting_ns"), std::string::npos) << text;
  EXPECT_NE(text.find("-15"), std::string::npos) << text;
  EXPECT_NE(CompareHtml(c).find("<svg"), std::string::npos);
  EXPECT_NE(CompareJson(c).Find("metrics"), nullptr);
}

TEST(ReportJson, PacketStatsPerNameAndQueue) {
  FullReport r([](const auto& path) { return hand_trace::WriteNamedPacketTrace(path); });
  const ReportData& d = r.data;
  const Json& j = r.json;
  ASSERT_EQ(FindPath(j, "packet_stats")->size(), 3u);
  // gfx draw {10, 20, 30, 10, 40}, gfx blit {5, 10}, copy draw {7}: by total descending
  EXPECT_EQ(Str(j, "packet_stats[0].name"), "draw");
  EXPECT_EQ(Str(j, "packet_stats[0].queue"), "gfx");
  EXPECT_EQ(At(j, "packet_stats[0].count"), 5);
  EXPECT_EQ(At(j, "packet_stats[0].total_ns"), 110);
  EXPECT_DOUBLE_EQ(At(j, "packet_stats[0].mean_ns"), 22.0);
  EXPECT_EQ(At(j, "packet_stats[0].p50_ns"), 20);
  EXPECT_EQ(At(j, "packet_stats[0].p99_ns"), 40);
  EXPECT_EQ(At(j, "packet_stats[0].max_ns"), 40);
  EXPECT_EQ(Str(j, "packet_stats[1].name"), "blit");
  EXPECT_EQ(At(j, "packet_stats[1].total_ns"), 15);
  EXPECT_EQ(Str(j, "packet_stats[2].queue"), "copy");
  EXPECT_EQ(At(j, "packet_stats[2].total_ns"), 7);
  // the HTML table is sortable in the page and lists the same rows; so does the Markdown one
  std::string html = ReportHtml(d);
  EXPECT_TRUE(Contains(html, "id=\"packets\""));
  EXPECT_TRUE(Contains(html, "<table class=\"sortable\">"));
  EXPECT_TRUE(Contains(html, "<td class=\"name\">draw</td><td class=\"nowrap\">gfx</td>"
                             "<td data-v=\"5\">5</td><td data-v=\"110\">"));
  EXPECT_TRUE(Contains(html, "<td class=\"name\">blit</td><td class=\"nowrap\">gfx</td>"
                             "<td data-v=\"2\">2</td>"));
  EXPECT_TRUE(Contains(html, "addEventListener('click'"));
  EXPECT_FALSE(Contains(html, "<script src"));  // one self-contained file
  std::string md = ReportMarkdown(d);
  EXPECT_TRUE(Contains(md, "## Packets by name"));
  EXPECT_TRUE(Contains(md, "| draw | gfx | 5 |"));
  EXPECT_TRUE(Contains(md, "| draw | copy | 1 |"));
}

TEST(ReportJson, CriticalPathStepsCarryPacketNames) {
  FullReport r([](const auto& path) { return hand_trace::WriteNamedPathTrace(path); });
  const ReportData& d = r.data;
  const Json& j = r.json;
  ASSERT_EQ(FindPath(j, "critical_path.steps")->size(), 4u);
  // submit upload, run upload, the 3d queue's wait released by upload's completion, run draw
  EXPECT_EQ(Str(j, "critical_path.steps[0].kind"), "submit");
  EXPECT_EQ(Str(j, "critical_path.steps[0].name"), "upload");
  EXPECT_EQ(Str(j, "critical_path.steps[1].name"), "upload");
  EXPECT_EQ(Str(j, "critical_path.steps[2].kind"), "gpu_wait");
  EXPECT_EQ(Str(j, "critical_path.steps[2].name"), "upload");
  EXPECT_EQ(Str(j, "critical_path.steps[3].name"), "draw");
  std::string html = ReportHtml(d);
  EXPECT_TRUE(Contains(html, "<td>gpu_wait</td><td>3d</td>"));
  EXPECT_TRUE(Contains(html, "<td>10 ns</td><td class=\"name\">upload</td><td>f = 1</td>")) << html;
  std::string md = ReportMarkdown(d);
  EXPECT_TRUE(Contains(md, "| gpu_wait | 3d | 50 ns | 10 ns | upload |")) << md;
  EXPECT_TRUE(Contains(md, "| run | 3d | 60 ns | 40 ns | draw |")) << md;
}

// Trace A has packets, signals and waits only, the way a CUDA/Kineto import does: no interrupt,
// log-buffer, background (PGO) or preemption records.
TEST(ReportSections, LeftOutWhenTheTraceHasNoRecordsOfThem) {
  FullReport r([](const auto& path) { return hand_trace::WriteTraceA(path); });
  const ReportData& d = r.data;
  const Json& j = r.json;
  EXPECT_TRUE(Strings(*FindPath(j, "sections_present")).empty());
  for (const char* key : {"interrupts", "log_buffers", "background", "preemption", "pgo_series",
                          "interrupt_rate", "preemption_latency"}) {
    EXPECT_NE(j.Find(key), nullptr) << key;  // the JSON keeps its keys
  }
  std::string html = ReportHtml(d);
  for (const char* gone : {"id=\"interrupts\"", "id=\"pgo\"", "id=\"preemption\"",
                           "href=\"#interrupts\"", "href=\"#pgo\"", "href=\"#preemption\"",
                           "<td>log overruns</td>", "<td>interrupts (spurious)</td>",
                           "data missing (overrun)"}) {
    EXPECT_FALSE(Contains(html, gone)) << gone;
  }
  for (const char* kept : {"id=\"summary\"", "id=\"queues\"", "id=\"packets\"", "id=\"latency\"",
                           "id=\"critical-path\"", "id=\"findings\""}) {
    EXPECT_TRUE(Contains(html, kept)) << kept;
  }
  std::string md = ReportMarkdown(d);
  for (const char* gone : {"## PGO convergence", "## Preemption", "| interrupts |",
                           "| log overruns |"}) {
    EXPECT_FALSE(Contains(md, gone)) << gone;
  }
}

// The report trace adds an interrupt, a log overrun and a mode change to trace A: those
// sections are shown, preemption (no records) is not.
TEST(ReportSections, ShownWhenTheTraceHasRecordsOfThem) {
  FullReport r([](const auto& path) { return hand_trace::WriteReportTrace(path); });
  const ReportData& d = r.data;
  const Json& j = r.json;
  EXPECT_EQ(Strings(*FindPath(j, "sections_present")),
            (std::vector<std::string>{"interrupts", "log_buffers", "background"}));
  std::string html = ReportHtml(d);
  for (const char* kept : {"id=\"interrupts\"", "id=\"pgo\"", "href=\"#interrupts\"",
                           "<td>log overruns</td>", "<td>interrupts (spurious)</td>",
                           "data missing (overrun)"}) {
    EXPECT_TRUE(Contains(html, kept)) << kept;
  }
  EXPECT_FALSE(Contains(html, "id=\"preemption\""));
  std::string md = ReportMarkdown(d);
  EXPECT_TRUE(Contains(md, "## PGO convergence"));
  EXPECT_TRUE(Contains(md, "| interrupts | 1 |"));
  EXPECT_TRUE(Contains(md, "| log overruns | 1 |"));
  EXPECT_FALSE(Contains(md, "## Preemption"));
}

TEST(ReportHtml, LongPacketNamesAreShortenedWithTheWholeNameAsTooltip) {
  // 200 bytes -> the first 160 and an ellipsis; a two-byte character across byte 160 is not cut
  EXPECT_EQ(ShortenName(std::string(200, 'a')), std::string(160, 'a') + "\u2026");
  EXPECT_EQ(ShortenName(std::string(159, 'a') + "\u00e9" + "b"), std::string(159, 'a') + "\u2026");
  EXPECT_EQ(ShortenName("draw"), "draw");
  FullReport r([](const auto& path) {
    hand_trace::HandTrace t(path);
    auto q = t.Queue("gfx");
    t.Packet(q, t.Thread("main"), 1, 0, 10, 20, 0, t.Name(std::string(300, 'k')));
    return t.Finish(0, 30);
  });
  const std::string html = ReportHtml(r.data);
  EXPECT_TRUE(Contains(html, "<td class=\"name\" title=\"" + std::string(300, 'k') + "\">" +
                                 std::string(160, 'k') + "\u2026</td>"));
  EXPECT_TRUE(Contains(ReportMarkdown(r.data), "| " + std::string(160, 'k') + "\u2026 | gfx |"));
}

// A queue with no packet and no wait (a CUDA stream whose events were only waited on) is named
// once in the text reports, not given a row of zeros per table; the JSON keeps it. The trace:
// "gfx" runs one packet [10, 20]; "idle stream" and "other idle" carry nothing; nothing waits.
TEST(ReportText, QueuesThatDidNothingAreNamedOnceAndPairsSayNone) {
  FullReport r([](const auto& path) {
    hand_trace::HandTrace t(path);
    auto gfx = t.Queue("gfx");
    t.Queue("idle stream", core::model::QueueType::kCompute);
    t.Queue("other idle", core::model::QueueType::kCompute);
    t.Packet(gfx, t.Thread("main"), 1, 0, 10, 20);
    return t.Finish(0, 30);
  });
  const std::string sentence =
      "2 queues did nothing in the capture (no packet, no wait; left out of the per-queue "
      "tables): idle stream, other idle.";
  EXPECT_EQ(r.data.QuietQueuesSentence(), sentence);
  const std::string md = ReportMarkdown(r.data);
  EXPECT_TRUE(Contains(md, sentence)) << md;
  EXPECT_FALSE(Contains(md, "| idle stream |")) << md;
  EXPECT_TRUE(Contains(md, "| gfx | 1 | 1 | 1 | 0 |")) << md;
  EXPECT_TRUE(Contains(md, "### Queue pairs\n\nNo queue was held by a wait in this trace.")) << md;
  const std::string html = ReportHtml(r.data);
  EXPECT_TRUE(Contains(html, "<p>" + sentence + "</p>"));
  EXPECT_FALSE(Contains(html, ">idle stream</td>")) << html;
  EXPECT_TRUE(Contains(html, "<p>No queue was held by a wait in this trace.</p>"));
  EXPECT_EQ(FindPath(r.json, "queues")->size(), 3u);  // the JSON keeps every queue
}

// A thread already named "thread 12 (main)" (as the Kineto importer names them) is not called
// "thread thread 12 (main)" on the critical path's tracks.
TEST(ReportText, ThreadTrackNamesDoNotRepeatThread) {
  FullReport r([](const auto& path) {
    hand_trace::HandTrace t(path);
    t.Thread("thread 12 (main)");
    t.Thread("render");
    t.Packet(t.Queue("gfx"), 1, 1, 0, 10, 20);
    return t.Finish(0, 30);
  });
  EXPECT_EQ(r.data.TrackName(0, 1), "thread 12 (main)");
  EXPECT_EQ(r.data.TrackName(0, 2), "thread render");
}

// A legend wider than its chart wraps onto more lines (the chart grows to hold them) instead of
// running off the right edge: every entry's text starts inside the chart.
TEST(SvgChart, LongLegendsWrapInsideTheChart) {
  const std::vector<std::string> labels = {"waiting_on_fence", "preempted", "nothing_submitted",
                                           "submitted_not_running", "launch_bound",
                                           "synchronised"};
  const std::vector<std::string> colours(labels.size(), "#888");
  const std::string one_row = SvgStackedBars("t", {"a"}, {"#888"}, {{"q", {1.0}}}, "ns", 720);
  const std::string svg = SvgStackedBars("t", labels, colours, {{"q", {1, 1, 1, 1, 1, 1}}}, "ns", 720);
  auto height = [](const std::string& s) {
    const size_t at = s.find("height=\"") + 8;
    return std::stoi(s.substr(at, s.find('"', at) - at));
  };
  EXPECT_EQ(height(svg), height(one_row) + 16);  // 160 + the entries' widths needs two lines
  for (const std::string& label : labels) {
    const size_t text = svg.find(">" + label + "</text>");
    ASSERT_NE(text, std::string::npos) << label;
    const size_t x_at = svg.rfind("<text x=\"", text) + 9;
    EXPECT_LT(std::stoi(svg.substr(x_at)), 720) << label;
  }
}

// The per-queue overview gives a row to a thread that is on the critical path even when it
// never waited (a launching thread), named once as "thread <name>".
TEST(ReportHtml, OverviewShowsThreadsOnTheCriticalPath) {
  FullReport r([](const auto& path) {
    hand_trace::HandTrace t(path);
    t.Packet(t.Queue("stream"), t.Thread("launcher"), 1, 100, 110, 190);
    return t.Finish(0, 200);
  });
  const std::string html = ReportHtml(r.data);
  const size_t begin = html.find("<title>Per-queue timeline overview</title>");
  ASSERT_NE(begin, std::string::npos);
  const std::string overview = html.substr(begin, html.find("</svg>", begin) - begin);
  EXPECT_EQ(test_support::Occurrences(overview, ">thread launcher</text>"), 1u) << overview;
  EXPECT_EQ(test_support::Occurrences(overview, ">stream</text>"), 1u) << overview;
}
