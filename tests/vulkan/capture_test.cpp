// `fencescope capture` with the Vulkan layer on real components: Mesa's software driver
// (lavapipe), the timeline program of tests/vulkan/program (every record kind, counts known
// from its code), vkcube and vkd3d-gears under a display. A test whose component cannot start
// (no Vulkan device, no display, program not installed) is skipped with the reason. Polls,
// debug-utils names and the paired-sample calibration: capture_details_test.cpp.
#include "tests/vulkan/vulkan_test_support.h"

namespace {

using namespace vulkan_test;  // NOLINT

std::string NoDisplay() {
  const char* display = std::getenv("DISPLAY");
  if (!display || !*display) return "no display (DISPLAY unset): run under xvfb-run";
  return {};
}

// Expects each table or view (with an optional WHERE) to hold the given number of rows; a
// failure names the table.
void ExpectRowCounts(core::store::Database& db,
                     std::initializer_list<std::pair<const char*, int64_t>> expected) {
  for (const auto& [table, rows] : expected) {
    EXPECT_EQ(Count(db, std::string("SELECT count(*) FROM ") + table), rows) << table;
  }
}

// `fencescope capture` (with `options`) of the timeline program run with `program_args` that keep
// it from ending: the capture must stop it with `signal` and still succeed.
void CaptureHangingProgram(const std::filesystem::path& db_path, const std::string& options,
                           const std::string& program_args, int signal) {
  auto run = RunFencescope(fmt::format("capture -o {} {} -- {} {}", Quote(db_path), options,
                                       Quote(kProgram), program_args));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find(fmt::format("ended by signal {}", signal)), std::string::npos) << run.err;
}

bool Installed(const std::string& program) {
  return RunCommand("command -v " + program).exit_code == 0;
}

TEST_F(VulkanCapture, TimelineProgramEveryRecordKindCountedExactly) {
  if (auto why = ProgramUnavailable(); !why.empty()) GTEST_SKIP() << why;
  ScratchDir dir;
  const auto db_path = dir / "timeline.db";
  auto run = RunFencescope(fmt::format("capture -o {} -- {}", Quote(db_path), Quote(kProgram)));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_NE(run.out.find("3 batches (3 with GPU times, 3 named)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("6 CPU waits (6 linked to a signal, 2 by polling)"), std::string::npos)
      << run.out;
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);

  // Topology: lavapipe's one queue family (graphics + compute + transfer), one queue, the main
  // thread, the host-signal thread and the polls' helper thread; T, B, F, F2 and the queue's
  // idle fence.
  ExpectRowCounts(db, {{"adapters", 1},
                       {"queues", 1},
                       {"processes", 1},
                       {"threads", 3},
                       {"engines WHERE type = 0", 1},
                       {"fences", 5}});

  // Three batches, each with GPU times inside its submission..completion order.
  ExpectRowCounts(db, {{"packet_submitted", 3}, {"packet_started", 3}, {"packet_completed", 3}});
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM packet_submitted s JOIN packet_started b USING "
                  "(packet_id) JOIN packet_completed c USING (packet_id) "
                  "WHERE s.ts_ns <= b.ts_ns AND b.ts_ns <= c.ts_ns"),
            3);
  // Batch 1 ran only after the first host signal released it.
  EXPECT_EQ(Count(db,
                  "SELECT (SELECT min(ts_ns) FROM packet_started) >= "
                  "(SELECT min(ts_ns) FROM fence_cpu_signal)"),
            1);

  // GPU waits: T>=1 (batch 1), B and T>=2 (batch 2); each unblocked and linked to its signal.
  ExpectRowCounts(db, {{"fence_wait_queued", 3}, {"fence_wait_unblocked", 3}});
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM fence_wait_unblocked WHERE released_by_signal_id > "
                  "0"),
            3);
  // T >= 1 was released by the host signal.
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM fence_wait_unblocked w JOIN fence_cpu_signal h ON "
                  "h.signal_id = w.released_by_signal_id WHERE w.fence_value = 1 AND "
                  "h.fence_value = 1"),
            1);
  // B and T >= 2 were released by batch 1's signals, executed at its GPU end.
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM fence_wait_unblocked w JOIN fence_signal_executed s "
                  "ON s.signal_id = w.released_by_signal_id AND s.fence_id = w.fence_id "
                  "WHERE s.ts_ns = (SELECT min(ts_ns) FROM packet_completed)"),
            2);
  ExpectRowCounts(db, {{"fence_wait_unblocked WHERE release_link = 1", 1 + 1},
                       {"fence_wait_unblocked WHERE release_link = 2", 1}});

  // Signals: batch 1 T=2 and B, batch 2 T=3 and F, batch 3 F2, the idle fence's value 2 (both
  // idle waits came after two batches).
  ExpectRowCounts(db, {{"fence_signal_queued", 6}, {"fence_signal_executed", 6}});
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM fence_signal_executed WHERE fence_value = 3 AND "
                  "previous_value = 2"),
            1);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM fence_signal_executed s JOIN packet_completed c ON "
                  "s.ts_ns = c.ts_ns"),
            6);
  // Host signals: T = 1 and T = 4.
  EXPECT_EQ(Count(db, "SELECT count(*) FROM fence_cpu_signal"), 2);

  // CPU waits: vkWaitSemaphores, vkWaitForFences, vkQueueWaitIdle, vkDeviceWaitIdle and the two
  // runs of polls; each released after the signal that satisfied it, linked by a fence flow
  // (five from GPU signals, the poll of T from the host signal T = 4).
  ExpectRowCounts(db,
                  {{"cpu_wait_begin", 6}, {"cpu_wait_released", 6}, {"flows WHERE kind = 2", 6}});
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM flows f JOIN events s ON s.rowid = f.from_event "
                  "JOIN cpu_wait_released r ON r.event_id = f.to_event "
                  "WHERE s.kind = 11 AND s.fence_id = r.fence_id AND s.ts_ns <= r.ts_ns"),
            5);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM flows f JOIN events s ON s.rowid = f.from_event "
                  "JOIN cpu_wait_released r ON r.event_id = f.to_event "
                  "WHERE s.kind = 14 AND s.fence_id = r.fence_id AND s.ts_ns <= r.ts_ns"),
            1);
  // The one inserted queue label.
  ExpectRowCounts(db, {{"marker", 1}, {"wait_pending_at_end", 0}});

  // The report opens the capture.
  auto report = RunFencescope(fmt::format("report {}", Quote(db_path)));
  EXPECT_EQ(report.exit_code, 0) << report.err;
}

