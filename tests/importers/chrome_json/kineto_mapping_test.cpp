// The Kineto GPU mapping on a hand-written trace whose every expected record is worked out by
// hand below (issue 7: streams -> queues, kernels / memcpys -> packets, ac2g -> CPU launch,
// cudaEventRecord -> fence signal, Stream Wait Event -> GPU wait, Event Sync -> CPU wait).
#include <gtest/gtest.h>

#include <fstream>

#include "core/store/query.h"
#include "importers/import_file.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;

// Times in µs. CPU thread 100/100; device pid 0 ("GPU 0"), streams 7 and 8.
const char* kTrace = R"({"traceEvents":[
 {"ph":"M","name":"process_labels","pid":0,"tid":0,"args":{"labels":"GPU 0"}},
 {"ph":"M","name":"thread_name","pid":100,"tid":100,"args":{"name":"main"}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":10,"dur":5,"args":{"correlation":1}},
 {"ph":"s","cat":"ac2g","name":"ac2g","id":1,"pid":100,"tid":100,"ts":10},
 {"ph":"X","cat":"kernel","name":"K1","pid":0,"tid":7,"ts":20,"dur":30,"args":{"correlation":1,"stream":7}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":1,"pid":0,"tid":7,"ts":20,"bp":"e"},
 {"ph":"X","cat":"cuda_runtime","name":"cudaEventRecord","pid":100,"tid":100,"ts":16,"dur":1,"args":{"correlation":2}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":18,"dur":1,"args":{"correlation":3}},
 {"ph":"s","cat":"ac2g","name":"ac2g","id":3,"pid":100,"tid":100,"ts":18},
 {"ph":"X","cat":"kernel","name":"K2","pid":0,"tid":7,"ts":60,"dur":10,"args":{"correlation":3}},
 {"ph":"f","cat":"ac2g","name":"ac2g","id":3,"pid":0,"tid":7,"ts":60,"bp":"e"},
 {"ph":"X","cat":"cuda_runtime","name":"cudaStreamWaitEvent","pid":100,"tid":100,"ts":19,"dur":1,"args":{"correlation":4}},
 {"ph":"X","cat":"cuda_sync","name":"Stream Wait Event","pid":0,"tid":8,"ts":21,"dur":1,"args":{"cuda_sync_kind":"Stream Wait Event","wait_on_stream":7,"wait_on_cuda_event_record_corr_id":2,"wait_on_cuda_event_id":5,"stream":8,"correlation":4}},
 {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":8,"ts":55,"dur":5,"args":{"correlation":99}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaEventRecord","pid":100,"tid":100,"ts":80,"dur":1,"args":{"correlation":5}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaEventSynchronize","pid":100,"tid":100,"ts":81,"dur":20,"args":{"correlation":6}},
 {"ph":"X","cat":"cuda_sync","name":"Event Sync","pid":0,"tid":-1,"ts":82,"dur":18,"args":{"wait_on_stream":7,"wait_on_cuda_event_record_corr_id":5,"wait_on_cuda_event_id":5,"stream":-1,"correlation":6}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaStreamWaitEvent","pid":100,"tid":100,"ts":90,"dur":1,"args":{"correlation":7}},
 {"ph":"X","cat":"cuda_sync","name":"Stream Wait Event","pid":0,"tid":8,"ts":91,"dur":1,"args":{"wait_on_stream":7,"wait_on_cuda_event_record_corr_id":-1,"wait_on_cuda_event_id":5,"stream":8,"correlation":7}}
]})";

class KinetoMapping : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path input = m_dir / "kineto.json";
    std::ofstream(input) << kTrace;
    m_db = m_dir / "kineto.db";
    importers::ImportFile(input, m_db);
  }
  std::string Rows(const std::string& sql) { return test_support::RowsText(m_db, sql); }
  test_support::ScratchDir m_dir;
  fs::path m_db;
};

