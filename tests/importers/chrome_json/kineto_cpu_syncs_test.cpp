// CPU syncs of current-CUPTI Kineto traces (cuda_sync "Event Sync" naming only
// wait_on_cuda_event_id) linked to the record, and so the work, that released them: a throttle
// waiting for a record several iterations back with records of other events in between, an
// event id recorded again, a sync returning before the GPU clock says its work ended, an event
// recorded before the capture began. Every expected link is worked out by hand in the comments
// (times in µs; one host thread 100, GPU 0). The programs of shared/capture/torch_streams.py,
// generated at scale with their truth, are checked in cuda_waits_test.cpp.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "importers/import_file.h"
#include "tests/support/kineto_text.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;

using kineto_text::Call;
using kineto_text::Kernel;
using kineto_text::Sync;
using kineto_text::Trace;

class KinetoCpuSyncs : public ::testing::Test {
 protected:
  fs::path Import(const std::string& text) {
    const fs::path input = m_dir / "trace.json";
    std::ofstream(input) << text;
    const fs::path db = m_dir / "trace.db";
    importers::ImportFile(input, db);
    return db;
  }
  // Per CPU wait, by its begin: the fence, the value, when the signal of that fence and value
  // was queued (the record call it stands for) and executed, its queue, and the release link.
  static std::string CpuWaits(const fs::path& db) {
    return test_support::RowsText(
        db,
        "SELECT b.ts_ns, f.value, b.fence_value, s.ts_ns, e.ts_ns, q.value, r.release_link "
        "FROM cpu_wait_begin b JOIN cpu_wait_released r USING (waiter_id) JOIN fences fe ON "
        "fe.id = b.fence_id JOIN strings f ON f.id = fe.name_sid LEFT JOIN fence_signal_queued "
        "s ON s.fence_id = b.fence_id AND s.fence_value = b.fence_value LEFT JOIN "
        "fence_signal_executed e USING (signal_id) LEFT JOIN queues qu ON qu.id = s.queue_id "
        "LEFT JOIN strings q ON q.id = qu.name_sid ORDER BY b.ts_ns");
  }
  static std::string Problem(const fs::path& db, const std::string& name) {
    return test_support::FirstCell(
        db, "SELECT count FROM import_problems WHERE name = '" + name + "'");
  }
  test_support::ScratchDir m_dir;
};

}  // namespace

TEST_F(KinetoCpuSyncs, AThrottleWaitsForTheRecordSeveralIterationsBack) {
  // Compute stream 7 runs K1 2..102, K2 102..202, K3 202..302; graphics stream 13 runs G1
  // 10..150. Records (each after a launch of its thread, so on that launch's stream):
  //   c1 at 3 (stream 7, executes when K1 ends: 102), c2 at 7 (K2: 202), g1 at 11 (stream 13,
  //   G1: 150), c3 at 15 (K3: 302).
  // Event Sync on event 41 (c1), call 17..104: the host waited; of c3, g1, c2, c1 only c1
  // executed while it waited (102, just before its return at 103.5): c1, value 1.
  // Event Sync on event 42 (c2), call 110..205: c1 is event 41's; of the others g1 (150) and c2
  // (202) executed while it waited; c2 is the one at its return (204.5).
  // Event Sync on event 43 (g1), call 210..211, returning at once: the most recent record that
  // had executed by then (c3 executes at 302; c2 is event 42's): g1.
  const std::string events =
      Call(1, "cudaLaunchKernel", 0, 1) + Kernel(1, "K1", 7, 2, 100) +
      Call(2, "cudaEventRecord", 3, 1) + Call(3, "cudaLaunchKernel", 5, 1) +
      Kernel(3, "K2", 7, 102, 100) + Call(4, "cudaEventRecord", 7, 1) +
      Call(5, "cudaLaunchKernel", 9, 1) + Kernel(5, "G1", 13, 10, 140) +
      Call(6, "cudaEventRecord", 11, 1) + Call(7, "cudaLaunchKernel", 13, 1) +
      Kernel(7, "K3", 7, 202, 100) + Call(8, "cudaEventRecord", 15, 1) +
      Call(9, "cudaEventSynchronize", 17, 87) + Sync(9, "Event Sync", 41, -1, 17.5, 86) +
      Call(10, "cudaEventSynchronize", 110, 95) + Sync(10, "Event Sync", 42, -1, 110.5, 94) +
      Call(11, "cudaEventSynchronize", 210, 1) + Sync(11, "Event Sync", 43, -1, 210.2, 0.6);
  const fs::path db = Import(Trace(events));
  EXPECT_EQ(CpuWaits(db),
            "17500|CUDA event 41|1|3000|102000|GPU 0 stream 7|2\n"
            "110500|CUDA event 42|1|7000|202000|GPU 0 stream 7|2\n"
            "210200|CUDA event 43|1|11000|150000|GPU 0 stream 13|2\n");
  // c3 was waited for by nothing: no signal is made for it.
  EXPECT_EQ(Problem(db, "kineto_event_record_unlinked"), "1");
  EXPECT_EQ(Problem(db, "kineto_cpu_wait_link_inferred"), "3");
}

