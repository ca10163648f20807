// A rocpd database made by hand (make_rocpd.py: tables with a session suffix beside views of
// the plain names, as rocprofv3 writes them). Every expectation is worked out by hand from the
// rows make_rocpd.py writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "core/store/query.h"
#include "tests/importers/rocprof/packet_rows.h"
#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using Rows = std::vector<std::vector<std::string>>;
using test_support::Quote;

fs::path MakeRocpd(const test_support::ScratchDir& dir, const std::string& options = "") {
  const fs::path db = dir / "5150_results.db";
  const auto r = test_support::RunCommand(
      "python3 " + Quote(test_support::SourceDir() / "tests/importers/rocprof/make_rocpd.py") +
      " " + Quote(db) + " " + options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return db;
}

class Rocpd : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path rocpd = MakeRocpd(m_dir);
    const auto r = test_support::RunFencescope("import " + Quote(rocpd) + " -o " + Quote(m_db));
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  Rows Query(const std::string& sql) { return core::store::RunQuery(m_db, sql).rows; }

  test_support::ScratchDir m_dir;
  fs::path m_db = m_dir / "trace.db";
};

TEST_F(Rocpd, GpuAgentsAreAdaptersInLogicalOrder) {
  EXPECT_EQ(Query("SELECT s.value FROM adapters a JOIN strings s ON s.id = a.name_sid ORDER BY "
                  "s.value"),
            (Rows{{"AMD Instinct MI300X (GPU 0, gfx942)"},
                  {"AMD Instinct MI300X (GPU 1, gfx942)"}}));
  EXPECT_EQ(Query("SELECT value FROM meta WHERE key = 'rocprof_format'"), (Rows{{"rocpd"}}));
}

TEST_F(Rocpd, KernelsAndTheCopyAreOnTheirQueuesLaunchedByTheirCalls) {
  // Both kernels on queue 1 of agent 2 (GPU 1), submitted at their hipLaunchKernel on thread
  // 5150; the device-to-host copy on GPU 1's SDMA queue, submitted at hipMemcpyAsync on 5151.
  EXPECT_EQ(Query(rocprof_test::kPacketRows),
            (Rows{{"Memcpy DtoH", "GPU 1 copies (SDMA)", "130", "5151", "170", "400"},
                  {"add()", "GPU 1 queue 1", "100", "5150", "200", "260"},
                  {"_Z3mulv", "GPU 1 queue 1", "120", "5150", "250", "300"}}));
  EXPECT_EQ(Query("SELECT count(*) FROM flows WHERE kind = 1"), (Rows{{"3"}}));
  // Busy: [200, 300] on queue 1 (the two kernels overlap), [170, 400] on the copy queue.
  const auto stats = test_support::RunFencescope("stats --json " + Quote(m_db));
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("\"busy_ns\": 100"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("\"busy_ns\": 230"), std::string::npos) << stats.out;
}

TEST_F(Rocpd, TheQueueSaysWhichStreamsItCarried) {
  EXPECT_EQ(Query("SELECT key, value FROM meta WHERE key LIKE 'queue_streams.%' ORDER BY key"),
            (Rows{{"queue_streams.GPU 1 copies (SDMA)", "2 (1)"},
                  {"queue_streams.GPU 1 queue 1", "1 (1), 2 (1)"}}));
  // The report says it per queue (JSON) and in a sentence under the queue table (Markdown).
  const auto json = test_support::RunFencescopeJson("report --format json " + Quote(m_db));
  const auto* queues = json.Find("queues");
  ASSERT_NE(queues, nullptr);
  std::vector<std::string> per_queue;
  for (const auto& q : queues->items()) {
    const auto* streams = q.Find("streams");
    per_queue.push_back(q.Find("name")->String() + "=" + (streams ? streams->String() : ""));
  }
  std::sort(per_queue.begin(), per_queue.end());
  EXPECT_EQ(per_queue, (std::vector<std::string>{"GPU 1 copies (SDMA)=2 (1)",
                                                 "GPU 1 queue 1=1 (1), 2 (1)"}));
  const auto md = test_support::RunFencescope("report --format md " + Quote(m_db));
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("Streams each hardware queue carried (packets per stream): "),
            std::string::npos);
  EXPECT_NE(md.out.find("GPU 1 queue 1: 1 (1), 2 (1)"), std::string::npos) << md.out;
}

TEST_F(Rocpd, RegionsAreSlicesOfTheirThreadsInTheirProcess) {
  EXPECT_EQ(Query(rocprof_test::kSliceRows),
            (Rows{{"5150", "epoch 0", "roctx", "50", "450", "0"},
                  {"5150", "hipLaunchKernel", "hip_api", "100", "10", "1"},
                  {"5150", "hipLaunchKernel", "hip_api", "120", "5", "1"},
                  {"5151", "hipMemcpyAsync", "hip_api", "130", "30", "0"}}));
  EXPECT_EQ(Query("SELECT p.pid, s.value FROM processes p JOIN strings s ON s.id = p.name_sid"),
            (Rows{{"5150", "app"}}));
}

