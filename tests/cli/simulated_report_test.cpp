// stats and report on traces written by `fencescope simulate`: the figures must agree with the
// records (counted here with SQL, independently of the analysis code) and with the seeds' rules.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <set>

#include "core/report/fail_if.h"
#include "core/report/report_data.h"
#include "core/report/report_json.h"
#include "core/store/query.h"
#include "tests/support/packet_stats_sql.h"
#include "tests/support/test_support.h"

using namespace core::report;
using test_support::Quote;
using test_support::ReadFile;
using test_support::RunFencescope;
using test_support::At;
using test_support::ScratchDir;

namespace {

void Simulate(const std::string& scenario, const std::filesystem::path& out,
              const std::string& extra = "") {
  test_support::SimulateTrace(out, scenario + " " + extra);
}

int64_t SqlCount(const std::filesystem::path& trace, const std::string& sql) {
  auto result = core::store::RunQuery(trace, sql);
  return std::stoll(result.rows.at(0).at(0));
}

// The report JSON (full: with the latency, path and gap analyses) of `scenario` simulated into
// `trace`.
Json SimulatedReportJson(const std::string& scenario, const std::filesystem::path& trace,
                         bool full = false) {
  Simulate(scenario, trace);
  auto store = core::store::LoadTrace(trace);
  return ReportJson(AnalyseTrace(store, full));
}

}  // namespace

TEST(SimulatedReport, DefaultScenarioStatsAgreeWithTheRecords) {
  ScratchDir dir;
  auto trace = dir / "default.db";
  Simulate("default", trace);
  auto store = core::store::LoadTrace(trace);
  ReportData d = AnalyseTrace(store, true);
  Json j = ReportJson(d);
  EXPECT_EQ(j.Find("source")->String(), "simulator");
  EXPECT_EQ(At(j, "events"), SqlCount(trace, "SELECT COUNT(*) FROM events"));
  EXPECT_EQ(At(j, "fences.objects"), SqlCount(trace, "SELECT COUNT(*) FROM fences"));
  EXPECT_EQ(At(j, "fences.signals_executed"),
            SqlCount(trace, "SELECT COUNT(*) FROM fence_signal_executed"));
  EXPECT_EQ(At(j, "fences.gpu_waits_queued"),
            SqlCount(trace, "SELECT COUNT(*) FROM fence_wait_queued"));
  EXPECT_EQ(At(j, "interrupts.total"), SqlCount(trace, "SELECT COUNT(*) FROM interrupt"));
  EXPECT_EQ(At(j, "interrupts.spurious"),
            SqlCount(trace, "SELECT COUNT(*) FROM interrupt WHERE waiters_released = 0 AND "
                            "(interrupt_flags & 15) != 3"));
  EXPECT_EQ(At(j, "log_buffers.entries_written"), SqlCount(trace, "SELECT COUNT(*) FROM log_write"));
  // Open waits (no unblock / release record) whose value the fence's CurrentValue at the end
  // (wait_pending_at_end.current_value) had reached are unprocessed at the end; every open
  // wait is in exactly one category (SimulatedOpenWaits checks the others against longer runs).
  const std::string open_gpu =
      "FROM fence_wait_queued q JOIN wait_pending_at_end p ON p.queue_id = q.queue_id AND "
      "p.wait_id = q.wait_id WHERE NOT EXISTS (SELECT 1 FROM fence_wait_unblocked u WHERE "
      "u.wait_id = q.wait_id)";
  const std::string open_cpu =
      "FROM cpu_wait_begin b JOIN wait_pending_at_end p ON p.thread_id = b.thread_id AND "
      "p.wait_id = b.waiter_id WHERE NOT EXISTS (SELECT 1 FROM cpu_wait_released r WHERE "
      "r.waiter_id = b.waiter_id) AND NOT EXISTS (SELECT 1 FROM cpu_wait_withdrawn w WHERE "
      "w.waiter_id = b.waiter_id)";
  EXPECT_EQ(
      At(j, "fences.waits_unprocessed_at_end"),
      SqlCount(trace, "SELECT COUNT(*) " + open_gpu + " AND p.current_value >= q.fence_value") +
          SqlCount(trace, "SELECT COUNT(*) " + open_cpu + " AND p.current_value >= b.fence_value"));
  EXPECT_EQ(SqlCount(trace,
                     "SELECT COUNT(*) FROM fence_wait_queued q WHERE NOT EXISTS (SELECT 1 "
                     "FROM fence_wait_unblocked u WHERE u.wait_id = q.wait_id)"),
            SqlCount(trace, "SELECT COUNT(*) " + open_gpu));
  EXPECT_EQ(SqlCount(trace, "SELECT COUNT(*) " + open_gpu) +
                SqlCount(trace, "SELECT COUNT(*) " + open_cpu),
            At(j, "fences.waits_never_unblocked") + At(j, "fences.waits_unprocessed_at_end") +
                At(j, "fences.waits_pending_at_end") + At(j, "fences.waits_signal_not_in_capture") +
                At(j, "fences.waits_stuck_after_rewind"));
  // each queue's busy + waiting + idle is the trace span, and packets match the records
  const Json& queues = *j.Find("queues");
  ASSERT_EQ(queues.size(), static_cast<size_t>(SqlCount(trace, "SELECT COUNT(*) FROM queues")));
  for (size_t q = 0; q < queues.size(); ++q) {
    const Json& queue = queues.items()[q];
    EXPECT_EQ(queue.Find("busy_ns")->Int() + queue.Find("waiting_ns")->Int() +
                  queue.Find("idle_ns")->Int(),
              At(j, "duration_ns"))
        << queue.Find("name")->String();
    EXPECT_EQ(queue.Find("packets")->Int(),
              SqlCount(trace, "SELECT COUNT(*) FROM packet_submitted WHERE queue_id = " +
                                  std::to_string(q + 1)));
  }
  // the critical path ends at the latest packet completion, or at the trace end when a packet
  // was still running then; its shares add up to one
  int64_t running = SqlCount(trace, "SELECT COUNT(*) FROM packet_started s WHERE NOT EXISTS "
                                    "(SELECT 1 FROM packet_completed c WHERE c.packet_id = "
                                    "s.packet_id)");
  int64_t last_end = running > 0 ? std::stoll(store.MetaOr("end_ns", "0"))
                                 : SqlCount(trace, "SELECT MAX(ts_ns) FROM packet_completed");
  EXPECT_EQ(At(j, "critical_path.end_ns"), last_end);
  double total = 0;
  for (const Json& share : j.Find("critical_path")->Find("shares")->items()) {
    total += share.Find("share")->Number();
  }
  EXPECT_NEAR(total, 1.0, 1e-9);
  EXPECT_EQ(d.recon.Problem("wait_unlinked"), 0u);
  EXPECT_EQ(d.recon.Problem("signal_executed_without_queued"), 0u);
}

