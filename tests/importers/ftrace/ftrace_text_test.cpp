// The ftrace text importer on small hand-written traces (data/): every expected figure below is
// counted by hand from the fixture's lines, as the comments say.
#include <gtest/gtest.h>

#include <fstream>

#include <fmt/format.h>

#include "core/model/error.h"
#include "core/store/query.h"
#include "importers/ftrace/drm_sched_fields.h"
#include "importers/ftrace/ftrace_text_reader.h"
#include "importers/import_file.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using importers::ftrace::FtraceEvent;
using importers::ftrace::ParseFtraceLine;
using test_support::ScratchDir;

fs::path Fixture(const std::string& name) {
  return test_support::SourceDir() / "tests/importers/ftrace/data" / name;
}

std::vector<std::vector<std::string>> Rows(const fs::path& db, const std::string& sql) {
  return core::store::RunQuery(db, sql).rows;
}
std::string Cell(const fs::path& db, const std::string& sql) {
  auto rows = Rows(db, sql);
  if (rows.empty() || rows[0].empty()) return "<none>";
  return rows[0][0];
}

class Imported {
 public:
  explicit Imported(const std::string& fixture) : m_db(m_dir / "trace.db") {
    importers::ImportFile(Fixture(fixture), m_db);
  }
  std::string Q(const std::string& sql) const { return Cell(m_db, sql); }
  std::vector<std::vector<std::string>> R(const std::string& sql) const { return Rows(m_db, sql); }
  const fs::path& db() const { return m_db; }

 private:
  ScratchDir m_dir;
  fs::path m_db;
};

// Imports a file named `name` holding `content`: the error message (a failed test when it
// imports, or when the output is left behind).
std::string ImportErrorOf(const std::string& name, const std::string& content) {
  ScratchDir dir;
  const fs::path input = dir / name;
  std::ofstream(input) << content;
  std::string message = "<imported>";
  try {
    importers::ImportFile(input, dir / "out.db");
    ADD_FAILURE() << name << " was imported";
  } catch (const core::Error& e) {
    message = e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "out.db"));
  return message;
}

std::string PerQueue(const std::string& view) {
  return "SELECT group_concat(n || ':' || c, ' ') FROM (SELECT s.value AS n, count(*) AS c FROM " +
         view + " v JOIN queues q ON q.id = v.queue_id JOIN strings s ON s.id = q.name_sid "
                "GROUP BY 1 ORDER BY 1)";
}

}  // namespace

TEST(FtraceLine, TraceCmdReportWithSchedPlugin) {
  FtraceEvent e;
  ASSERT_TRUE(ParseFtraceLine(
      "           steam-25475 [003] 630659.115986: sched_switch:         steam:25475 [120] S "
      "==> swapper/3:0 [120]",
      e));
  EXPECT_EQ(e.comm, "steam");
  EXPECT_EQ(e.pid, 25475);
  EXPECT_EQ(e.tgid, -1);
  EXPECT_EQ(e.cpu, 3);
  EXPECT_EQ(e.ts_ns, 630659115986000);
  EXPECT_EQ(e.name, "sched_switch");
  EXPECT_EQ(e.Text("prev_comm").value_or(""), "steam");
  EXPECT_EQ(e.Number("prev_pid").value_or(1), 25475u);
  EXPECT_EQ(e.Text("prev_state").value_or(""), "S");
  EXPECT_EQ(e.Text("next_comm").value_or(""), "swapper/3");
  EXPECT_EQ(e.Number("next_pid").value_or(1), 0u);
  // A comm holding ':' keeps it; the pid is after the last one.
  ASSERT_TRUE(ParseFtraceLine(
      " CIPCServer::Thr-20388 [003] 630659.120964: sched_switch: CIPCServer::Thr:20388 [120] S "
      "==> swapper/3:0 [120]",
      e));
  EXPECT_EQ(e.comm, "CIPCServer::Thr");
  EXPECT_EQ(e.Text("prev_comm").value_or(""), "CIPCServer::Thr");
  // Seconds whose ns do not fit in 64 bits are no timestamp (found by fuzzing: the product
  // overflowed); the largest that fits still reads.
  EXPECT_FALSE(ParseFtraceLine("app-1 [000] 82222222222.000000: print: x", e));
  EXPECT_FALSE(ParseFtraceLine("app-1 [000] 9223372036.854775808: print: x", e));
  ASSERT_TRUE(ParseFtraceLine("app-1 [000] 9223372036.854775807: print: x", e));
  EXPECT_EQ(e.ts_ns, INT64_MAX);
}