TEST_F(VulkanCapture, RecordsWrittenByHandConvert) {
  if (auto why = ProgramUnavailable(); !why.empty()) GTEST_SKIP() << why;
  ScratchDir dir;
  const auto layer_dir =
      std::filesystem::path(FENCESCOPE_EXECUTABLE).parent_path() / "vulkan_layer";
  const auto records = dir / "by_hand.fsvk";
  auto run =
      RunCommand(fmt::format("VK_LAYER_PATH={} VK_INSTANCE_LAYERS=VK_LAYER_FENCESCOPE_capture "
                             "FENCESCOPE_CAPTURE_OUT={} {}",
                             Quote(layer_dir), Quote(records), Quote(kProgram)));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  ASSERT_TRUE(std::filesystem::exists(records));
  const auto db_path = dir / "by_hand.db";
  auto convert =
      RunFencescope(fmt::format("capture -o {} --records {}", Quote(db_path), Quote(records)));
  ASSERT_EQ(convert.exit_code, 0) << convert.err;
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);
  ExpectRowCounts(db, {{"packet_submitted", 3}, {"cpu_wait_released", 6}});
}

TEST_F(VulkanCapture, StoppedAfterDurationKeepsWhatItDid) {
  if (auto why = ProgramUnavailable(); !why.empty()) GTEST_SKIP() << why;
  ScratchDir dir;
  const auto db_path = dir / "stopped.db";
  ASSERT_NO_FATAL_FAILURE(CaptureHangingProgram(db_path, "--duration 1.5", "--hang", 2));
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);
  ExpectRowCounts(db, {{"packet_completed", 3}, {"cpu_wait_released", 6}});
}

TEST_F(VulkanCapture, ApplicationIgnoringSigintIsStoppedWithSigterm) {
  if (auto why = ProgramUnavailable(); !why.empty()) GTEST_SKIP() << why;
  ScratchDir dir;
  const auto db_path = dir / "sigterm.db";
  ASSERT_NO_FATAL_FAILURE(
      CaptureHangingProgram(db_path, "--duration 1 --grace 0.5", "--hang --ignore-sigint", 15));
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM packet_submitted"), 3);
}