TEST(SimulatedReport, NativeHasFewerInterruptsThanMonitoredAndCompareShowsIt) {
  ScratchDir dir;
  Simulate("default", dir / "native.db", "--fence-mode native");
  Simulate("default", dir / "monitored.db", "--fence-mode monitored");
  auto native = core::store::LoadTrace(dir / "native.db");
  auto monitored = core::store::LoadTrace(dir / "monitored.db");
  Json jn = StatsJson(AnalyseTrace(native, false));
  Json jm = StatsJson(AnalyseTrace(monitored, false));
  // seed 003: native fences interrupt only for CPU waiters; monitored fences on every signal
  EXPECT_LT(At(jn, "interrupts.total"), At(jm, "interrupts.total"));
  EXPECT_DOUBLE_EQ(At(jm, "interrupts.per_signal"), 1.0);
  // spurious = fence interrupts that released nobody, as the records count them
  EXPECT_EQ(At(jm, "interrupts.spurious"),
            SqlCount(dir / "monitored.db", "SELECT COUNT(*) FROM interrupt WHERE "
                                           "waiters_released = 0 AND (interrupt_flags & 15) != 3"));
  // monitored: every GPU wait is held on the CPU and released through its signal's interrupt
  int64_t held = SqlCount(dir / "monitored.db",
                          "SELECT COUNT(*) FROM fence_wait_unblocked WHERE wait_path = 1");
  EXPECT_GT(held, 0);
  auto c = RunFencescope("compare " + Quote(dir / "native.db") + " " + Quote(dir / "monitored.db"));
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("interrupts.total"), std::string::npos) << c.out;
}