TEST(FtraceLine, TgidColumnFlagsAndUnknownNames) {
  FtraceEvent e;
  // TGID column, 5-character flags, a comm with dashes and spaces, 9 decimals.
  ASSERT_TRUE(ParseFtraceLine(
      "  Chrome IO-thread-1234  ( 1000) [001] d..3. 5.000000001: dma_fence_signaled: "
      "driver=i915 timeline=rcs0 context=7 seqno=9",
      e));
  EXPECT_EQ(e.comm, "Chrome IO-thread");
  EXPECT_EQ(e.pid, 1234);
  EXPECT_EQ(e.tgid, 1000);
  EXPECT_EQ(e.ts_ns, 5'000'000'001);
  EXPECT_EQ(e.Text("timeline").value_or(""), "rcs0");
  EXPECT_EQ(e.Number("seqno").value_or(0), 9u);
  // Unknown TGID, 4-character flags, `<...>`.
  ASSERT_TRUE(ParseFtraceLine(
      "           <...>-19999 (-----) [001] d..3  1234.000002: sched_wake_idle_without_ipi: "
      "cpu=2",
      e));
  EXPECT_TRUE(e.comm.empty());
  EXPECT_EQ(e.pid, 19999);
  EXPECT_EQ(e.tgid, -1);
  // Kernels before 3.3: no flags.
  ASSERT_TRUE(ParseFtraceLine(
      "     kworker/0:0-13696 [000] 50260.647590: sched_wakeup: comm=mmcqd/0 pid=95 prio=120 "
      "success=1 target_cpu=000",
      e));
  EXPECT_EQ(e.comm, "kworker/0:0");
  EXPECT_EQ(e.Number("pid").value_or(0), 95u);
  // print: the ip before the text is dropped.
  ASSERT_TRUE(ParseFtraceLine(
      "    RenderThread-25155 [003] 630659.131089: print:                0xffffffffabf5a467: "
      "[Compositor] Present() Begin",
      e));
  EXPECT_EQ(e.details, "[Compositor] Present() Begin");
  for (const char* bad : {"some = 000, other = 0x4", "   Xorg-900   [00",
                          "   Xorg-900   [000] 400.00x300: dma_fence_emit: driver=amdgpu",
                          "# tracer: nop"}) {
    EXPECT_FALSE(ParseFtraceLine(bad, e)) << bad;
  }
}

TEST(FtraceText, DrmSchedDependencies) {
  Imported t("drm_sched_deps.txt");
  // Jobs: sdma0 job 1; gfx jobs 1, 2, 3 (drm_sched_job lines), all from glxgears.
  EXPECT_EQ(t.Q(PerQueue("packet_submitted")), "gfx:3 sdma0:1");
  EXPECT_EQ(t.Q("SELECT count(*) FROM packet_submitted WHERE thread_id > 0"), "4");
  // drm_run_job: sdma0 job 1, gfx jobs 1 and 2; drm_sched_process_job: sdma0 job 1, gfx job 1.
  EXPECT_EQ(t.Q(PerQueue("packet_started")), "gfx:2 sdma0:1");
  EXPECT_EQ(t.Q(PerQueue("packet_completed")), "gfx:1 sdma0:1");
  // Three wait_dep lines, all GPU waits of the gfx ring.
  EXPECT_EQ(t.Q(PerQueue("fence_wait_queued")), "gfx:3");
  // Job 1 waits for context 50 seqno 7: released by its signal at 100.001000 on sdma0, the ring
  // whose job the fence is. Job 2 waits for context 60 (never signalled): unblocked when it runs
  // at 100.004000, with no signal. Job 3 waits for seqno 5 of context 50, already passed.
  auto rows = t.R(
      "SELECT u.ts_ns, u.fence_value, u.released_by_signal_id > 0, u.release_link, "
      "coalesce(x.queue_id = (SELECT q.id FROM queues q JOIN strings s ON s.id = q.name_sid "
      "WHERE s.value = 'sdma0'), 0) FROM fence_wait_unblocked u "
      "LEFT JOIN fence_signal_executed x ON x.signal_id = u.released_by_signal_id "
      "ORDER BY u.ts_ns");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"100001000000", "7", "1", "1", "1"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"100004000000", "3", "0", "0", "0"}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"100005100000", "5", "1", "1", "1"}));
  // The wait and the signal are on one fence object.
  EXPECT_EQ(t.Q("SELECT count(DISTINCT fence_id) FROM (SELECT fence_id FROM fence_wait_queued "
                "WHERE fence_value IN (5, 7) UNION ALL SELECT fence_id FROM "
                "fence_signal_executed)"),
            "1");
  EXPECT_EQ(t.Q("SELECT count(*) FROM import_problems WHERE name = 'ftrace_bad_line'"), "0");
}

