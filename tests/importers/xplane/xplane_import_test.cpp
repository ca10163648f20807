// Hand-made XSpace profiles (make_xspace.py) for what the real capture lacks: host launches of
// kernels and memcpys joined by correlation_id, a kernel no host event launched, aggregates
// (num_occurrences), device rows, steps from group_id, two hosts in a fleet. The expectations
// are worked out by hand from the shapes make_xspace.py describes.
#include <gtest/gtest.h>

#include <string>

#include "importers/import_file.h"
#include "tests/importers/xplane/xspace_files.h"
#include "tests/support/json_text.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::FirstCell;
using test_support::RowsText;

// Every line of the `launches` shape starts 1000 ns after the profile's start.
const int64_t kBase = xspace_files::kProfileStart + 1000;
std::string At(int64_t ns_after_base) { return std::to_string(kBase + ns_after_base); }

class XplaneLaunches : public ::testing::Test {
 protected:
  void SetUp() override {
    xspace_files::Make("launches", dir / "a.xplane.pb");
    const auto summary = importers::ImportFile(dir / "a.xplane.pb", db);
    EXPECT_EQ(summary.format_name, "XSpace profile (.xplane.pb)");
  }
  test_support::ScratchDir dir;
  fs::path db = dir / "a.db";
};

TEST_F(XplaneLaunches, StreamsAreQueuesOfTheDeviceWithTheirPacketsAndBusyTime) {
  const auto stats = test_support::RunFencescopeJson("stats --json " + test_support::Quote(db));
  // Stream #7: kernels of 10, 10 and 1 us; Stream #8: one 3 us memcpy.
  EXPECT_EQ(test_support::IntAt(stats, "queues[0].packets_completed"), 3);
  EXPECT_EQ(test_support::IntAt(stats, "queues[0].busy_ns"), 21000);
  EXPECT_EQ(test_support::IntAt(stats, "queues[1].packets_completed"), 1);
  EXPECT_EQ(test_support::IntAt(stats, "queues[1].busy_ns"), 3000);
  EXPECT_EQ(RowsText(db, "SELECT qn.value, q.type, an.value FROM queues q "
                         "JOIN strings qn ON qn.id = q.name_sid "
                         "JOIN adapters a ON a.id = q.adapter_id "
                         "JOIN strings an ON an.id = a.name_sid ORDER BY q.id"),
            "/device:GPU:0 (NVIDIA) Stream #7(Compute)|1|/device:GPU:0 (NVIDIA)\n"
            "/device:GPU:0 (NVIDIA) Stream #8(MemcpyH2D)|2|/device:GPU:0 (NVIDIA)\n");
  // The aggregates (7 launches on a host thread, 3 kernels on the stream) are not drawn.
  EXPECT_EQ(FirstCell(db, "SELECT count FROM import_problems WHERE name = "
                          "'xplane_aggregate_events'"),
            "2");
  EXPECT_NE(FirstCell(db, "SELECT description FROM import_problems WHERE name = "
                          "'xplane_aggregate_events'")
                .find("10 in all"),
            std::string::npos);
  EXPECT_EQ(FirstCell(db, "SELECT MIN(ts_ns) FROM events"), At(0));
}

TEST_F(XplaneLaunches, KernelsAndMemcpysAreSubmittedByTheHostCallWithTheirCorrelationId) {
  // (packet name, submitted at, submitting thread's tid, launch call) by the packet's start.
  EXPECT_EQ(RowsText(db,
                     "SELECT s.value, p.ts_ns, IFNULL(t.tid, '-') FROM packet_started st "
                     "JOIN packet_submitted p ON p.packet_id = st.packet_id "
                     "JOIN strings s ON s.id = p.name_sid "
                     "LEFT JOIN threads t ON t.id = p.thread_id ORDER BY st.ts_ns"),
            "gemm_kernel|" + At(1000) + "|100\n" +    // correlation 11: launched at 1 us
                "MemcpyH2D|" + At(4000) + "|100\n" +  // 12: the memcpy call at 4 us
                "gemm_kernel|" + At(61000) + "|100\n" +  // 13: launched at 61 us
                "gemm_kernel|" + At(80000) + "|-\n");    // 99: no host call; its own start
  EXPECT_EQ(RowsText(db, "SELECT cs.value, ps.ts_ns FROM flows f "
                         "JOIN cpu_slice c ON c.event_id = f.from_event "
                         "JOIN strings cs ON cs.id = c.name_sid "
                         "JOIN packet_started ps ON ps.event_id = f.to_event "
                         "WHERE f.kind = 1 ORDER BY ps.ts_ns"),
            "cudaLaunchKernel|" + At(5000) + "\ncudaMemcpyAsync|" + At(6000) +
                "\ncudaLaunchKernel|" + At(65000) + "\n");
  EXPECT_EQ(FirstCell(db, "SELECT count FROM import_problems WHERE name = "
                          "'xplane_packets_not_linked'"),
            "1");
}

