// Hand-made Nsight Systems exports (make_nsys_sqlite.py) with what no shared real export holds:
// stream waits across three streams on a reused event handle, record timestamps 0 and given,
// exports without the CUDA_EVENT table or eventSyncId, the legacy NULL stream, several
// processes and GPUs, a CUDA graph launch, syncType numbered otherwise, copies' bytes, stream
// waits without their rows. Each expected link, time and count is worked out by hand from the
// scenario the script's docstring describes.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/json_text.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::FirstCell;
using test_support::Quote;
using test_support::RowsText;

// The trace imported from `scenario` (options passed to the script after the output path).
fs::path Imported(const test_support::ScratchDir& dir, const std::string& scenario,
                  const std::string& options = "") {
  const fs::path sqlite = dir / (scenario + ".sqlite");
  const auto made = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/nsys/make_nsys_sqlite.py") +
      " " + scenario + " " + Quote(sqlite) + " " + options);
  EXPECT_EQ(made.exit_code, 0) << made.err;
  const fs::path trace = dir / (scenario + ".db");
  const auto r = test_support::RunFencescope("import " + Quote(sqlite) + " --output " +
                                             Quote(trace));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return trace;
}

// The display name of the queue in column `column`.
std::string QueueName(const std::string& column) {
  return "(SELECT s.value FROM queues q JOIN strings s ON s.id = q.name_sid WHERE q.id = " +
         column + ")";
}

// Each GPU wait: waiting queue, queued at, unblocked at, link, and the signal that released it
// (its queue and when it executed).
std::string GpuWaits(const fs::path& trace) {
  return RowsText(trace, "SELECT " + QueueName("w.queue_id") +
                             ", q.ts_ns, w.ts_ns, w.release_link, " + QueueName("x.queue_id") +
                             ", x.ts_ns FROM fence_wait_unblocked w "
                             "JOIN fence_wait_queued q ON q.wait_id = w.wait_id "
                             "LEFT JOIN fence_signal_executed x "
                             "ON x.signal_id = w.released_by_signal_id ORDER BY q.ts_ns");
}

// Each CPU wait: begun, released, link, and the signal of its fence and value (queue, time).
std::string CpuWaits(const fs::path& trace) {
  return RowsText(trace, "SELECT b.ts_ns, r.ts_ns, r.release_link, " + QueueName("x.queue_id") +
                             ", x.ts_ns FROM cpu_wait_released r "
                             "JOIN cpu_wait_begin b ON b.waiter_id = r.waiter_id "
                             "LEFT JOIN fence_signal_executed x "
                             "ON x.fence_id = r.fence_id AND x.fence_value = r.fence_value "
                             "ORDER BY b.ts_ns, x.ts_ns");
}

std::string Problem(const fs::path& trace, const std::string& name) {
  return FirstCell(trace, "SELECT count FROM import_problems WHERE name = '" + name + "'");
}

TEST(NsysHandMade, StreamWaitsOnAReusedEventHandleAreLinkedByEventSyncId) {
  test_support::ScratchDir dir;
  const fs::path trace = Imported(dir, "stream_waits");
  // Handle 77 is recorded on 13 then on 14: each wait is released by the record of its own
  // eventSyncId. The records' timestamps are 0: each executes when its stream's earlier
  // kernel ends (k1 at 200, k2 at 300); 15 goes on with k3 at 310.
  EXPECT_EQ(GpuWaits(trace),
            "GPU 0 stream 15 (non-blocking)|30|310|1|GPU 0 stream 13 (non-blocking)|200\n"
            "GPU 0 stream 15 (non-blocking)|50|310|1|GPU 0 stream 14 (non-blocking)|300\n");
  // The event sync (eventSyncId 2) waited for the second record.
  EXPECT_EQ(CpuWaits(trace), "70|305|1|GPU 0 stream 14 (non-blocking)|300\n");
  EXPECT_EQ(Problem(trace, "nsys_sync_linked_by_event_sync_id"), "3");
  // Three kernels, each launched by its call.
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM flows WHERE kind = 1"), "3");
  EXPECT_EQ(FirstCell(trace, "SELECT value FROM meta WHERE key = 'nsys_schema_version'"),
            "3.24.14");
}