TEST(FtraceLine, DrmSchedFieldsOfTextAndDatRecords) {
  using namespace importers::ftrace;
  FtraceEvent e;
  ASSERT_TRUE(ParseFtraceLine(
      "  vkcube-2000 [001] ..... 50.000201: drm_sched_job_add_dep: fence=30:1, id=7 depends on "
      "fence=20:9",
      e));
  EXPECT_EQ(DrmSchedJob(e), (DrmSchedJobKey{30, 1}));
  ASSERT_TRUE(DrmSchedDependency(e));
  EXPECT_EQ(DrmSchedDependency(e)->context, 20u);
  EXPECT_EQ(DrmSchedDependency(e)->seqno, 9u);
  // The same event decoded from a .dat: the struct's field names.
  FtraceEvent dat;
  dat.fields = {{"fence_context", "30"}, {"fence_seqno", "1"}, {"ctx", "20"}, {"seqno", "9"}};
  EXPECT_EQ(DrmSchedJob(dat), (DrmSchedJobKey{30, 1}));
  EXPECT_EQ(DrmSchedDependency(dat)->context, 20u);
  // Older kernels: the ring is `name` in a .dat, the fence a pointer.
  dat.fields = {{"name", "gfx"}, {"fence", "18446612689068113921"}};
  EXPECT_EQ(DrmSchedRing(dat), "gfx");
  EXPECT_EQ(DrmSchedJob(dat), (DrmSchedJobKey{18446612689068113921u, kPointerKey}));
  EXPECT_FALSE(DrmSchedDependency(dat));
}

