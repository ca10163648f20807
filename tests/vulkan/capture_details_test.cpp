// The timeline program's status polls, debug-utils names and labels, and its GPU times when
// the layer calibrates by paired samples instead of VK_EXT_calibrated_timestamps. What each
// test expects is what tests/vulkan/program/timeline_program.cpp does (its header lists it).
#include "tests/vulkan/vulkan_test_support.h"

namespace {

using namespace vulkan_test;  // NOLINT

TEST_F(VulkanCapture, PollRunsAreCpuWaitsReleasedByTheSignalThatEndedThem) {
  if (auto why = ProgramUnavailable(); !why.empty()) GTEST_SKIP() << why;
  ScratchDir dir;
  const auto db_path = CaptureProgram(dir, "polls");
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);
  const std::string t =
      "(SELECT id FROM fences WHERE name_sid IN (SELECT id FROM strings "
      "WHERE value = 'VkSemaphore (timeline) T'))";
  const std::string f2 =
      "(SELECT id FROM fences WHERE name_sid IN (SELECT id FROM strings "
      "WHERE value = 'VkFence F2'))";
  // The run on T: one wait for 4 (one more than the 3 its first poll read), released by the
  // host signal T = 4, which came after the wait began (the helper signals after the first poll).
  EXPECT_EQ(
      Count(db, "SELECT count(*) FROM cpu_wait_begin WHERE fence_value = 4 AND fence_id = " + t),
      1);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM cpu_wait_released r JOIN flows f ON f.to_event = "
                  "r.event_id JOIN fence_cpu_signal s ON s.event_id = f.from_event "
                  "JOIN cpu_wait_begin b ON b.waiter_id = r.waiter_id "
                  "WHERE r.fence_id = " +
                      t +
                      " AND r.fence_value = 4 AND s.fence_value = 4 AND "
                      "b.ts_ns <= s.ts_ns AND s.ts_ns <= r.ts_ns"),
            1);
  // The run on F2: one wait, begun before batch 3 was submitted (the helper submits it after
  // the first poll), released by batch 3's fence signal at its GPU end.
  EXPECT_EQ(Count(db, "SELECT count(*) FROM cpu_wait_begin WHERE fence_id = " + f2), 1);
  EXPECT_EQ(
      Count(db,
            "SELECT count(*) FROM cpu_wait_released r JOIN flows f ON f.to_event = "
            "r.event_id JOIN fence_signal_executed s ON s.event_id = f.from_event "
            "JOIN cpu_wait_begin b ON b.waiter_id = r.waiter_id "
            "JOIN packet_completed c ON c.ts_ns = s.ts_ns "
            "JOIN packet_submitted p ON p.packet_id = c.packet_id "
            "WHERE r.fence_id = " +
                f2 + " AND s.fence_id = " + f2 + " AND b.ts_ns < p.ts_ns AND s.ts_ns <= r.ts_ns"),
      1);
  // No other waits on T or F2 (the program polls nothing else and waits on F2 no other way).
  EXPECT_EQ(Count(db, "SELECT count(*) FROM cpu_wait_begin WHERE fence_id = " + t), 2);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM cpu_wait_released WHERE fence_id = " + f2), 1);
}