TEST(NsysHandMade, RecordTimestampsTheExportGivesAreWhenTheRecordsExecuted) {
  test_support::ScratchDir dir;
  const fs::path trace = Imported(dir, "stream_waits", "--event-timestamps");
  EXPECT_EQ(GpuWaits(trace),
            "GPU 0 stream 15 (non-blocking)|30|310|1|GPU 0 stream 13 (non-blocking)|205\n"
            "GPU 0 stream 15 (non-blocking)|50|310|1|GPU 0 stream 14 (non-blocking)|302\n");
  EXPECT_EQ(CpuWaits(trace), "70|305|1|GPU 0 stream 14 (non-blocking)|302\n");
}

TEST(NsysHandMade, WithoutTheCudaEventTableTheWaitsAreInferred) {
  test_support::ScratchDir dir;
  const fs::path trace = Imported(dir, "stream_waits", "--no-event-table");
  // Both waits and the event sync are placed; what released them is inferred (link 2), never
  // read from the reused handle alone.
  EXPECT_EQ(RowsText(trace, "SELECT release_link, count(*) FROM fence_wait_unblocked GROUP BY 1"),
            "2|2\n");
  EXPECT_EQ(RowsText(trace, "SELECT release_link, count(*) FROM cpu_wait_released GROUP BY 1"),
            "2|1\n");
  EXPECT_EQ(Problem(trace, "nsys_sync_without_event_sync_id"), "3");
  EXPECT_EQ(Problem(trace, "nsys_sync_linked_by_event_sync_id"), "<none>");
}

TEST(NsysHandMade, AnOldSchemaWithoutEventSyncIdReadsAndInfers) {
  test_support::ScratchDir dir;
  const fs::path trace = Imported(dir, "stream_waits", "--old-schema");
  EXPECT_EQ(FirstCell(trace, "SELECT value FROM meta WHERE key = 'nsys_schema_version'"),
            "2.9.1");
  EXPECT_EQ(FirstCell(trace, "SELECT value FROM meta WHERE key = 'nsys_version'"),
            "2022.2.1.31");
  EXPECT_EQ(RowsText(trace, "SELECT release_link, count(*) FROM fence_wait_unblocked GROUP BY 1"),
            "2|2\n");
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM packet_completed"), "3");
}

TEST(NsysHandMade, ARecordOnTheLegacyNullStreamWaitsForEveryBlockingStream) {
  test_support::ScratchDir dir;
  const fs::path trace = Imported(dir, "null_stream");
  // Recorded on the NULL stream 7 at 20: it executes when the work launched before it on the
  // blocking streams 13 (k1, to 200) and 14 (k2, to 400) has ended: 400. Stream 13 reached
  // the wait at 200 and goes on with k3 at 410.
  EXPECT_EQ(GpuWaits(trace), "GPU 0 stream 13|30|410|1|GPU 0 stream 7 (NULL stream)|400\n");
  EXPECT_EQ(FirstCell(trace, "SELECT observed_ns FROM fence_wait_unblocked"), "200");
}

