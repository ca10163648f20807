// One definition per number, through the real binary on simulated traces: the per-queue packet
// counts say what they count and agree with the records; "signal executed -> unblocked" is the
// same figure in `stats`, `report` and `compare` and agrees with SQL over the records, split
// where the waiter reached the wait; the PGO mode in force after a refused call, one answer for
// FurtherMeasurementsDesired, the interrupt peak rate, and the interrupt-rate axis in time
// units. Expected values come from SQL over the per-kind views (schemas/event_kinds.sql) or
// from the records read by hand, never from the analysis code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/report/fail_if.h"
#include "core/store/query.h"
#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

using core::report::FindPath;
using core::report::Json;
using namespace test_support;  // NOLINT

namespace {

std::filesystem::path Simulate(const ScratchDir& dir, const std::string& scenario) {
  return SimulateTrace(dir / (scenario + ".db"), scenario);
}

// `report TRACE -o DIR/FILE` (the format follows the extension), and the file it wrote.
std::string ReportFile(const ScratchDir& dir, const std::filesystem::path& trace,
                       const std::string& file) {
  auto r = RunFencescope("report " + Quote(trace) + " -o " + Quote(dir / file));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return ReadFile(dir / file);
}

// `report TRACE --format json`, parsed.
Json ReportJsonOf(const std::filesystem::path& trace) {
  return RunFencescopeJson("report " + Quote(trace) + " --format json");
}



std::string Str(const Json& j, const std::string& key) {
  const Json* v = j.Find(key);
  EXPECT_NE(v, nullptr) << key;
  return v ? v->String() : std::string("(missing)");
}

std::vector<std::vector<std::string>> Rows(const std::filesystem::path& trace,
                                           const std::string& sql) {
  return core::store::RunQuery(trace, sql).rows;
}

int64_t SqlCount(const std::filesystem::path& trace, const std::string& sql) {
  return std::stoll(Rows(trace, sql).at(0).at(0));
}

std::vector<int64_t> SqlValues(const std::filesystem::path& trace, const std::string& sql) {
  std::vector<int64_t> out;
  for (const auto& row : Rows(trace, sql)) out.push_back(std::stoll(row.at(0)));
  std::sort(out.begin(), out.end());
  return out;
}

// Nearest rank: the sample at rank ceil(p / 100 * n).
int64_t NearestRank(const std::vector<int64_t>& sorted, double p) {
  auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
  return sorted.at(std::clamp<size_t>(rank, 1, sorted.size()) - 1);
}

}  // namespace