TEST(FtraceText, DrmSchedAddDepOfNewerKernels) {
  Imported t("drm_sched_add_deps.txt");
  // drm_sched_job_queue: sdma0 job 20:1; gfx_0.0.0 jobs 30:1 and 30:2, all from vkcube, on the
  // adapter the lines' dev= names.
  EXPECT_EQ(t.Q(PerQueue("packet_submitted")), "gfx_0.0.0:2 sdma0:1");
  EXPECT_EQ(t.Q("SELECT count(*) FROM packet_submitted WHERE thread_id > 0"), "3");
  EXPECT_EQ(t.Q("SELECT group_concat(s.value) FROM adapters a JOIN strings s ON "
                "s.id = a.name_sid"),
            "0000:03:00.0");
  // _run: 20:1, 30:1, 30:2; _done: 20:1, 30:1.
  EXPECT_EQ(t.Q(PerQueue("packet_started")), "gfx_0.0.0:2 sdma0:1");
  EXPECT_EQ(t.Q(PerQueue("packet_completed")), "gfx_0.0.0:1 sdma0:1");
  // add_dep lines 3, 4, 10, 11 are four waits of the gfx ring; line 12 (_unschedulable) names
  // the same job and fence as line 11: no second wait; line 13's job 99:1 was never queued.
  EXPECT_EQ(t.Q(PerQueue("fence_wait_queued")), "gfx_0.0.0:4");
  EXPECT_EQ(t.Q("SELECT count FROM import_problems WHERE name = 'ftrace_dependency_without_job'"),
            "1");
  // Released: 19:1 (the sdma0 job's scheduled fence: context 20 - 1) when the sdma0 job runs
  // at 50.000300; 20:1 by its job_done at 50.001000; 20:1 again for job 30:2 at once
  // (50.002001, already signalled); 88:4 (no ring known, never signalled) when job 30:2 runs at
  // 50.004000, with no signal. The releasing signals are on sdma0.
  auto rows = t.R(
      "SELECT u.ts_ns, w.fence_value, u.released_by_signal_id > 0, "
      "coalesce((SELECT s.value FROM queues q JOIN strings s ON s.id = q.name_sid "
      "WHERE q.id = x.queue_id), '-') FROM fence_wait_unblocked u "
      "JOIN fence_wait_queued w ON w.wait_id = u.wait_id "
      "LEFT JOIN fence_signal_executed x ON x.signal_id = u.released_by_signal_id "
      "ORDER BY u.ts_ns");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"50000300000", "1", "1", "sdma0"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"50001000000", "1", "1", "sdma0"}));
  EXPECT_EQ(rows[2], (std::vector<std::string>{"50002001000", "1", "1", "sdma0"}));
  EXPECT_EQ(rows[3], (std::vector<std::string>{"50004000000", "4", "0", "-"}));
  // Signals: sdma0 19:1 (run) and 20:1 (done; the dma_fence_signaled after it is the same
  // signal); gfx 29:1 and 29:2 (runs), 30:1 (done).
  EXPECT_EQ(t.Q(PerQueue("fence_signal_executed")), "gfx_0.0.0:3 sdma0:2");
  EXPECT_EQ(t.Q("SELECT count(*) FROM import_problems WHERE name = 'ftrace_signal_without_emit'"),
            "0");
}

TEST(FtraceText, TraceStartsWhereEveryCpuWasRecording) {
  // The fixture's lines, 1,000 irq_handler_entry lines (events that map to no record) on CPU 0
  // before CPU 1's first line, 1,000 more on CPU 0 and 2,000 on CPU 1 after the fixture's: both
  // CPUs hold as many events as full ring buffers, and CPU 1 starts after 1,004 of CPU 0's.
  ScratchDir dir;
  const fs::path input = dir / "wrapped.txt";
  {
    std::ifstream in(Fixture("cpu_buffers_start_late.txt"));
    std::ofstream out(input);
    out << in.rdbuf();
    auto irq = [&](int cpu, int us) {
      out << fmt::format("  <idle>-0 [{:03}] 10.{:06}: irq_handler_entry: irq=5 name=eth0\n",
                         cpu, us);
    };
    for (int i = 1; i <= 1000; ++i) {
      irq(0, 1 + i % 999);  // 10.000001 .. 10.000999, before CPU 1's first line
      irq(0, 7000 + i);
      irq(1, 7000 + i);
      irq(1, 8000 + i);
    }
  }
  const fs::path db = dir / "wrapped.db";
  importers::ImportFile(input, db);
  auto q = [&](const std::string& sql) { return Cell(db, sql); };
  // Without them, the CPUs hold too few events to have wrapped: nothing is cropped.
  Imported small("cpu_buffers_start_late.txt");
  EXPECT_EQ(small.Q("SELECT min(ts_ns) FROM events"), "10000000000");
  EXPECT_EQ(small.Q("SELECT count(*) FROM packet_submitted"), "2");
  // CPU 0 records from 10.000000, CPU 1 (which logs the completions) from 10.003000.
  EXPECT_EQ(q("SELECT min(ts_ns) FROM events"), "10003000000");
  EXPECT_NE(q("SELECT value FROM meta WHERE key = 'capture_note'").find("CPU 1 from 10.003000 s"),
            std::string::npos);
  // Job 5:1 (submit, run, all before 10.003) is left out: its completion would have been on
  // CPU 1. Job 5:2 was submitted before and runs after: its submit is placed at 10.003000.
  EXPECT_EQ(q(PerQueue("packet_submitted")), "gfx:1");
  EXPECT_EQ(q("SELECT ts_ns FROM packet_submitted"), "10003000000");
  EXPECT_EQ(q("SELECT ts_ns FROM packet_started"), "10004000000");
  EXPECT_EQ(q("SELECT ts_ns FROM packet_completed"), "10005000000");
  // Left out: job 5:1's submit, finished-fence signal queued, start, scheduled-fence signal
  // queued, and the "frame 1" marker; placed at the start: job 5:2's submit and its
  // finished-fence signal queued.
  EXPECT_EQ(q("SELECT count || ' ' || severity FROM import_problems "
                "WHERE name = 'ftrace_before_all_cpus_recording'"),
            "5 2");
  EXPECT_EQ(q("SELECT count FROM import_problems WHERE name = 'ftrace_placed_at_window_start'"),
            "2");
  EXPECT_EQ(q("SELECT group_concat(s.value) FROM marker m JOIN strings s ON s.id = m.name_sid"),
            "frame 2");
}