TEST_F(VulkanCapture, DebugUtilsNamesAndLabelsNameQueuesFencesAndPackets) {
  if (auto why = ProgramUnavailable(); !why.empty()) GTEST_SKIP() << why;
  ScratchDir dir;
  const auto db_path = CaptureProgram(dir, "names");
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);
  EXPECT_EQ(Text(db, "SELECT s.value FROM queues q JOIN strings s ON s.id = q.name_sid"),
            "main queue");
  for (const char* fence :
       {"VkSemaphore (timeline) T", "VkSemaphore (binary) B", "VkFence F", "VkFence F2"}) {
    EXPECT_EQ(Count(db, fmt::format("SELECT count(*) FROM fences f JOIN strings s ON s.id = "
                                    "f.name_sid WHERE s.value = '{}'",
                                    fence)),
              1)
        << fence;
  }
  // Packets in submission order: batch 1 under the queue label "frame 1" with the outermost
  // labels of its command buffer; batch 2 under "frame 1" with its command buffer's name;
  // batch 3, after the label ended, with its command buffer's name.
  const std::string names =
      "SELECT group_concat(value, '|') FROM (SELECT s.value FROM packet_submitted p JOIN "
      "strings s ON s.id = p.name_sid ORDER BY p.ts_ns)";
  EXPECT_EQ(Text(db, names), "frame 1 / draw pass, copy pass|frame 1 / second cb|third cb");
  // The inserted label: a marker on the queue, between batch 1 and batch 2.
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM marker m JOIN strings s ON s.id = m.name_sid "
                  "WHERE s.value = 'between batches' AND m.queue_id = (SELECT id FROM queues) "
                  "AND m.ts_ns > (SELECT min(ts_ns) FROM packet_submitted) "
                  "AND m.ts_ns < (SELECT ts_ns FROM packet_submitted ORDER BY ts_ns LIMIT 1 "
                  "OFFSET 1)"),
            1);
}

// Without VK_EXT_calibrated_timestamps (forced off) the GPU times come from paired samples; each
// batch's GPU start and end still lie between what must precede and what must follow them on
// the CPU clock: batch 1 starts after the host signal T = 1 it waited for, batch 2 after batch 1
// ends, batch 3 after its submission; batches 1 and 2 end before vkWaitSemaphores(T >= 3)
// returns, batch 3 before the poll that found F2 signalled returns.
TEST_F(VulkanCapture, PairedSampleCalibrationKeepsGpuTimesInsideTheirCpuWindows) {
  if (auto why = ProgramUnavailable(); !why.empty()) GTEST_SKIP() << why;
  ScratchDir dir;
  const auto db_path = CaptureProgram(dir, "paired", "FENCESCOPE_CAPTURE_CALIBRATION=samples ");
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);
  EXPECT_EQ(Text(db, "SELECT value FROM meta WHERE key = 'vulkan_gpu_clock'"), "paired_samples");
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM import_problems WHERE name = "
                  "'vulkan_gpu_clock_paired_samples'"),
            1);
  const std::string batch = "SELECT packet_id FROM packet_submitted ORDER BY ts_ns LIMIT 1 OFFSET ";
  auto started = [&](int i) {
    return Count(
        db, fmt::format("SELECT ts_ns FROM packet_started WHERE packet_id = ({}{})", batch, i));
  };
  auto completed = [&](int i) {
    return Count(
        db, fmt::format("SELECT ts_ns FROM packet_completed WHERE packet_id = ({}{})", batch, i));
  };
  auto submitted = [&](int i) {
    return Count(
        db, fmt::format("SELECT ts_ns FROM packet_submitted WHERE packet_id = ({}{})", batch, i));
  };
  const int64_t host_signal_1 =
      Count(db, "SELECT ts_ns FROM fence_cpu_signal WHERE fence_value = 1");
  const int64_t wait_t3_released =
      Count(db, "SELECT ts_ns FROM cpu_wait_released WHERE fence_value = 3");
  const int64_t poll_f2_released =
      Count(db,
            "SELECT r.ts_ns FROM cpu_wait_released r JOIN fences f ON f.id = r.fence_id JOIN "
            "strings s ON s.id = f.name_sid WHERE s.value = 'VkFence F2'");
  EXPECT_GE(started(0), host_signal_1);
  EXPECT_LE(completed(0), started(1));
  EXPECT_LE(completed(1), wait_t3_released);
  EXPECT_GE(started(2), submitted(2));
  EXPECT_LE(completed(2), poll_f2_released);
  for (int i = 0; i < 3; ++i) EXPECT_LE(started(i), completed(i)) << "batch " << i + 1;
}

}  // namespace