// Regression: the Graphics queue had 90 packets in stats and the report, 88 in the window and
// 87 packet_completed rows, with nothing saying which was which.
TEST(OneDefinition, PerQueuePacketCountsSayWhatTheyCount) {
  ScratchDir dir;
  auto trace = Simulate(dir, "default");
  Json stats = RunFencescopeJson("stats --json " + Quote(trace));
  Json report = ReportJsonOf(trace);
  const Json* queues = stats.Find("queues");
  ASSERT_NE(queues, nullptr);
  ASSERT_EQ(queues->size(), static_cast<size_t>(SqlCount(trace, "SELECT COUNT(*) FROM queues")));
  bool some_queue_differs = false;
  for (size_t i = 0; i < queues->size(); ++i) {
    const std::string name = queues->items()[i].Find("name")->String();
    const std::string id = Rows(trace, "SELECT q.id FROM queues q JOIN strings s ON s.id = "
                                       "q.name_sid WHERE s.value = '" + name + "'")
                               .at(0)
                               .at(0);
    const std::string where = " WHERE queue_id = " + id;
    const std::string q = "queues[" + std::to_string(i) + "].";
    const int64_t submitted = SqlCount(trace, "SELECT COUNT(*) FROM packet_submitted" + where);
    const int64_t started = SqlCount(trace, "SELECT COUNT(*) FROM packet_started" + where);
    const int64_t completed = SqlCount(trace, "SELECT COUNT(*) FROM packet_completed" + where);
    // started, and neither completed, preempted nor lost in a TDR before the end
    const int64_t running = SqlCount(
        trace, "SELECT COUNT(*) FROM packet_started s" + where +
                   " AND NOT EXISTS (SELECT 1 FROM packet_completed c WHERE c.queue_id = "
                   "s.queue_id AND c.packet_id = s.packet_id) AND NOT EXISTS (SELECT 1 FROM "
                   "packet_preempted p WHERE p.queue_id = s.queue_id AND p.packet_id = "
                   "s.packet_id) AND NOT EXISTS (SELECT 1 FROM tdr t WHERE t.queue_id = "
                   "s.queue_id)");
    EXPECT_EQ(IntAt(stats, q + "packets_submitted"), submitted) << name;
    EXPECT_EQ(IntAt(stats, q + "packets"), submitted) << name << ": packets is the submitted count";
    EXPECT_EQ(IntAt(stats, q + "packets_started"), started) << name;
    EXPECT_EQ(IntAt(stats, q + "packets_completed"), completed) << name;
    EXPECT_EQ(IntAt(stats, q + "packets_running_at_end"), running) << name;
    EXPECT_EQ(IntAt(stats, q + "signals_executed"),
              SqlCount(trace, "SELECT COUNT(*) FROM fence_signal_executed" + where))
        << name;
    EXPECT_EQ(IntAt(stats, q + "waits_unblocked"),
              SqlCount(trace, "SELECT COUNT(*) FROM fence_wait_unblocked" + where))
        << name;
    for (const char* key : {"packets", "packets_submitted", "packets_started",
                            "packets_completed", "packets_running_at_end"}) {
      EXPECT_EQ(IntAt(report, q + key), IntAt(stats, q + key)) << name << " " << key;
    }
    some_queue_differs |= submitted != completed;
  }
  EXPECT_TRUE(some_queue_differs) << "the default scenario ends with packets in flight";
  // The text output labels the columns with what they count.
  auto text = RunFencescope("stats " + Quote(trace));
  for (const char* label : {"submitted", "started", "completed", "at end"}) {
    EXPECT_NE(text.out.find(label), std::string::npos) << label;
  }
  EXPECT_NE(ReportFile(dir, trace, "r.md").find(
                "| queue | packets submitted | started | completed | running at the end |"),
            std::string::npos);
}