TEST(FtraceText, SystraceHtmlTraceDataBlocksAndAtraceMarkers) {
  Imported t("systrace_blocks.html");
  EXPECT_EQ(t.Q("SELECT value FROM meta WHERE key = 'source'"), "systrace-html");
  // The first trace-data block is JSON (counted, not read); the second is ftrace text.
  EXPECT_EQ(t.Q("SELECT count FROM import_problems WHERE name = 'systrace_json_block'"), "1");
  // B DrawFrame at 100.000100, B flush at .000200, E at .000500 (ends flush), E at .000900
  // (ends DrawFrame): two slices of RenderThread (tid 501) in process 500, flush nested.
  auto rows = t.R(
      "SELECT n.value, c.ts_ns, c.duration_ns, c.depth, t.tid, p.pid FROM cpu_slice c "
      "JOIN strings n ON n.id = c.name_sid JOIN threads t ON t.id = c.thread_id "
      "JOIN processes p ON p.id = t.process_id ORDER BY c.ts_ns");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"DrawFrame", "100000100000", "800000", "0", "501",
                                               "500"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"flush", "100000200000", "300000", "1", "501",
                                               "500"}));
  // C|500|frames|3: one sample of process 500's counter.
  EXPECT_EQ(t.Q("SELECT n.value || ' ' || x.ts_ns || ' ' || x.value || ' ' || p.pid FROM "
                "counter_samples x JOIN counter_series c ON c.id = x.series_id JOIN strings n "
                "ON n.id = c.name_sid JOIN processes p ON p.id = c.process_id"),
            "frames 100001000000 3.0 500");
  // S|500|load|7 at .001100 .. F at .002000; main's E at .001200 has no B.
  EXPECT_EQ(t.Q("SELECT n.value || ' ' || a.ts_ns || ' ' || a.duration_ns || ' ' || a.async_id "
                "FROM async_slice a JOIN strings n ON n.id = a.name_sid"),
            "load 100001100000 900000 7");
  EXPECT_EQ(t.Q("SELECT count FROM import_problems WHERE name = "
                "'ftrace_atrace_end_without_begin'"),
            "1");
  EXPECT_EQ(t.Q("SELECT group_concat(s.value) FROM marker m JOIN strings s ON s.id = m.name_sid"),
            "hello world");
  // The broken line is line 14 of the text, which starts on line 9 of the page.
  const std::string place =
      t.Q("SELECT first_place FROM import_problems WHERE name = 'ftrace_bad_line'");
  EXPECT_NE(place.find("systrace_blocks.html (ftrace text from line 9): line 14: this line is "
                       "broken"),
            std::string::npos)
      << place;
}