TEST_F(VulkanCapture, LayerThatDoesNotLoadIsReported) {
  if (auto why = ProgramUnavailable(); !why.empty()) GTEST_SKIP() << why;
  ScratchDir dir;
  // A manifest whose library is missing: the loader skips the layer and the program runs.
  std::filesystem::create_directories(dir / "layer");
  {
    std::FILE* f = std::fopen((dir / "layer" / "VkLayer_fencescope_capture.json").c_str(), "w");
    ASSERT_TRUE(f);
    std::fputs(R"({"file_format_version": "1.1.2", "layer": {"name": )"
               R"("VK_LAYER_FENCESCOPE_capture", "type": "GLOBAL", "library_path": )"
               R"("./missing.so", "api_version": "1.3.0", "implementation_version": "1", )"
               R"("description": "broken"}})",
               f);
    std::fclose(f);
  }
  const auto db_path = dir / "none.db";
  setenv("FENCESCOPE_VULKAN_LAYER_DIR", (dir / "layer").c_str(), 1);
  auto run = RunFencescope(fmt::format("capture -o {} -- {}", Quote(db_path), Quote(kProgram)));
  unsetenv("FENCESCOPE_VULKAN_LAYER_DIR");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.err.find("did not load"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(db_path));
}

TEST_F(VulkanCapture, VkcubeFixedFrameCount) {
  if (auto why = ProgramUnavailable(); !why.empty()) GTEST_SKIP() << why;
  if (auto why = NoDisplay(); !why.empty()) GTEST_SKIP() << why;
  if (!Installed("vkcube")) GTEST_SKIP() << "vkcube is not installed (vulkan-tools)";
  ScratchDir dir;
  const auto db_path = dir / "vkcube.db";
  constexpr int kFrames = 60;
  auto run = RunFencescope(fmt::format("capture -o {} -- vkcube --c {}", Quote(db_path), kFrames));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);
  EXPECT_GE(Count(db, "SELECT count(*) FROM packet_submitted"), kFrames);
  EXPECT_GE(Count(db,
                  "SELECT count(*) FROM packet_submitted s JOIN packet_started b USING "
                  "(packet_id) JOIN packet_completed c USING (packet_id) "
                  "WHERE s.ts_ns <= b.ts_ns AND b.ts_ns <= c.ts_ns"),
            kFrames);
  EXPECT_EQ(Count(db, "SELECT count(*) FROM marker WHERE marker_type = 2"), kFrames);
  // Frame fences waited for on the CPU: every wait on a submitted fence is linked to it.
  EXPECT_GE(Count(db, "SELECT count(*) FROM cpu_wait_released"), kFrames - 2);
  EXPECT_GE(Count(db, "SELECT count(*) FROM flows WHERE kind = 2"), kFrames - 2);
  EXPECT_EQ(Count(db,
                  "SELECT count(*) FROM cpu_wait_released r WHERE fence_value > 0 AND NOT "
                  "EXISTS (SELECT 1 FROM flows f WHERE f.to_event = r.event_id)"),
            0);
  // Each frame's acquire semaphore is waited for by a batch, linked to the acquire.
  EXPECT_GE(Count(db,
                  "SELECT count(*) FROM fence_wait_unblocked w JOIN fence_cpu_signal s ON "
                  "s.signal_id = w.released_by_signal_id"),
            kFrames);
  auto report = RunFencescope(fmt::format("report {}", Quote(db_path)));
  EXPECT_EQ(report.exit_code, 0) << report.err;
}

TEST_F(VulkanCapture, Vkd3dGearsForTwoSeconds) {
  if (auto why = ProgramUnavailable(); !why.empty()) GTEST_SKIP() << why;
  if (auto why = NoDisplay(); !why.empty()) GTEST_SKIP() << why;
  if (!Installed("vkd3d-gears")) GTEST_SKIP() << "vkd3d-gears is not installed (vkd3d-demos)";
  ScratchDir dir;
  const auto db_path = dir / "gears.db";
  auto run = RunFencescope(
      fmt::format("capture -o {} --duration 2 --grace 1 -- vkd3d-gears", Quote(db_path)));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);
  const int64_t presents = Count(db, "SELECT count(*) FROM marker WHERE marker_type = 2");
  EXPECT_GE(presents, 2);
  EXPECT_GE(Count(db, "SELECT count(*) FROM packet_completed"), presents);
  // D3D12 fence waits become VkFence / semaphore waits on vkd3d's threads.
  EXPECT_GE(Count(db, "SELECT count(*) FROM cpu_wait_released"), 1);
  EXPECT_GE(Count(db, "SELECT count(*) FROM threads"), 2);
  auto report = RunFencescope(fmt::format("report {}", Quote(db_path)));
  EXPECT_EQ(report.exit_code, 0) << report.err;
}

}  // namespace