// Regression: signal executed -> unblocked for GPU waits was 0 ns median in the report
// (measured from the later of signal executed and wait queued) against 473 us in the window and
// by SQL, and the report called it "the OS / interrupt path".
TEST(OneDefinition, SignalExecutedToUnblockedIsOneFigureEverywhere) {
  ScratchDir dir;
  auto trace = Simulate(dir, "default");
  Json report = ReportJsonOf(trace);
  const std::string join =
      " FROM fence_wait_unblocked u JOIN fence_signal_executed s ON s.signal_id = "
      "u.released_by_signal_id";
  std::vector<int64_t> to_unblock = SqlValues(trace, "SELECT u.ts_ns - s.ts_ns" + join);
  ASSERT_GT(to_unblock.size(), 100u);
  EXPECT_EQ(IntAt(report, "latency.gpu.to_unblock.count"), static_cast<int64_t>(to_unblock.size()));
  EXPECT_EQ(IntAt(report, "latency.gpu.to_unblock.p50_ns"), NearestRank(to_unblock, 50));
  EXPECT_EQ(IntAt(report, "latency.gpu.to_unblock.p90_ns"), NearestRank(to_unblock, 90));
  EXPECT_EQ(IntAt(report, "latency.gpu.to_unblock.max_ns"), to_unblock.back());
  EXPECT_GT(IntAt(report, "latency.gpu.to_unblock.p50_ns"), 0);
  // Split at the time the GPU reached the wait (observed_ns, recorded by the simulator): the
  // queue still busy before, then wait reached -> unblocked.
  const std::string reached = "MIN(MAX(u.observed_ns, s.ts_ns), u.ts_ns)";
  std::vector<int64_t> before = SqlValues(trace, "SELECT " + reached + " - s.ts_ns" + join);
  std::vector<int64_t> after = SqlValues(trace, "SELECT u.ts_ns - " + reached + join);
  EXPECT_EQ(IntAt(report, "latency.gpu.to_unblock_before_reached.count"),
            static_cast<int64_t>(before.size()));
  EXPECT_EQ(IntAt(report, "latency.gpu.to_unblock_before_reached.p50_ns"), NearestRank(before, 50));
  EXPECT_EQ(IntAt(report, "latency.gpu.to_unblock_before_reached.p90_ns"), NearestRank(before, 90));
  EXPECT_EQ(IntAt(report, "latency.gpu.to_unblock_after_reached.p90_ns"), NearestRank(after, 90));
  EXPECT_EQ(IntAt(report, "latency.gpu.to_unblock_after_reached.max_ns"), after.back());
  // stats names and computes it the same way.
  Json stats = RunFencescopeJson("stats --json " + Quote(trace));
  for (const char* key :
       {"latency.gpu.to_unblock.p50_ns", "latency.gpu.to_unblock_before_reached.p50_ns",
        "latency.gpu.to_unblock_after_reached.p99_ns", "latency.cpu.to_unblock.p50_ns"}) {
    EXPECT_EQ(IntAt(stats, key), IntAt(report, key)) << key;
  }
  // compare carries the same keys.
  auto compare = RunFencescope("compare " + Quote(trace) + " " + Quote(trace) + " --format json");
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_NE(compare.out.find("latency.gpu.to_unblock_before_reached.p50_ns"), std::string::npos);
  // The report's words: no "OS / interrupt path" for the whole interval.
  const std::string page = ReportFile(dir, trace, "r.html");
  EXPECT_EQ(page.find("unblocked (the OS / interrupt path)"), std::string::npos);
  EXPECT_NE(page.find("waiter not there yet"), std::string::npos);
  EXPECT_NE(page.find("GPU queue still running earlier packets"), std::string::npos);
}

// Regression: pgo_no_developer_mode showed the refused mode as the mode in force.
TEST(OneDefinition, RefusedModeCallsLeaveThePreviousModeInForce) {
  ScratchDir dir;
  auto trace = Simulate(dir, "pgo_no_developer_mode");
  Json report = ReportJsonOf(trace);
  const char* kModes[] = {"allowed", "allow_intrusive_measurements", "disable_background_work",
                          "disable_profiling_by_system"};
  auto calls = Rows(trace, "SELECT result, mode FROM mode_changed ORDER BY ts_ns, event_id");
  const Json* passes = report.Find("pgo_series");
  ASSERT_NE(passes, nullptr);
  ASSERT_EQ(passes->size(), calls.size());
  std::string in_force = "allowed";  // the default until a call is accepted
  int refused = 0;
  for (size_t i = 0; i < calls.size(); ++i) {
    const std::string asked = kModes[std::stoi(calls[i][1])];
    if (calls[i][0] == "0") in_force = asked;
    else ++refused;
    const Json& pass = passes->items()[i];
    EXPECT_EQ(Str(pass, "mode"), in_force) << "pass " << i;
    EXPECT_EQ(Str(pass, "requested_mode"), asked) << "pass " << i;
  }
  ASSERT_GT(refused, 0);
  EXPECT_NE(ReportFile(dir, trace, "p.html").find("<td>allowed (refused disable_background_work)</td>"),
            std::string::npos);
}