// A trace with no GPU queue: the reports say so once instead of empty per-queue tables.
TEST(FtraceText, ReportsOfATraceWithoutQueuesShowNoEmptyQueueSections) {
  Imported t("systrace_blocks.html");
  ASSERT_EQ(t.Q("SELECT count(*) FROM queues"), "0");
  for (const char* format : {"html", "md"}) {
    SCOPED_TRACE(format);
    const fs::path out = t.db().parent_path() / (std::string("report.") + format);
    auto r = test_support::RunFencescope("report " + test_support::Quote(t.db()) + " -o " +
                                         test_support::Quote(out));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)),
                           std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("No GPU work in this trace"), std::string::npos);
    for (const char* absent : {"timeline overview", "Idle-gap attribution", "Queue length",
                               "Critical path", "Queue pairs", "Wait latency"}) {
      EXPECT_EQ(text.find(absent), std::string::npos) << absent;
    }
  }
}

TEST(FtraceText, HtmlWithoutSystraceTextIsAnErrorNamingTheFile) {
  const std::string message = ImportErrorOf(
      "page.html",
      "<!DOCTYPE html>\n<html><body><script class=\"trace-data\">{\"traceEvents\": []}"
      "</script></body></html>\n");
  EXPECT_NE(message.find("page.html"), std::string::npos) << message;
  EXPECT_NE(message.find("1 trace-data block(s) hold JSON"), std::string::npos) << message;
}

// "start-end" of each packet run on the queue named `ring` ("start-" when never completed).
std::string RunsOn(const Imported& t, const std::string& ring) {
  return t.Q("SELECT group_concat(r, ' ') FROM (SELECT s.ts_ns || '-' || coalesce(c.ts_ns, '') "
             "AS r FROM packet_started s LEFT JOIN packet_completed c ON c.packet_id = "
             "s.packet_id WHERE s.queue_id = (SELECT q.id FROM queues q JOIN strings n ON "
             "n.id = q.name_sid WHERE n.value = '" + ring + "') ORDER BY s.ts_ns)");
}

TEST(FtraceText, ARingRunsItsJobsInOrder) {
  Imported t("ring_order.txt");
  // gfx: job 5:1 handed to the ring at 20.001000, job 5:2 at 20.001100; 5:1 completes at
  // 20.003000, and only then does 5:2 run, until 20.004000.
  EXPECT_EQ(RunsOn(t, "gfx"), "20001000000-20003000000 20003000000-20004000000");
  // sdma0: job 9:1 (handed at 20.005000) has no completion, job 9:2 (handed at 20.005500)
  // completes at 20.006000: 9:1 must have completed before, the capture lacks when; 9:2 ran
  // from its hand-over as far as the trace can say, and 9:1 is left running, counted.
  EXPECT_EQ(RunsOn(t, "sdma0"), "20005000000- 20005500000-20006000000");
  EXPECT_EQ(t.Q("SELECT count FROM import_problems WHERE name = "
                "'ftrace_completion_not_in_capture'"),
            "1");
}

// Found by the fuzz smoke run: job 5:2 completes before job 5:1, handed to the ring before it,
// so 5:1 leaves the ring as completed-when-unknown; its own signal then comes. It completes at
// that signal (the capture says so), the ring is left empty, and job 5:3 runs at its hand-over.
// (The ring's bookkeeping once erased past its end here.)
TEST(FtraceText, AJobSignalledAfterTheJobHandedAfterIt) {
  Imported t("ring_signal_out_of_order.txt");
  EXPECT_EQ(RunsOn(t, "gfx"),
            "30001000000-30003000000 30001100000-30002000000 "
            "30004000000-30005000000");
  EXPECT_EQ(t.Q("SELECT count(*) FROM packet_completed"), "3");
}