TEST_F(KinetoCpuSyncs, AnEventRecordedAgainIsWaitedForAtItsLatestRecord) {
  // Event 9 is recorded twice on stream 7: r1 at 3 after K1 (2..50), r2 at 54 after K2
  // (53..120). The first Event Sync (call 4..51) waits for r1 (value 1, 50). The second (call
  // 55..122) waited while r1 had long executed (50, before the call): r2, which executed at 120,
  // as it returned (121.5), is the one (value 2). The Stream Wait Event on stream 13 (call 122),
  // whose next packet K3 (launched 124) starts at 126 without being held, takes the most recent
  // record that had executed by then: r2.
  const std::string events =
      Call(1, "cudaLaunchKernel", 0, 1) + Kernel(1, "K1", 7, 2, 48) +
      Call(2, "cudaEventRecord", 3, 0.5) + Call(3, "cudaEventSynchronize", 4, 47) +
      Sync(3, "Event Sync", 9, -1, 4.5, 46) + Call(4, "cudaLaunchKernel", 52, 1) +
      Kernel(4, "K2", 7, 53, 67) + Call(5, "cudaEventRecord", 54, 0.5) +
      Call(6, "cudaEventSynchronize", 55, 67) + Sync(6, "Event Sync", 9, -1, 55.5, 66) +
      Call(7, "cudaStreamWaitEvent", 122, 1) + Sync(7, "Stream Wait Event", 9, 13, 122.2, 0.5) +
      Call(8, "cudaLaunchKernel", 124, 1) + Kernel(8, "K3", 13, 126, 14);
  const fs::path db = Import(Trace(events));
  EXPECT_EQ(CpuWaits(db),
            "4500|CUDA event 9|1|3000|50000|GPU 0 stream 7|2\n"
            "55500|CUDA event 9|2|54000|120000|GPU 0 stream 7|2\n");
  EXPECT_EQ(test_support::RowsText(db, "SELECT u.fence_value, e.ts_ns FROM fence_wait_unblocked u "
                                       "JOIN fence_signal_executed e ON e.signal_id = "
                                       "u.released_by_signal_id"),
            "2|120000\n");
}

TEST_F(KinetoCpuSyncs, ASyncReturningBeforeItsWorkEndedOnTheGpuClockIsReleasedAtItsReturn) {
  // K 2..100 on stream 7, recorded at 3; the Event Sync (4.5..97.5) returned 2.5 µs before the
  // GPU clock says K ended: the clocks disagree and the return is kept; the record's signal
  // executes at 97.5 and the wait is linked to it, the disagreement counted.
  const std::string events =
      Call(1, "cudaLaunchKernel", 0, 1) + Kernel(1, "K", 7, 2, 98) +
      Call(2, "cudaEventRecord", 3, 0.5) + Call(3, "cudaEventSynchronize", 4, 94) +
      Sync(3, "Event Sync", 5, -1, 4.5, 93);
  const fs::path db = Import(Trace(events));
  EXPECT_EQ(CpuWaits(db), "4500|CUDA event 5|1|3000|97500|GPU 0 stream 7|2\n");
  EXPECT_EQ(Problem(db, "kineto_sync_before_work_end"), "1");
}

TEST_F(KinetoCpuSyncs, AnEventRecordedBeforeTheCaptureIsImpliedOnTheStreamItIsRecordedOnLater) {
  // The Event Sync on event 5 at 1 has no record before it in the trace. Event 5 is recorded
  // later, at 8, after the launch of K (6..20) on stream 7 (the Stream Wait Event at 10 claims
  // that record: value 2 of the event). The sync's record is implied on stream 7 just before its
  // call (1), executing at once (nothing was launched there before): value 1.
  const std::string events =
      Call(1, "cudaEventSynchronize", 1, 2) + Sync(1, "Event Sync", 5, -1, 1.2, 1.6) +
      Call(2, "cudaLaunchKernel", 4, 1) + Kernel(2, "K", 7, 6, 14) +
      Call(3, "cudaEventRecord", 8, 0.5) + Call(4, "cudaStreamWaitEvent", 10, 1) +
      Sync(4, "Stream Wait Event", 5, 13, 10.2, 0.5);
  const fs::path db = Import(Trace(events));
  EXPECT_EQ(CpuWaits(db), "1200|CUDA event 5|1|1000|1000|GPU 0 stream 7|2\n");
  EXPECT_EQ(test_support::RowsText(
                db, "SELECT s.fence_value, s.ts_ns, e.ts_ns FROM fence_signal_queued s JOIN "
                    "fence_signal_executed e USING (signal_id) ORDER BY s.fence_value"),
            "1|1000|1000\n2|8000|20000\n");
  EXPECT_EQ(Problem(db, "kineto_record_implied_from_later"), "1");
}