// make_rocpd.py --syncs, worked through with the rules of schemas/kineto_inference.md: a signal
// executes when the work launched on its queue before the call has completed, or at the call
// when that work was done already; a GPU wait is reached at its call when its queue has no
// earlier work, released when its record executed, and ends at the start of the next packet
// that had been launched by then.
//   producer on queue 2: launched 1000, runs 1100-1400; consumer on queue 3: launched 1040,
//   runs 1410-1500.
//   hipEventRecord(0xE1, 0xA) at 1020 -> signal on queue 2 executed at 1400.
//   hipStreamWaitEvent(0xB, 0xE1) at 1030 -> wait on queue 3 reached at 1030, released by that
//   signal, ending at 1410 (the consumer's start; it was launched at 1040, before 1400).
//   hipEventRecord(0xE2, 0xB) at 1060 -> signal on queue 3 executed at 1500.
//   hipEventSynchronize(0xE2), 1070-1520 -> CPU wait on that signal, released at 1520.
//   hipDeviceSynchronize(), 1530-1540 -> the queue that finished last (3, at 1500) signals at
//   the call, 1530 (its work was done); the CPU wait is released at 1540.
TEST(RocpdSyncs, HipEventsStreamWaitsAndSyncsAreFencesAndWaitsLinkedToTheirRecords) {
  test_support::ScratchDir dir;
  const fs::path rocpd = MakeRocpd(dir, "--syncs");
  const fs::path db = dir / "t.db";
  const auto r = test_support::RunFencescope("import " + Quote(rocpd) + " -o " + Quote(db));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto query = [&](const std::string& sql) { return core::store::RunQuery(db, sql).rows; };
  const std::string queue_name =
      "(SELECT s.value FROM queues q JOIN strings s ON s.id = q.name_sid WHERE q.id = ";
  EXPECT_EQ(query("SELECT " + queue_name + "x.queue_id), x.ts_ns FROM fence_signal_executed x "
                  "ORDER BY x.ts_ns"),
            (Rows{{"GPU 0 queue 2", "1400"}, {"GPU 0 queue 3", "1500"},
                  {"GPU 0 queue 3", "1530"}}));
  // The wait, released by the record of 0xE1 (named by the capture: release_link 1).
  EXPECT_EQ(query("SELECT " + queue_name + "u.queue_id), w.ts_ns, u.observed_ns, u.ts_ns, " +
                  queue_name + "x.queue_id), x.ts_ns, u.release_link FROM fence_wait_unblocked u "
                  "JOIN fence_wait_queued w ON w.wait_id = u.wait_id JOIN fence_signal_executed "
                  "x ON x.signal_id = u.released_by_signal_id AND x.fence_id = u.fence_id AND "
                  "x.fence_value = u.fence_value"),
            (Rows{{"GPU 0 queue 3", "1030", "1030", "1410", "GPU 0 queue 2", "1400", "1"}}));
  // The CPU waits of thread 5152 and the signals that released them.
  EXPECT_EQ(query("SELECT t.tid, b.ts_ns, r.ts_ns, x.ts_ns FROM cpu_wait_released r JOIN "
                  "cpu_wait_begin b ON b.waiter_id = r.waiter_id JOIN threads t ON t.id = "
                  "r.thread_id JOIN fence_signal_executed x ON x.fence_id = r.fence_id AND "
                  "x.fence_value = r.fence_value ORDER BY b.ts_ns"),
            (Rows{{"5152", "1070", "1520", "1500"}, {"5152", "1530", "1540", "1530"}}));
}

TEST(RocpdBadInput, ADispatchOnAnAgentTheFileDoesNotListIsNamedByTableAndRow) {
  test_support::ScratchDir dir;
  const fs::path rocpd = MakeRocpd(dir, "--bad-agent");
  const auto before = test_support::ReadFile(rocpd);
  const auto r = test_support::RunFencescope("import " + Quote(rocpd) + " -o " +
                                             Quote(dir / "t.db"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(rocpd.string() + ": table rocpd_kernel_dispatch_0a1b2c3d, row id 3: "
                                        "agent 9 is not in rocpd_info_agent"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.db"));
  EXPECT_EQ(test_support::ReadFile(rocpd), before) << "the input was changed";
}

TEST(RocpdBadInput, ACutOffDatabaseFailsNamingTheFile) {
  test_support::ScratchDir dir;
  const fs::path rocpd = MakeRocpd(dir);
  const std::string bytes = test_support::ReadFile(rocpd);
  const fs::path cut = dir / "cut.db";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  const auto r =
      test_support::RunFencescope("import " + Quote(cut) + " -o " + Quote(dir / "t.db"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(cut.string()), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.db"));
}

}  // namespace