TEST(FtraceText, DmaFenceCpuWaits) {
  Imported t("dma_fence_cpu_waits.txt");
  // wait_start: Xorg seqno 10, pid 901 seqno 11, kwin seqno 12; wait_end for the first two.
  EXPECT_EQ(t.Q("SELECT count(*) FROM cpu_wait_begin"), "3");
  auto rows = t.R(
      "SELECT r.fence_value, r.observed_value, r.release_link, s.value FROM cpu_wait_released r "
      "JOIN threads t ON t.id = r.thread_id JOIN strings s ON s.id = t.name_sid ORDER BY 1");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"10", "10", "1", "Xorg"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"11", "11", "1", "pid 901"}));
  EXPECT_EQ(t.Q("SELECT fence_value FROM wait_pending_at_end"), "12");
  // Seqno 10 emitted by Xorg, 11 signalled with no emit before it.
  EXPECT_EQ(t.Q("SELECT count(*) FROM fence_signal_queued"), "2");
  EXPECT_EQ(t.Q(PerQueue("fence_signal_executed")), "gfx:2");
  EXPECT_EQ(t.Q("SELECT count FROM import_problems WHERE name = 'ftrace_signal_without_emit'"),
            "1");
  // sched_switch: Xorg sleeps from 200.000300 to 200.002040, inside its wait
  // (200.000200 .. 200.002050), then runs until the trace ends (200.005000).
  rows = t.R(
      "SELECT c.ts_ns, c.duration_ns, n.value FROM cpu_slice c JOIN strings n ON "
      "n.id = c.name_sid ORDER BY c.ts_ns");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"200000300000", "1740000", "sleeping"}));
  EXPECT_EQ(rows[1], (std::vector<std::string>{"200002040000", "2960000", "running"}));
}

TEST(FtraceText, I915Requests) {
  Imported t("i915_requests.txt");
  auto rows = t.R(
      "SELECT s.value, q.type, a.name FROM queues q JOIN strings s ON s.id = q.name_sid "
      "JOIN (SELECT a.id, sa.value AS name FROM adapters a JOIN strings sa ON "
      "sa.id = a.name_sid) a ON a.id = q.adapter_id ORDER BY 1");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"bcs0", "2", "i915"}));  // engine 1:0, copy
  EXPECT_EQ(rows[1], (std::vector<std::string>{"rcs0", "0", "i915"}));  // engine 0:0, 3d
  // One request per engine: queued/added (one job), in, out.
  EXPECT_EQ(t.Q(PerQueue("packet_submitted")), "bcs0:1 rcs0:1");
  EXPECT_EQ(t.Q("SELECT ts_ns FROM packet_submitted p JOIN queues q ON q.id = p.queue_id "
                "JOIN strings s ON s.id = q.name_sid WHERE s.value = 'rcs0'"),
            "300000100000");
  EXPECT_EQ(t.Q(PerQueue("packet_started")), "bcs0:1 rcs0:1");
  EXPECT_EQ(t.Q(PerQueue("packet_completed")), "bcs0:1 rcs0:1");
  EXPECT_EQ(t.Q("SELECT ts_ns FROM packet_completed p JOIN queues q ON q.id = p.queue_id "
                "JOIN strings s ON s.id = q.name_sid WHERE s.value = 'rcs0'"),
            "300001000000");
  // glxgears waits for ctx 20 seqno 5, released after the request's out (its fence signal).
  EXPECT_EQ(t.Q("SELECT count(*) FROM cpu_wait_begin"), "1");
  EXPECT_EQ(t.Q("SELECT ts_ns || ' ' || release_link FROM cpu_wait_released"), "300001050000 1");
  EXPECT_EQ(t.Q(PerQueue("fence_signal_executed")), "bcs0:1 rcs0:1");
  // The last line's atrace B|3100|frame 1 is never ended: a slice of copyapp to the trace's
  // end (its own time: length 0), counted.
  EXPECT_EQ(t.Q("SELECT count(*) FROM marker"), "0");
  EXPECT_EQ(t.Q("SELECT n.value || ' ' || c.ts_ns || ' ' || c.duration_ns || ' ' || th.value "
                "FROM cpu_slice c JOIN strings n ON n.id = c.name_sid JOIN threads t ON "
                "t.id = c.thread_id JOIN strings th ON th.id = t.name_sid"),
            "frame 1 300003000000 0 copyapp");
  EXPECT_EQ(t.Q("SELECT count FROM import_problems WHERE name = 'ftrace_atrace_open_at_end'"),
            "1");
}