TEST(NsysHandMade, ProcessesAndGpusStayApartThoughTheirCorrelationIdsAreTheSame) {
  test_support::ScratchDir dir;
  const fs::path trace = Imported(dir, "processes");
  EXPECT_EQ(RowsText(trace, "SELECT s.value FROM adapters a JOIN strings s ON s.id = a.name_sid "
                            "ORDER BY 1"),
            "GPU 0 (Test GPU 0)\nGPU 1 (Test GPU 1)\n");
  // Each kernel is launched from its own process's thread (tid 101 / 201).
  EXPECT_EQ(RowsText(trace, "SELECT " + QueueName("t.queue_id") + ", th.tid FROM flows f "
                            "JOIN events t ON t.rowid = f.to_event "
                            "JOIN events c ON c.rowid = f.from_event "
                            "JOIN threads th ON th.id = c.thread_id ORDER BY 1"),
            "GPU 0 stream 7 (NULL stream) pid 100|101\n"
            "GPU 1 stream 7 (NULL stream) pid 200|201\n");
  // Each cudaDeviceSynchronize (exported with syncType 1, the number of an event sync) is a
  // CPU wait for its own process's GPU: released as its kernel ended.
  EXPECT_EQ(CpuWaits(trace),
            "50|210|1|GPU 0 stream 7 (NULL stream) pid 100|200\n"
            "50|510|1|GPU 1 stream 7 (NULL stream) pid 200|500\n");
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM fence_wait_unblocked"), "0");
}

TEST(NsysHandMade, AGraphLaunchLaunchesEachOfItsKernels) {
  test_support::ScratchDir dir;
  const fs::path trace = Imported(dir, "graph");
  const std::string launches =
      RowsText(trace, "SELECT s.value, (SELECT n.value FROM strings n WHERE n.id = c.arg0) "
                      "FROM flows f JOIN events t ON t.rowid = f.to_event "
                      "JOIN events c ON c.rowid = f.from_event "
                      "JOIN packet_submitted p ON p.queue_id = t.queue_id AND "
                      "p.packet_id = t.op_id JOIN strings s ON s.id = p.name_sid ORDER BY 1");
  EXPECT_EQ(launches,
            "node1|cudaGraphLaunch_v10000\nnode2|cudaGraphLaunch_v10000\n"
            "node3|cudaGraphLaunch_v10000\n");
  // cudaStreamSynchronize exported with syncType 2 ("stream wait" in CUPTI's numbering) is a
  // CPU wait for stream 7, released when the graph's last kernel ended (260).
  EXPECT_EQ(CpuWaits(trace), "30|270|1|GPU 0 stream 7 (NULL stream)|260\n");
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM fence_wait_unblocked"), "0");
}

TEST(NsysHandMade, CopiesAndMemsetsCarryTheirBytesAndDirection) {
  test_support::ScratchDir dir;
  const fs::path trace = Imported(dir, "copies");
  const auto arg = [](const std::string& key, const std::string& column) {
    return "(SELECT " + column + " FROM event_args a JOIN strings k ON k.id = a.key_sid "
           "LEFT JOIN strings t ON t.id = a.text_sid WHERE a.event_rowid = p.event_id AND "
           "k.value = '" + key + "')";
  };
  EXPECT_EQ(RowsText(trace, "SELECT s.value, " + arg("bytes", "a.int_value") + ", " +
                                arg("direction", "t.value") +
                                " FROM packet_submitted p JOIN strings s ON s.id = p.name_sid "
                                "ORDER BY p.packet_id"),
            "Memcpy HtoD|4096|HtoD\nMemcpy DtoH|1024|DtoH\nMemcpy DtoD|512|DtoD\n"
            "Memcpy PtoP|256|PtoP\nMemset|2048|\n");
  // Each launched by its call.
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM flows WHERE kind = 1"), "5");
}

// Two cudaStreamWaitEvent calls (the scenario's corr 4 and 6) without their SYNCHRONIZATION
// rows: no wait is placed for them, and the report says so with the Kineto ones.
TEST(NsysHandMade, StreamWaitsWithoutTheirRowsAreSaidNotPlacedInTheReport) {
  test_support::ScratchDir dir;
  const fs::path trace = Imported(dir, "stream_waits", "--no-stream-wait-rows");
  EXPECT_EQ(FirstCell(trace, "SELECT count(*) FROM fence_wait_queued"), "0");
  EXPECT_EQ(Problem(trace, "nsys_stream_wait_without_sync"), "2");
  const auto json = test_support::RunFencescopeJson("report " + Quote(trace) + " --format json");
  EXPECT_EQ(test_support::IntAt(json, "fences.gpu_waits_not_placed"), 2);
  const auto md = test_support::RunFencescope("report " + Quote(trace) + " --format md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("2 cudaStreamWaitEvent calls in this trace name neither the waiting "
                        "stream nor the event (the Nsight Systems export has no "
                        "SYNCHRONIZATION row for them)"),
            std::string::npos)
      << md.out;
  // With their rows, nothing is said.
  test_support::ScratchDir other;
  const fs::path placed = Imported(other, "stream_waits");
  const auto with_rows =
      test_support::RunFencescopeJson("report " + Quote(placed) + " --format json");
  EXPECT_EQ(test_support::IntAt(with_rows, "fences.gpu_waits_not_placed"), 0);
}