TEST_F(KinetoMapping, StreamsBecomeQueuesTypedByTheirWork) {
  // Stream 7 runs kernels (compute = 1); stream 8 only a memcpy and a wait (other = 5).
  EXPECT_EQ(Rows("SELECT s.value, q.type FROM queues q JOIN strings s ON s.id = q.name_sid "
                 "ORDER BY q.id"),
            "GPU 0 stream 7|1\nGPU 0 stream 8|5\n");
}

TEST_F(KinetoMapping, PacketsAreSubmittedAtTheirLaunchAndRunAtTheirTimes) {
  // K1: launched at 10 by main, ran 20..50; K2: launched at 18, ran 60..70; the memcpy has no
  // launch flow: submitted at its start (55), no thread.
  EXPECT_EQ(Rows("SELECT n.value, s.ts_ns, ifnull(t.tid, '-'), b.ts_ns, c.ts_ns FROM "
                 "packet_submitted s JOIN packet_started b USING (packet_id) JOIN "
                 "packet_completed c USING (packet_id) JOIN strings n ON n.id = s.name_sid "
                 "LEFT JOIN threads t ON t.id = s.thread_id ORDER BY b.ts_ns"),
            "K1|10000|100|20000|50000\n"
            "Memcpy HtoD|55000|-|55000|60000\n"
            "K2|18000|100|60000|70000\n");
  EXPECT_EQ(Rows("SELECT kind, count(*) FROM flows GROUP BY kind"), "1|2\n");
}

TEST_F(KinetoMapping, EventRecordsAreSignalsOnTheRecordedStream) {
  // One fence for CUDA event 5; record #1 (call at 16) executes when K1, launched before it on
  // stream 7, ends (50); record #2 (call at 80) finds K1 and K2 already done (70): it executes
  // at once, at 80.
  EXPECT_EQ(Rows("SELECT s.value FROM fences f JOIN strings s ON s.id = f.name_sid"),
            "CUDA event 5\n");
  EXPECT_EQ(Rows("SELECT q.fence_value, q.ts_ns, e.ts_ns, e.previous_value, e.queue_id FROM "
                 "fence_signal_queued q JOIN fence_signal_executed e USING (signal_id) "
                 "ORDER BY q.fence_value"),
            "1|16000|50000|0|1\n2|80000|80000|1|1\n");
}

TEST_F(KinetoMapping, StreamWaitEventsAreWaitsLinkedToTheirSignal) {
  // Wait 1: queued by cudaStreamWaitEvent at 19 on stream 8 for value 1 (named by record
  // correlation 2). Nothing was launched on stream 8 before 19, so the stream reached the wait
  // at once (observed 19). The record executed at 50; the next packet on stream 8 (the memcpy,
  // no launch flow: launched at its start, 55) came after that, so the wait ends at 50 and the
  // 50..55 gap is not the wait's. Linked from the capture (release_link 1).
  // Wait 2 names no record: the calling thread's latest record call before 90 that belongs to no
  // other event is record #2 (80, event 5): value 2, inferred (release_link 2). Stream 8 has
  // nothing launched after 90 and record #2 executed at 80: the wait ends when reached, at 90.
  EXPECT_EQ(Rows("SELECT q.fence_value, q.ts_ns, q.queue_id, u.ts_ns, u.observed_ns, "
                 "s.fence_value, u.release_link FROM fence_wait_queued q JOIN "
                 "fence_wait_unblocked u USING (wait_id) JOIN fence_signal_queued s ON "
                 "s.signal_id = u.released_by_signal_id ORDER BY q.ts_ns"),
            "1|19000|2|50000|19000|1|1\n2|90000|2|90000|90000|2|2\n");
}

TEST_F(KinetoMapping, EventSyncIsACpuWaitOnTheCallingThread) {
  EXPECT_EQ(Rows("SELECT b.ts_ns, r.ts_ns, t.tid, b.fence_value FROM cpu_wait_begin b JOIN "
                 "cpu_wait_released r USING (waiter_id) JOIN threads t ON t.id = b.thread_id"),
            "82000|100000|100|2\n");
}

}  // namespace