// Regression: the default report said FurtherMeasurementsDesired "unknown" in its text and
// "no" in its table (no SetBackgroundProcessingMode call returned it).
TEST(OneDefinition, FurtherMeasurementsDesiredHasOneAnswer) {
  ScratchDir dir;
  auto trace = Simulate(dir, "default");
  ASSERT_EQ(SqlCount(trace, "SELECT COUNT(*) FROM mode_changed"), 0);
  Json report = ReportJsonOf(trace);
  const Json* passes = report.Find("pgo_series");
  ASSERT_NE(passes, nullptr);
  ASSERT_GT(passes->size(), 0u);
  for (size_t i = 0; i < passes->size(); ++i) {
    EXPECT_EQ(IntAt(report, "pgo_series[" + std::to_string(i) + "].further_measurements_desired_known"),
              0);
  }
  const std::string page = ReportFile(dir, trace, "r.html");
  size_t cells = 0;
  for (size_t at = page.find("<td>unknown</td>"); at != std::string::npos;
       at = page.find("<td>unknown</td>", at + 1)) {
    ++cells;
  }
  EXPECT_EQ(cells, passes->size());
  const std::string md = ReportFile(dir, trace, "r.md");
  const size_t pgo = md.find("## PGO convergence");
  ASSERT_NE(pgo, std::string::npos);
  const std::string table = md.substr(pgo, md.find("\n## ", pgo + 1) - pgo);
  EXPECT_NE(table.find("| unknown |"), std::string::npos);
  EXPECT_EQ(table.find("| no |"), std::string::npos);
}

// Peak rate: the most interrupts in any 1 ms window beginning at an interrupt, by SQL.
// The HTML chart's time axis is labelled in time units, not raw nanoseconds (regression: it
// read 300000, 8100000, ...).
TEST(OneDefinition, InterruptPeakRateAndTheRateAxisInTimeUnits) {
  ScratchDir dir;
  auto trace = Simulate(dir, "default");
  Json report = ReportJsonOf(trace);
  const std::string window =
      "SELECT MAX(n) FROM (SELECT (SELECT COUNT(*) FROM interrupt j WHERE j.ts_ns >= i.ts_ns AND "
      "j.ts_ns < i.ts_ns + 1000000{}) AS n FROM interrupt i{})";
  auto peak = [&](const std::string& same_adapter, const std::string& of_adapter) {
    std::string sql = window;
    sql.replace(sql.find("{}"), 2, same_adapter);
    sql.replace(sql.find("{}"), 2, of_adapter);
    return SqlCount(trace, sql);
  };
  EXPECT_EQ(IntAt(report, "interrupts.peak_per_ms"), peak("", ""));
  const Json* adapters = FindPath(report, "interrupt_rate.per_adapter");
  ASSERT_NE(adapters, nullptr);
  ASSERT_GT(adapters->size(), 0u);
  for (const Json& a : adapters->items()) {
    const std::string id = Rows(trace, "SELECT a.id FROM adapters a JOIN strings s ON s.id = "
                                       "a.name_sid WHERE s.value = '" +
                                           a.Find("adapter")->String() + "'")
                               .at(0)
                               .at(0);
    EXPECT_EQ(IntAt(a, "peak_per_ms"),
              peak(" AND j.adapter_id = i.adapter_id", " WHERE i.adapter_id = " + id))
        << a.Find("adapter")->String();
  }
  const std::string page = ReportFile(dir, trace, "r.html");
  const size_t chart = page.find("Interrupt rate over time");
  ASSERT_NE(chart, std::string::npos);
  const std::string svg = page.substr(chart, page.find("</svg>", chart) - chart);
  size_t ms_labels = 0;
  for (size_t at = svg.find("text-anchor=\"middle\">"); at != std::string::npos;
       at = svg.find("text-anchor=\"middle\">", at + 1)) {
    const size_t from = at + std::string("text-anchor=\"middle\">").size();
    const std::string label = svg.substr(from, svg.find('<', from) - from);
    EXPECT_TRUE(label.find(" ms") != std::string::npos || label.find(" us") != std::string::npos ||
                label == "0 ns")
        << label;
    ms_labels += label.find(" ms") != std::string::npos;
  }
  EXPECT_GT(ms_labels, 2u);
}