TEST(NsysHandMade, TheSessionStartIsTheClocksOrigin) {
  test_support::ScratchDir dir;
  const fs::path trace = Imported(dir, "processes", "--session-start 1700000000000000000");
  // The kernels start 100 ns into the session, the CPU waits begin at 50.
  EXPECT_EQ(RowsText(trace, "SELECT ts_ns FROM packet_started ORDER BY 1"),
            "1700000000000000100\n1700000000000000100\n");
  EXPECT_EQ(CpuWaits(trace),
            "1700000000000000050|1700000000000000210|1|GPU 0 stream 7 (NULL stream) pid 100|"
            "1700000000000000200\n"
            "1700000000000000050|1700000000000000510|1|GPU 1 stream 7 (NULL stream) pid 200|"
            "1700000000000000500\n");
  EXPECT_EQ(FirstCell(trace, "SELECT value FROM meta WHERE key = 'session_start_utc_ns'"),
            "1700000000000000000");
}

TEST(NsysHandMade, AGzippedExportImportsAsThePlainOne) {
  test_support::ScratchDir dir;
  const fs::path plain = Imported(dir, "graph");
  const auto zipped = test_support::RunCommand("gzip -k " + Quote(dir / "graph.sqlite"));
  ASSERT_EQ(zipped.exit_code, 0) << zipped.err;
  const auto r = test_support::RunFencescope("import " + Quote(dir / "graph.sqlite.gz") +
                                             " --output " + Quote(dir / "gz.db"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string sql = "SELECT kind, ts_ns, queue_id, thread_id, op_id FROM events ORDER BY 2, 1";
  EXPECT_EQ(RowsText(dir / "gz.db", sql), RowsText(plain, sql));
  EXPECT_EQ(FirstCell(dir / "gz.db", "SELECT count(*) FROM packet_completed"), "3");
}

TEST(NsysHandMade, BenchImportReadsTheActivityTablesBesideTheImport) {
  test_support::ScratchDir dir;
  Imported(dir, "stream_waits");
  const auto r = test_support::RunFencescope("bench import " + Quote(dir / "stream_waits.sqlite") +
                                             " --repeat 1 --dir " + Quote(dir.path()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 3 kernels, 8 runtime calls, 3 SYNCHRONIZATION and 2 CUDA_EVENT rows.
  EXPECT_NE(r.out.find("activity rows         16 -> "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("import/raw ratio"), std::string::npos) << r.out;
}

TEST(NsysHandMade, FleetImportImportsExportsRatherThanCopyingThem) {
  test_support::ScratchDir dir;
  fs::create_directories(dir / "ranks");
  for (const char* scenario : {"graph", "processes"}) {
    const auto made = test_support::RunCommand(
        "python3 " +
        Quote(test_support::SourceDir() / "tests/importers/nsys/make_nsys_sqlite.py") + " " +
        scenario + " " + Quote(dir / "ranks" / (std::string(scenario) + ".sqlite")));
    ASSERT_EQ(made.exit_code, 0) << made.err;
  }
  const auto r = test_support::RunFencescope("fleet import " + Quote(dir / "ranks") + " -o " +
                                             Quote(dir / "fleet"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 of 2 traces"), std::string::npos) << r.out;
}

}  // namespace