TEST_F(XplaneLaunches, HostLinesAreThreadsAndDeviceRowsAreNotQueues) {
  EXPECT_EQ(RowsText(db, "SELECT pn.value, t.tid, tn.value FROM threads t "
                         "JOIN processes p ON p.id = t.process_id "
                         "JOIN strings pn ON pn.id = p.name_sid "
                         "JOIN strings tn ON tn.id = t.name_sid ORDER BY t.id"),
            "hostA|100|python\n"
            "hostA|101|Host Threads/101\n"
            "/device:GPU:0 (NVIDIA)|65535|XLA Modules\n"
            "/device:GPU:0 (NVIDIA)|65534|XLA Ops\n"
            "hostA|-1|Steps (group_id)\n");
  // python: the two steps at depth 0, the calls inside them at depth 1.
  EXPECT_EQ(RowsText(db, "SELECT s.value, c.ts_ns, c.duration_ns, c.depth FROM cpu_slice c "
                         "JOIN threads t ON t.id = c.thread_id JOIN strings s ON s.id = c.name_sid "
                         "WHERE t.tid = 100 ORDER BY c.ts_ns"),
            "train_step|" + At(0) + "|50000|0\n" + "cudaLaunchKernel|" + At(1000) + "|2000|1\n" +
                "cudaMemcpyAsync|" + At(4000) + "|1000|1\n" + "train_step|" + At(60000) +
                "|40000|0\n" + "cudaLaunchKernel|" + At(61000) + "|2000|1\n");
  EXPECT_EQ(RowsText(db, "SELECT s.value, c.ts_ns, c.duration_ns FROM cpu_slice c "
                         "JOIN threads t ON t.id = c.thread_id JOIN strings s ON s.id = c.name_sid "
                         "JOIN strings tn ON tn.id = t.name_sid WHERE tn.value LIKE 'XLA %' ORDER BY t.id"),
            "jit_step|" + At(5000) + "|12000\nfusion.1|" + At(5000) + "|10000\n");
  EXPECT_EQ(FirstCell(db, "SELECT value FROM meta WHERE key = 'xplane./device:GPU:0.clock_rate'"),
            "1980000");
  EXPECT_EQ(FirstCell(db, "SELECT value FROM meta WHERE key = 'xplane.hostnames'"), "hostA");
}

TEST_F(XplaneLaunches, EachGroupIdIsAStepFromItsFirstEventToItsLast) {
  // Group 1: train_step 0-50 us holds every other event of the group; group 2: 60-100 us.
  EXPECT_EQ(RowsText(db, "SELECT s.value, c.ts_ns, c.duration_ns FROM cpu_slice c "
                         "JOIN strings s ON s.id = c.name_sid "
                         "WHERE s.value LIKE 'ProfilerStep#%' ORDER BY c.ts_ns"),
            "ProfilerStep#1|" + At(0) + "|50000\nProfilerStep#2|" + At(60000) + "|40000\n");
}

TEST(XplaneFleet, TwoHostsLineUpByTheirSteps) {
  test_support::ScratchDir dir;
  // hostB's file is hostA's with every time 1 ms later.
  xspace_files::Make("launches", dir / "hostA.xplane.pb", "hostA");
  xspace_files::Make("launches", dir / "hostB.xplane.pb", "hostB");
  const auto imported = test_support::RunFencescope(
      "fleet import " + test_support::Quote(dir / "hostA.xplane.pb") + " " +
      test_support::Quote(dir / "hostB.xplane.pb") + " -o " + test_support::Quote(dir / "fleet"));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  const auto report = test_support::RunFencescopeJson("fleet report " +
                                                      test_support::Quote(dir / "fleet") +
                                                      " --format json");
  EXPECT_EQ(test_support::IntAt(report, "ranks_count"), 2);
  EXPECT_EQ(test_support::IntAt(report, "traces_failed"), 0);
  EXPECT_EQ(test_support::IntAt(report, "steps[0].step"), 1);
  EXPECT_EQ(test_support::IntAt(report, "steps[0].step_ns_max"), 50000);
  EXPECT_EQ(test_support::IntAt(report, "clock.offsets[1].offset_ns"), 1'000'000);
}

}  // namespace

namespace {

TEST(XplaneSteps, StepMarkersCountBeforeGroupIds) {
  test_support::ScratchDir dir;
  xspace_files::Make("step_markers", dir / "s.xplane.pb");
  importers::ImportFile(dir / "s.xplane.pb", dir / "s.db");
  // "train" step_num 5 at 0-30 us and 6 at 60-90 us; the group_ids (1, 2) make no step.
  EXPECT_EQ(RowsText(dir / "s.db", "SELECT s.value, c.ts_ns, c.duration_ns, tn.value FROM "
                                   "cpu_slice c JOIN strings s ON s.id = c.name_sid "
                                   "JOIN threads t ON t.id = c.thread_id "
                                   "JOIN strings tn ON tn.id = t.name_sid "
                                   "WHERE s.value LIKE 'ProfilerStep#%' ORDER BY c.ts_ns"),
            "ProfilerStep#5|" + At(0) + "|30000|Steps (step_num)\nProfilerStep#6|" + At(60000) +
                "|30000|Steps (step_num)\n");
}

}  // namespace

namespace {

TEST(XplaneSniff, AnXSpaceWhoseFirstBytesReadAsJsonIsStillAnXSpace) {
  test_support::ScratchDir dir;
  xspace_files::Make("brace", dir / "b.xplane.pb");
  ASSERT_EQ(test_support::ReadFile(dir / "b.xplane.pb").substr(0, 2), "\n{");
  const auto summary = importers::ImportFile(dir / "b.xplane.pb", dir / "b.db");
  EXPECT_EQ(summary.format_name, "XSpace profile (.xplane.pb)");
  EXPECT_EQ(FirstCell(dir / "b.db", "SELECT COUNT(*) FROM packet_completed"), "4");
}

}  // namespace