TEST(FtraceText, BrokenLinesAreCountedWithTheirLineNumbers) {
  Imported t("bad_lines.txt");
  // Lines 3, 5 (timestamp 400.00x300), 6 and 8 (cut off) are not event lines.
  EXPECT_EQ(t.Q("SELECT count || ' ' || severity FROM import_problems "
                "WHERE name = 'ftrace_bad_line'"),
            "4 1");
  const std::string place =
      t.Q("SELECT first_place FROM import_problems WHERE name = 'ftrace_bad_line'");
  EXPECT_NE(place.find("bad_lines.txt: line 3: this is not an ftrace line"), std::string::npos)
      << place;
  // Lines 2, 4 and 7 are read: a signal (emitted, executed) and a vblank on crtc 0.
  EXPECT_EQ(t.Q("SELECT count(*) FROM fence_signal_executed"), "1");
  EXPECT_EQ(t.Q("SELECT s.value || ' ' || m.marker_type FROM marker m JOIN strings s ON "
                "s.id = m.name_sid"),
            "VSync (crtc 0) 1");
}

TEST(FtraceText, TextWithoutEventLinesIsAnErrorNamingTheFile) {
  const std::string message =
      ImportErrorOf("empty.trace", "# tracer: nop\n#\nnot an event line\n");
  EXPECT_NE(message.find("empty.trace"), std::string::npos) << message;
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
}

TEST(FtraceText, SniffedByContentInsideGzip) {
  ScratchDir dir;
  const fs::path gz = dir / "capture.bin";
  auto r = test_support::RunCommand("(gzip -c " +
                                    test_support::Quote(Fixture("i915_requests.txt")) + " > " +
                                    test_support::Quote(gz) + ")");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto summary = importers::ImportFile(gz, dir / "out.db");
  EXPECT_EQ(summary.format, importers::FileFormat::kFtraceText);
  EXPECT_EQ(summary.container, importers::FileFormat::kGzip);
}

TEST(FtraceText, XeAndMsmJobs) {
  Imported t("xe_msm_jobs.txt");
  // xe: one job on GuC context 7 (create, run, free); msm: submit 42 on ring 0 (submit, flush,
  // retired) and submit 43 on ring 1 (submitted only).
  EXPECT_EQ(t.Q(PerQueue("packet_submitted")), "guc 7:1 ring 0:1 ring 1:1");
  EXPECT_EQ(t.Q(PerQueue("packet_started")), "guc 7:1 ring 0:1");
  EXPECT_EQ(t.Q(PerQueue("packet_completed")), "guc 7:1 ring 0:1");
  EXPECT_EQ(t.Q("SELECT group_concat(ts_ns, ' ') FROM (SELECT ts_ns FROM packet_completed "
                "ORDER BY 1)"),
            "500001000000 600002000000");
  EXPECT_EQ(t.Q("SELECT count(*) FROM packet_submitted WHERE thread_id > 0"), "3");
  EXPECT_EQ(t.Q("SELECT group_concat(n, ' ') FROM (SELECT s.value AS n FROM adapters a "
                "JOIN strings s ON s.id = a.name_sid ORDER BY 1)"),
            "0000:03:00.0 msm");
  // xe_sched_job_exec is read and counted, not mapped.
  EXPECT_EQ(t.Q("SELECT count FROM import_problems WHERE name = 'ftrace_not_mapped "
                "xe_sched_job_exec'"),
            "1");
}