TEST(SimulatedReport, NativeAndMonitoredRunsShareTheirTimeOrigin) {
  ScratchDir dir;
  Simulate("default", dir / "native.db", "--fence-mode native");
  Simulate("default", dir / "monitored.db", "--fence-mode monitored");
  // The monitored run records nothing before its first thread starts (native fences record their
  // initial MonitoredValue at 0), yet both runs start at the simulated clock's 0.
  EXPECT_GT(SqlCount(dir / "monitored.db", "SELECT min(ts_ns) FROM events"), 0);
  for (const char* trace : {"native.db", "monitored.db"}) {
    EXPECT_EQ(SqlCount(dir / trace, "SELECT value FROM meta WHERE key = 'start_ns'"), 0) << trace;
  }
  auto native = core::store::LoadTrace(dir / "native.db");
  auto monitored = core::store::LoadTrace(dir / "monitored.db");
  Json jn = StatsJson(AnalyseTrace(native, false));
  Json jm = StatsJson(AnalyseTrace(monitored, false));
  EXPECT_EQ(At(jn, "start_ns"), 0);
  EXPECT_EQ(At(jm, "start_ns"), 0);
  EXPECT_EQ(At(jn, "duration_ns"), At(jm, "duration_ns"));
  // So compare puts the same span side by side and compares the figures as they are.
  auto c = RunFencescope("compare " + Quote(dir / "native.db") + " " + Quote(dir / "monitored.db") +
                         " --format json");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.out.find("\"rates\": false"), std::string::npos) << c.out.substr(0, 400);
}

