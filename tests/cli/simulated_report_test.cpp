// stats and report on traces written by `fencescope simulate`: the figures must agree with the
// records (counted here with SQL, independently of the analysis code) and with the seeds' rules.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "core/report/fail_if.h"
#include "core/report/report_data.h"
#include "core/report/report_json.h"
#include "core/store/query.h"
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
  auto r = RunFencescope("simulate " + scenario + " -o " + Quote(out) + " " + extra);
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

int64_t SqlCount(const std::filesystem::path& trace, const std::string& sql) {
  auto result = core::store::RunQuery(trace, sql);
  return std::stoll(result.rows.at(0).at(0));
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
  // GPU waits never unblocked: queued waits with no unblock record whose value the fence had
  // not reached at the end (wait_pending_at_end.current_value); those whose value was reached
  // were only not yet processed by their queue when the trace ended.
  const std::string pending_gpu_waits =
      "FROM fence_wait_queued q JOIN wait_pending_at_end p ON p.queue_id = q.queue_id AND "
      "p.wait_id = q.wait_id WHERE NOT EXISTS (SELECT 1 FROM fence_wait_unblocked u WHERE "
      "u.wait_id = q.wait_id) AND ";
  EXPECT_EQ(At(j, "fences.gpu_waits_never_unblocked"),
            SqlCount(trace, "SELECT COUNT(*) " + pending_gpu_waits +
                                "p.current_value < q.fence_value"));
  EXPECT_EQ(At(j, "fences.waits_unprocessed_at_end"),
            SqlCount(trace, "SELECT COUNT(*) " + pending_gpu_waits +
                                "p.current_value >= q.fence_value") +
                SqlCount(trace,
                         "SELECT COUNT(*) FROM cpu_wait_begin b WHERE NOT EXISTS (SELECT 1 FROM "
                         "cpu_wait_released r WHERE r.waiter_id = b.waiter_id) AND NOT EXISTS "
                         "(SELECT 1 FROM cpu_wait_withdrawn w WHERE w.waiter_id = b.waiter_id) "
                         "AND (SELECT max(fence_value) FROM fence_signal_executed s WHERE "
                         "s.fence_id = b.fence_id) >= b.fence_value"));
  EXPECT_EQ(SqlCount(trace, "SELECT COUNT(*) FROM fence_wait_queued q WHERE NOT EXISTS (SELECT 1 "
                            "FROM fence_wait_unblocked u WHERE u.wait_id = q.wait_id)"),
            At(j, "fences.gpu_waits_never_unblocked") +
                SqlCount(trace, "SELECT COUNT(*) " + pending_gpu_waits +
                                    "p.current_value >= q.fence_value"));
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
}

TEST(SimulatedReport, LogOverrunScenarioHasDataMissingWindows) {
  ScratchDir dir;
  auto trace = dir / "overrun.db";
  Simulate("log_overrun", trace);
  auto store = core::store::LoadTrace(trace);
  ReportData d = AnalyseTrace(store, true);
  Json j = ReportJson(d);
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
