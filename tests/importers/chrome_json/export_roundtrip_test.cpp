// `fencescope export` then `fencescope import`: the JSON is valid (checked by Python's json), and
// import(export(x)) keeps the queues, packets, signals, waits, CPU waits, flows and the
// wait -> signal links the reconstruction finds, on a hand-written trace (counts by hand below)
// and on `fencescope simulate default`; it keeps the topology (names, pids, tids, handles) and the
// span, so that `compare` of a trace with its round trip matches every queue.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "core/analysis/reconstruction.h"
#include "core/report/compare.h"
#include "core/report/report_data.h"
#include "core/report/report_json.h"
#include "core/store/query.h"
#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

namespace events = core::model::events;

namespace {

namespace fs = std::filesystem;
using namespace core::store;
using test_support::RunFencescope;
using test_support::ScratchDir;

struct Counts {
  int64_t queues, submitted, started, completed, signals_queued, signals_executed, cpu_signals,
      waits_queued, waits_unblocked, cpu_waits_begin, cpu_waits_released, flows, samples;
  size_t linked_waits;
  bool operator==(const Counts&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Counts& c) {
  return out << "queues " << c.queues << " submitted " << c.submitted << " started " << c.started
             << " completed " << c.completed << " signals " << c.signals_queued << "/"
             << c.signals_executed << " cpu_signals " << c.cpu_signals << " waits "
             << c.waits_queued << "/" << c.waits_unblocked << " cpu_waits " << c.cpu_waits_begin
             << "/" << c.cpu_waits_released << " flows " << c.flows << " samples " << c.samples
             << " linked " << c.linked_waits;
}

Counts CountsOf(const fs::path& db) {
  auto n = [&](const std::string& table) {
    return std::stoll(RunQuery(db, "SELECT count(*) FROM " + table).rows[0][0]);
  };
  Counts c{n("queues"),         n("packet_submitted"),    n("packet_started"),
           n("packet_completed"), n("fence_signal_queued"), n("fence_signal_executed"),
           n("fence_cpu_signal"), n("fence_wait_queued"),   n("fence_wait_unblocked"),
           n("cpu_wait_begin"),   n("cpu_wait_released"),   n("flows"),
           n("counter_samples"),  0};
  const auto reconstruction = core::analysis::Reconstruct(LoadTrace(db));
  for (const auto& wait : reconstruction.waits) {
    if (wait.signal != core::analysis::kNoIndex) ++c.linked_waits;
  }
  return c;
}

void ExpectValidJson(const fs::path& json) {
  const std::string command =
      "python3 -c \"import gzip, json, sys; p = sys.argv[1]; "
      "json.load(gzip.open(p) if p.endswith('.gz') else open(p))\" '" + json.string() + "'";
  EXPECT_EQ(std::system(command.c_str()), 0) << json;
}

fs::path RoundTrip(const fs::path& db, const ScratchDir& dir, const std::string& json_name) {
  const fs::path json = dir / json_name;
  auto r = RunFencescope("export '" + db.string() + "' -o '" + json.string() + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ExpectValidJson(json);
  const fs::path back = dir / (json_name + ".db");
  r = RunFencescope("import '" + json.string() + "' -o '" + back.string() + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return back;
}

TEST(ExportRoundTrip, HandWrittenTraceKeepsEveryCount) {
  ScratchDir dir;
  const fs::path db = dir / "hand.db";
  {
    hand_trace::HandTrace t(db);
    const QueueId g = t.Queue("3D"), c = t.Queue("copy", QueueType::kCopy);
    const ThreadId thread = t.Thread("render");
    const FenceId f = t.Fence("frame fence");
    // A runtime call [1000, 1500) that launches packet 1 (a cpu_launch flow), which runs on 3D
    // 2000..5000. Packet 2 on copy: submitted 1500, ran 6000..7000. Packet 3 on copy: submitted
    // at 8000, never started.
    const EventRowId call = t.RuntimeCall(thread, 1000, 500, "draw");
    t.LaunchedPacket(g, thread, 1, call, 1000, 2000, 5000, "draw");
    t.Packet(c, thread, 2, 1500, 6000, 7000);
    t.Append(
        events::PacketSubmitted{.ts_ns = 8000, .queue_id = c, .thread_id = thread, .packet_id = 3});
    // Signal 10 (value 1) on 3D queued 1000, executed 5000; signal 11 (value 2) queued 8000,
    // never executed; a CPU signal 12 of value 3 at 9000.
    t.Signal(g, thread, f, 1, 10, 1000, 5000);
    t.Signal(g, thread, f, 2, 11, 8000, -1);
    t.CpuSignal(thread, f, 3, 12, 9000, 0);
    // Wait 20 on copy for value 1, released by signal 10 (named); wait 21 for value 3, linked by
    // value to the CPU signal.
    t.Wait(c, thread, f, 1, 20, 1500, 5000, 10, /*observed=*/5000);
    t.Wait(c, thread, f, 3, 21, 8500, 9000);
    // A CPU wait for value 1 from 1200 to 5000, released by the interrupt of signal 10.
    t.CpuWait(thread, f, 1, 30, 1200, 5000);
    t.InterruptFor(g, f, 1, 10, 5000, 1, 0);
    CounterSeriesId series = t.writer().AddCounterSeries({"gpu busy", t.process(), "%", {}, {}});
    for (int i = 0; i < 3; ++i) t.writer().AddCounterSample(series, 1000 * (i + 1), 10.0 * i);
    t.Finish(0, 10000);
  }
  const Counts expected{2, 3, 2, 2, 2, 1, 1, 2, 2, 1, 1, 1, 3, 2};
  EXPECT_EQ(CountsOf(db), expected);
  EXPECT_EQ(CountsOf(RoundTrip(db, dir, "hand.json")), expected);
}

TEST(ExportRoundTrip, SimulatedDefaultScenarioKeepsItsCounts) {
  ScratchDir dir;
  const fs::path db = test_support::SimulateTrace(dir / "sim.db", "default");
  const Counts original = CountsOf(db);
  EXPECT_GT(original.waits_unblocked, 0);
  EXPECT_GT(original.linked_waits, 0u);
  EXPECT_EQ(CountsOf(RoundTrip(db, dir, "sim.json.gz")), original);
}

// The topology tables as rows of text, read with SQL (independently of the loader).
std::vector<std::vector<std::string>> Rows(const fs::path& db, const std::string& sql) {
  return RunQuery(db, sql).rows;
}

TEST(ExportRoundTrip, KeepsTheTopologyAndCompareMatchesEveryQueue) {
  ScratchDir dir;
  const fs::path db = test_support::SimulateTrace(dir / "sim.db", "default --fence-mode monitored");
  const fs::path back = RoundTrip(db, dir, "sim.json");
  // Names, types, engines, adapters, pids, tids and handles, as SQL reads them in both files.
  for (const char* sql :
       {"SELECT a.value, e.type, e.ordinal, (SELECT value FROM strings WHERE id = d.name_sid), "
        "q.type, q.priority, q.sort_index, p.pid FROM queues q JOIN strings a ON a.id = "
        "q.name_sid JOIN engines e ON e.id = q.engine_id JOIN adapters d ON d.id = q.adapter_id "
        "JOIN processes p ON p.id = q.process_id ORDER BY q.id",
        "SELECT s.value, t.tid, t.kind, p.pid FROM threads t JOIN strings s ON s.id = t.name_sid "
        "JOIN processes p ON p.id = t.process_id ORDER BY t.id",
        "SELECT c.handle, c.queue_id FROM contexts c ORDER BY c.id",
        "SELECT p.pid, s.value FROM processes p JOIN strings s ON s.id = p.name_sid ORDER BY p.id",
        "SELECT s.value, a.luid, a.native_fences FROM adapters a JOIN strings s ON s.id = "
        "a.name_sid ORDER BY a.id",
        "SELECT s.value, f.kind, f.initial_value FROM fences f JOIN strings s ON s.id = f.name_sid "
        "ORDER BY f.id",
        "SELECT value FROM meta WHERE key IN ('start_ns', 'end_ns') ORDER BY key"}) {
    EXPECT_EQ(Rows(back, sql), Rows(db, sql)) << sql;
  }
  // The span starts at 0 although the monitored run records nothing before its first thread.
  EXPECT_GT(std::stoll(Rows(db, "SELECT min(ts_ns) FROM events")[0][0]), 0);

  const TraceStore a = LoadTrace(db), b = LoadTrace(back);
  const auto c = core::report::CompareReports(
      "a", core::report::ReportJson(core::report::AnalyseTrace(a, true)), "b",
      core::report::ReportJson(core::report::AnalyseTrace(b, true)));
  EXPECT_FALSE(c.rates);
  ASSERT_EQ(c.queues.size(), a.queues.size());
  for (const auto& q : c.queues) {
    for (const auto& m : q.metrics) {
      EXPECT_TRUE(m.in_a && m.in_b) << q.identity << " " << m.key;
      EXPECT_EQ(m.Delta(), 0) << q.identity << " " << m.key;
    }
  }
  // Figures the export carries come back identical; the ones it does not carry (interrupts, log
  // buffers, preemption, background tasks) are not compared here.
  size_t checked = 0;
  for (const auto& m : c.metrics) {
    const bool carried = m.key == "duration_ns" || m.key == "start_ns" || m.key == "end_ns" ||
                         m.key.rfind("fences.", 0) == 0 || m.key.rfind("queue_pairs[", 0) == 0 ||
                         m.key.rfind("idle_gaps[", 0) == 0;
    if (!carried) continue;
    ++checked;
    EXPECT_TRUE(m.in_a && m.in_b) << m.key;
    EXPECT_EQ(m.Delta(), 0) << m.key;
  }
  EXPECT_GT(checked, 30u);
}

TEST(ExportRoundTrip, AnUnreadableTopologyIsAProblemNotAFailure) {
  ScratchDir dir;
  const fs::path json = dir / "bad.json";
  std::ofstream(json) << R"({"fencescopeExport":1,"fencescopeTopology":{"start_ns":"zero"},)"
                      << R"("traceEvents":[{"ph":"X","name":"k","cat":"kernel","pid":1,"tid":2,)"
                      << R"("ts":1,"dur":2}]})";
  const fs::path db = dir / "bad.db";
  auto r = RunFencescope("import '" + json.string() + "' -o '" + db.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Rows(db, "SELECT count FROM import_problems WHERE name = "
                     "'json_export_topology_unreadable'"),
            (std::vector<std::vector<std::string>>{{"1"}}));
}

TEST(ExportRoundTrip, ExportOfABadTraceFailsAndWritesNothing) {
  ScratchDir dir;
  const fs::path not_a_trace = dir / "notes.db";
  std::ofstream(not_a_trace) << "not sqlite";
  const fs::path out = dir / "out.json";
  auto r = RunFencescope("export '" + not_a_trace.string() + "' -o '" + out.string() + "'");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(not_a_trace.string()), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