TEST(SimulatedReport, NeverSignalledScenarioTripsTheGateAndNamesTheFence) {
  ScratchDir dir;
  auto trace = dir / "never.db";
  Simulate("never_signalled", trace);
  auto gate = RunFencescope("report " + Quote(trace) + " -o " + Quote(dir / "r.html") +
                            " --fail-if 'fences.waits_never_unblocked > 0'");
  EXPECT_EQ(gate.exit_code, 3) << gate.err;
  std::string html = ReadFile(dir / "r.html");
  EXPECT_NE(html.find("never signalled"), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  auto pending = SqlCount(trace, "SELECT COUNT(*) FROM wait_pending_at_end");
  auto store = core::store::LoadTrace(trace);
  Json j = StatsJson(AnalyseTrace(store, false));
  EXPECT_EQ(At(j, "fences.waits_never_unblocked"), pending);
  EXPECT_EQ(At(j, "fences.waits_stuck"), pending);
  auto stuck = RunFencescope("report " + Quote(trace) + " --format json --fail-if " +
                             "'fences.waits_stuck > 0'");
  EXPECT_EQ(stuck.exit_code, 3) << stuck.err;
}

TEST(SimulatedReport, LogOverrunScenarioHasDataMissingWindows) {
  ScratchDir dir;
  auto trace = dir / "overrun.db";
  Json j = SimulatedReportJson("log_overrun", trace, true);
  EXPECT_EQ(At(j, "log_buffers.overruns"), SqlCount(trace, "SELECT COUNT(*) FROM log_overrun"));
  EXPECT_EQ(At(j, "log_buffers.entries_lost"),
            SqlCount(trace, "SELECT COALESCE(SUM(entries_lost), 0) FROM log_overrun"));
  EXPECT_GT(At(j, "log_buffers.overruns"), 0);
  EXPECT_EQ(At(j, "findings.overrun_windows"), At(j, "log_buffers.overruns"));
}

TEST(SimulatedReport, MissingRecordsAreCountedNeverFatal) {
  // Every third record of each of several scenarios deleted, as a lossy import or an overrun
  // might leave it: the report must still be produced, and what could not be paired or linked
  // must be counted.
  ScratchDir dir;
  for (const char* scenario : {"default", "cross_adapter", "async_compute_graphics"}) {
    auto trace = dir / (std::string(scenario) + ".db");
    Simulate(scenario, trace);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(trace.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DELETE FROM events WHERE rowid % 3 = 0", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    auto store = core::store::LoadTrace(trace);
    ReportData d = AnalyseTrace(store, true);
    uint64_t problems = 0;
    for (const auto& p : d.recon.problems) problems += p.count;
    EXPECT_GT(problems, 0u) << scenario;
    auto r = RunFencescope("report " + Quote(trace) + " -o " + Quote(dir / "lossy.html"));
    EXPECT_EQ(r.exit_code, 0) << scenario << ": " << r.err;
    EXPECT_NE(ReadFile(dir / "lossy.html").find("What could not be linked"), std::string::npos);
  }
}

TEST(SimulatedReport, BackgroundTasksStillRunningOrWaitingAtTheEndAreCounted) {
  ScratchDir dir;
  auto trace = dir / "default.db";
  Json j = SimulatedReportJson("default", trace);
  // Started, and neither finished, cancelled nor abandoned by the end: still running.
  const std::string ended =
      "SELECT task_id FROM task_finished UNION SELECT task_id FROM task_cancelled UNION SELECT "
      "task_id FROM task_abandoned";
  const int64_t running = SqlCount(trace, "SELECT COUNT(*) FROM task_started WHERE task_id NOT "
                                          "IN (" + ended + ")");
  EXPECT_EQ(At(j, "background.tasks_running_at_end"), running);
  EXPECT_GT(running, 0);  // the default scenario ends while a PGO task compiles
  EXPECT_EQ(At(j, "background.tasks_waiting_at_end"),
            SqlCount(trace, "SELECT COUNT(*) FROM task_queued WHERE task_id NOT IN (SELECT "
                            "task_id FROM task_started) AND task_id NOT IN (" + ended + ")"));
  // queued = finished + cancelled + abandoned + running + waiting
  EXPECT_EQ(At(j, "background.tasks_queued"),
            At(j, "background.tasks_finished") + At(j, "background.tasks_cancelled") +
                At(j, "background.tasks_abandoned") + running +
                At(j, "background.tasks_waiting_at_end"));
}

TEST(SimulatedReport, PreemptedPacketsAreCountedFromTheirRecords) {
  ScratchDir dir;
  auto trace = dir / "preemption.db";
  Json j = SimulatedReportJson("preemption", trace);
  EXPECT_EQ(At(j, "preemption.packets_preempted"),
            SqlCount(trace, "SELECT COUNT(DISTINCT packet_id) FROM packet_preempted"));
  EXPECT_EQ(At(j, "preemption.preemptions"),
            SqlCount(trace, "SELECT COUNT(*) FROM packet_preempted"));
}

// Per-name packet statistics against the records: the report's packet_stats must equal what
// tests/support/packet_stats_sql.h works out with SQL over the per-kind views (run = completed -
// started - time preempted), independently of core/analysis.
namespace {

void CheckPacketStatsAgainstSql(const std::string& scenario, bool expect_preemption) {
  ScratchDir dir;
  auto trace = dir / (scenario + ".db");
  Simulate(scenario, trace);
  auto expected = test_support::PacketStatsFromSql(trace);
  ASSERT_FALSE(expected.empty());
  if (expect_preemption) {
    ASSERT_GT(test_support::PreemptedCompletedPackets(trace), 0)
        << "the scenario should preempt packets that later complete";
  }
  auto store = core::store::LoadTrace(trace);
  Json j = ReportJson(AnalyseTrace(store, true));
  ASSERT_NE(j.Find("packet_stats"), nullptr);
  test_support::ExpectPacketStatsEqual(*j.Find("packet_stats"), expected);
}

}  // namespace

TEST(SimulatedReport, DefaultPacketStatsAgreeWithTheRecords) {
  CheckPacketStatsAgainstSql("default", false);
}

TEST(SimulatedReport, PreemptedPacketsCountRunTimeNotWallTime) {
  CheckPacketStatsAgainstSql("preemption", true);
}

// The simulated default has interrupt, log-buffer, background (PGO) and preemption records: its
// HTML report keeps those sections (they are left out only for traces without such records).
TEST(SimulatedReport, DefaultHtmlKeepsTheSectionsItsRecordsCallFor) {
  ScratchDir dir;
  auto trace = dir / "default.db";
  Simulate("default", trace);
  auto r = RunFencescope("report " + Quote(trace) + " -o " + Quote(dir / "d.html"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string html = ReadFile(dir / "d.html");
  for (const char* kept : {"id=\"interrupts\"", "id=\"pgo\"", "id=\"preemption\"",
                           "<td>log overruns</td>", "<td>interrupts (spurious)</td>",
                           "id=\"packets\""}) {
    EXPECT_NE(html.find(kept), std::string::npos) << kept;
  }
}

TEST(SimulatedReport, DefaultScenarioIdleGapsUnchangedByTheLaunchFigures) {
  // The simulator writes no cpu_launch flows, so the idle-gap attribution must be what it was
  // before launch-bound and synchronised time existed. Expected: the `report --format json`
  // idle_gaps of `simulate default` from commit 8f13915, the last one without them.
  struct Fence {
    const char* fence;
    const char* from;
    int64_t ns;
  };
  struct Expected {
    const char* name;
    int64_t waiting_on_fence, preempted, nothing_submitted, submitted_not_running, engine_busy;
    std::vector<Fence> waiting_on;
  };
  const std::vector<Expected> expected = {
      {"Graphics", 27884325, 0, 447642, 0, 0,
       {{"copyFence", "Copy", 500611}, {"computeFence", "Async compute", 24975700},
        {"streamFence", "Streaming copy", 2408014}}},
      {"Async compute", 15994270, 0, 19030030, 16798113, 16798113,
       {{"renderFence", "Graphics", 15994270}}},
      {"Background compute", 0, 0, 36865192, 0, 0, {}},
      {"Copy", 0, 0, 49161422, 1740960, 1740960, {}},
      {"Streaming copy", 1935838, 0, 41898892, 1518848, 1518848,
       {{"streamConsumedFence", "Graphics", 1935838}}},
      {"Compositor", 53051213, 0, 2054420, 0, 0, {{"sharedFrameFence", "Graphics", 53051213}}},
  };
  ScratchDir dir;
  Simulate("default", dir / "default.db");
  auto store = core::store::LoadTrace(dir / "default.db");
  Json j = ReportJson(AnalyseTrace(store, true));
  const auto& gaps = j.Find("idle_gaps")->items();
  ASSERT_EQ(gaps.size(), expected.size());
  for (size_t q = 0; q < expected.size(); ++q) {
    const Json& g = gaps[q];
    const Expected& e = expected[q];
    SCOPED_TRACE(e.name);
    EXPECT_EQ(g.Find("name")->String(), e.name);
    EXPECT_EQ(g.Find("waiting_on_fence_ns")->Int(), e.waiting_on_fence);
    EXPECT_EQ(g.Find("preempted_ns")->Int(), e.preempted);
    EXPECT_EQ(g.Find("nothing_submitted_ns")->Int(), e.nothing_submitted);
    EXPECT_EQ(g.Find("submitted_not_running_ns")->Int(), e.submitted_not_running);
    EXPECT_EQ(g.Find("engine_busy_ns")->Int(), e.engine_busy);
    EXPECT_EQ(g.Find("launch_bound_ns")->Int(), 0);
    EXPECT_EQ(g.Find("synchronised_ns")->Int(), 0);
    EXPECT_EQ(g.Find("synchronised_on")->size(), 0u);
    const auto& on = g.Find("waiting_on")->items();
    ASSERT_EQ(on.size(), e.waiting_on.size());
    for (size_t f = 0; f < on.size(); ++f) {
      EXPECT_EQ(on[f].Find("fence")->String(), e.waiting_on[f].fence);
      EXPECT_EQ(on[f].Find("from")->String(), e.waiting_on[f].from);
      EXPECT_EQ(on[f].Find("ns")->Int(), e.waiting_on[f].ns);
    }
  }
  // No launch calls: no delays measured, and the gap classes cannot be told apart (unlinked).
  EXPECT_EQ(At(j, "launch_links.packets_linked"), 0);
  for (const Json& q : j.Find("launch_delay")->items()) EXPECT_EQ(q.Find("count")->Int(), 0);
  for (const Json& q : j.Find("idle_split")->items()) {
    EXPECT_EQ(q.Find("host_wait_ns")->Int() + q.Find("kernel_wait_ns")->Int() +
                  q.Find("other_ns")->Int(),
              0);
  }
}

// seed 004: a TDR is a finding naming the queue, the hung packet and what was lost; the values
// come from the tdr and preemption_requested records (SQL), not from the analysis.
TEST(SimulatedReport, TdrIsAFindingWithItsQueuePacketAndLosses) {
  ScratchDir dir;
  auto trace = dir / "tdr.db";
  Json j = SimulatedReportJson("tdr", trace, true);
  const auto tdr = core::store::RunQuery(
      trace, "SELECT s.value, r.packet_id, t.packets_lost, t.contexts_lost FROM tdr t JOIN "
             "queues q ON q.id = t.queue_id JOIN strings s ON s.id = q.name_sid JOIN "
             "preemption_requested r ON r.preemption_id = t.preemption_id");
  ASSERT_EQ(tdr.rows.size(), 1u);
  EXPECT_EQ(At(j, "findings.tdrs"), 1);
  int found = 0;
  for (const Json& f : j.Find("findings")->Find("list")->items()) {
    if (f.Find("kind")->String() != "tdr") continue;
    ++found;
    const std::string& m = f.Find("message")->String();
    EXPECT_NE(m.find("TDR on " + tdr.rows[0][0]), std::string::npos) << m;
    EXPECT_NE(m.find("packet " + tdr.rows[0][1]), std::string::npos) << m;
    EXPECT_NE(m.find(tdr.rows[0][2] + " packets and " + tdr.rows[0][3] + " contexts lost"),
              std::string::npos)
        << m;
  }
  EXPECT_EQ(found, 1);
}

namespace {

// The open waits of a short run, judged by a longer run of the same scenario and seed (the
// simulator is deterministic, so the longer run is the short one continued): ids of the GPU
// waits and CPU waiters with no unblock / release / withdrawal in the short run, split by
// whether the longer run released them.
struct OpenWaitTruth {
  std::set<std::pair<bool, int64_t>> released_later;  // (cpu, id)
  std::set<std::pair<bool, int64_t>> still_open;
  size_t Open() const { return released_later.size() + still_open.size(); }
};

std::set<int64_t> SqlIds(const std::filesystem::path& trace, const std::string& sql) {
  std::set<int64_t> ids;
  for (const auto& row : core::store::RunQuery(trace, sql).rows) ids.insert(std::stoll(row.at(0)));
  return ids;
}

OpenWaitTruth TruthFromLongerRun(const std::filesystem::path& shorter,
                                 const std::filesystem::path& longer) {
  OpenWaitTruth t;
  const auto gpu_open = SqlIds(shorter,
                               "SELECT wait_id FROM fence_wait_queued q WHERE NOT EXISTS (SELECT 1 "
                               "FROM fence_wait_unblocked u WHERE u.wait_id = q.wait_id)");
  const auto gpu_later = SqlIds(longer, "SELECT wait_id FROM fence_wait_unblocked");
  const auto cpu_open =
      SqlIds(shorter,
             "SELECT waiter_id FROM cpu_wait_begin b WHERE NOT EXISTS (SELECT 1 FROM "
             "cpu_wait_released r WHERE r.waiter_id = b.waiter_id) AND NOT EXISTS (SELECT 1 FROM "
             "cpu_wait_withdrawn w WHERE w.waiter_id = b.waiter_id)");
  const auto cpu_later = SqlIds(longer, "SELECT waiter_id FROM cpu_wait_released");
  for (int64_t id : gpu_open) {
    (gpu_later.count(id) ? t.released_later : t.still_open).insert({false, id});
  }
  for (int64_t id : cpu_open) {
    (cpu_later.count(id) ? t.released_later : t.still_open).insert({true, id});
  }
  return t;
}

// Simulates `scenario` (a name or a .toml file) for its own length and twice as long plus
// 5 ms, analyses the short run, and checks each open wait's category against the longer run:
// waits pending or unprocessed at the end were released later; waits never unblocked or stuck
// after a rewind were not. Every open wait is in exactly one category.
ReportData CheckOpenWaitsAgainstALongerRun(const std::filesystem::path& dir,
                                           const std::string& scenario, const std::string& mode,
                                           core::store::TraceStore& store) {
  const auto shorter = dir / "short.db", longer = dir / "long.db";
  Simulate(scenario, shorter, "--fence-mode " + mode);
  store = core::store::LoadTrace(shorter);
  const double ms = static_cast<double>(store.end_ns() - store.start_ns()) / 1e6;
  Simulate(scenario, longer,
           "--fence-mode " + mode + " --duration-ms " + std::to_string(2 * ms + 5));
  const OpenWaitTruth truth = TruthFromLongerRun(shorter, longer);
  ReportData d = AnalyseTrace(store, true);
  const auto& w = d.waits;
  EXPECT_EQ(w.never_unblocked.size() + w.pending_at_end.size() + w.unprocessed_at_end.size() +
                w.signal_not_in_capture.size() + w.stuck_after_rewind.size(),
            truth.Open())
      << scenario << " " << mode;
  for (const auto* list : {&w.pending_at_end, &w.unprocessed_at_end}) {
    for (const auto& p : *list) {
      EXPECT_TRUE(truth.released_later.count({p.cpu, p.wait_id}))
          << scenario << " " << mode << ": wait " << p.wait_id << " was never released";
    }
  }
  for (const auto* list : {&w.never_unblocked, &w.stuck_after_rewind}) {
    for (const auto& p : *list) {
      EXPECT_TRUE(truth.still_open.count({p.cpu, p.wait_id}))
          << scenario << " " << mode << ": wait " << p.wait_id << " was released later";
    }
  }
  return d;
}

}  // namespace

TEST(SimulatedOpenWaits, TheEndOfAHealthyTraceIsNotADeadlock) {
  // cross_adapter: at the end dGPU render still runs a packet, and the frameFence signal the
  // iGPU waits for is queued on it ahead of its own wait on composedFence. preemption: CPU
  // waits on signals queued behind running packets. A longer run releases every open wait.
  for (const char* scenario : {"cross_adapter", "cross_adapter_native", "preemption"}) {
    for (const char* mode : {"native", "monitored"}) {
      ScratchDir dir;
      core::store::TraceStore store;
      ReportData d = CheckOpenWaitsAgainstALongerRun(dir.path(), scenario, mode, store);
      const OpenWaitTruth truth = TruthFromLongerRun(dir / "short.db", dir / "long.db");
      EXPECT_GT(truth.released_later.size(), 0u) << scenario;
      EXPECT_TRUE(truth.still_open.empty()) << scenario;
      Json j = ReportJson(d);
      EXPECT_EQ(At(j, "fences.waits_never_unblocked"), 0) << scenario << " " << mode;
      EXPECT_EQ(At(j, "fences.waits_stuck"), 0) << scenario << " " << mode;
      EXPECT_EQ(At(j, "findings.wait_cycles"), 0) << scenario << " " << mode;
      EXPECT_EQ(At(j, "fences.waits_pending_at_end") + At(j, "fences.waits_unprocessed_at_end"),
                truth.released_later.size())
          << scenario << " " << mode;
    }
  }
  // the gate of the README does not fire on it
  ScratchDir dir;
  Simulate("cross_adapter", dir / "ca.db");
  auto gate = RunFencescope("report " + Quote(dir / "ca.db") +
                            " --format json --fail-if 'fences.waits_stuck > 0 || "
                            "findings.wait_cycles > 0'");
  EXPECT_EQ(gate.exit_code, 0) << gate.err;
}

TEST(SimulatedOpenWaits, EveryScenarioAgreesWithItsLongerRun) {
  // log_overrun is left out: its checkpoint wait is for a value whose signal the producer has
  // not queued yet when the trace ends; nothing in the trace says it will be (never signalled).
  for (const char* scenario :
       {"default", "async_compute_graphics", "copy_prepass_lighting", "never_signalled",
        "pipelined_compute_graphics", "ring_buffer", "tdr", "pgo_game_default"}) {
    for (const char* mode : {"native", "monitored"}) {
      ScratchDir dir;
      core::store::TraceStore store;
      CheckOpenWaitsAgainstALongerRun(dir.path(), scenario, mode, store);
    }
  }
}

TEST(SimulatedOpenWaits, ARealDeadlockIsStillFoundBesideQueuesThatAreOnlyLate) {
  // A and B each wait, before their own signal, for the other's: a deadlock. C and D pass
  // frames back and forth like cross_adapter and are only late when the trace ends.
  ScratchDir dir;
  const auto scenario =
      test_support::SourceDir() / "tests/cli/scenarios/deadlock_beside_late_queues.toml";
  core::store::TraceStore store;
  ReportData d = CheckOpenWaitsAgainstALongerRun(dir.path(), Quote(scenario), "native", store);
  const OpenWaitTruth truth = TruthFromLongerRun(dir / "short.db", dir / "long.db");
  EXPECT_EQ(truth.still_open.size(), 2u);  // A's and B's waits
  EXPECT_GT(truth.released_later.size(), 0u);
  ASSERT_EQ(d.waits.cycles.size(), 1u);
  EXPECT_EQ(d.waits.cycles[0].steps.size(), 2u);
  EXPECT_EQ(d.waits.never_unblocked.size(), 2u);
  EXPECT_EQ(d.waits.pending_at_end.size() + d.waits.unprocessed_at_end.size(),
            truth.released_later.size());
  auto gate = RunFencescope("report " + Quote(dir / "short.db") +
                            " --format json --fail-if 'findings.wait_cycles > 0'");
  EXPECT_EQ(gate.exit_code, 3) << gate.err;
}

TEST(SimulatedOpenWaits, AWaitOnAFenceRewoundBelowItIsStuckAfterRewind) {
  // Q signals f=10; the CPU then rewinds f to 2 (seed 001); Q and the CPU then wait for f>=5.
  ScratchDir dir;
  const auto scenario = test_support::SourceDir() / "tests/cli/scenarios/rewound_fence.toml";
  core::store::TraceStore store;
  ReportData d = CheckOpenWaitsAgainstALongerRun(dir.path(), Quote(scenario), "native", store);
  const auto trace = dir / "short.db";
  // open waits whose value a recorded rewind crossed (from >= value down to below it)
  const std::string crossed =
      " EXISTS (SELECT 1 FROM fence_rewind r WHERE r.fence_id = w.fence_id AND r.fence_value < "
      "w.fence_value AND r.previous_value >= w.fence_value)";
  const int64_t expected =
      SqlCount(trace,
               "SELECT COUNT(*) FROM fence_wait_queued w WHERE NOT EXISTS (SELECT 1 FROM "
               "fence_wait_unblocked u WHERE u.wait_id = w.wait_id) AND" +
                   crossed) +
      SqlCount(trace,
               "SELECT COUNT(*) FROM cpu_wait_begin w WHERE NOT EXISTS (SELECT 1 FROM "
               "cpu_wait_released r WHERE r.waiter_id = w.waiter_id) AND" +
                   crossed);
  EXPECT_EQ(expected, 2);
  Json j = ReportJson(d);
  EXPECT_EQ(At(j, "fences.waits_stuck_after_rewind"), expected);
  EXPECT_EQ(At(j, "findings.stuck_after_rewind"), expected);
  EXPECT_EQ(At(j, "fences.waits_unprocessed_at_end"), 0);
  EXPECT_EQ(At(j, "fences.waits_never_unblocked"), 0);

  // The thread's CPU wait (and Q's) hang for good: a run twice as long releases neither, and
  // fences.waits_stuck, the gate for "something is stuck", counts exactly those.
  const OpenWaitTruth truth = TruthFromLongerRun(trace, dir / "long.db");
  EXPECT_EQ(truth.still_open.size(), 2u);
  EXPECT_EQ(std::count_if(truth.still_open.begin(), truth.still_open.end(),
                          [](const auto& w) { return w.first; }),
            1)
      << "the CPU thread's wait is one of them";
  EXPECT_EQ(At(j, "fences.waits_stuck"), static_cast<int64_t>(truth.still_open.size()));
  auto gate = RunFencescope("report " + Quote(trace) + " --format json --fail-if " +
                            "'fences.waits_stuck > 0'");
  EXPECT_EQ(gate.exit_code, 3) << gate.err;
  // waits_never_unblocked keeps its narrower meaning: it does not see this hang.
  auto narrow = RunFencescope("report " + Quote(trace) + " --format json --fail-if " +
                              "'fences.waits_never_unblocked > 0'");
  EXPECT_EQ(narrow.exit_code, 0) << narrow.err;
}
