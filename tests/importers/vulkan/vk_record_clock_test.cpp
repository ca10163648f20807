// GPU times placed by paired-sample calibration keep the order the CPU saw: record files
// written here whose calibration is off by a few microseconds (as paired samples are on a busy
// machine). Every expected time is worked out by hand from the records below.
#include <gtest/gtest.h>

#include <string>

#include "core/store/sqlite_db.h"
#include "core/store/trace_writer.h"
#include "importers/vulkan/vk_record_format.h"
#include "importers/vulkan/vk_record_importer.h"
#include "tests/importers/vulkan/record_file.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

using namespace importers::vulkan;  // NOLINT
using vk_test::RecordFile;
using vk_test::Text;

constexpr uint32_t kTid = 10;
constexpr uint64_t kDevice = 0xD0, kQueue = 0x100, kTimeline = 0x300, kFence = 0x400;

// One device, one queue, a timeline semaphore T and a VkFence F. Paired-sample calibration:
// GPU tick 1000 (1 ns per tick) at CPU 1,002,000 +- 5,000, so CPU = ticks + 1,001,000 before
// any shift.
RecordFile Capture() {
  RecordFile f;
  FileHeader file;
  file.pid = 77;
  file.start_cpu_ns = 900'000;
  Text(file.process_name, "clock");
  f.Add(RecordType::kFileHeader, kTid, file);
  DeviceRecord device{kDevice, 0xF0, 0x10005, 0, 1.0f, 0, {}};
  Text(device.name, "Test GPU");
  f.Add(RecordType::kDevice, kTid, device);
  f.Add(RecordType::kCalibration, kTid,
        CalibrationRecord{kDevice, 1000, 1'002'000, 5'000,
                          uint32_t(CalibrationMethod::kPairedSamples), 8});
  f.Add(RecordType::kQueue, kTid, QueueRecord{kDevice, kQueue, 0, 0, 0x7, 64});
  f.Add(RecordType::kSemaphore, kTid,
        SemaphoreRecord{kDevice, kTimeline, uint32_t(SemaphoreKind::kTimeline), 0, 0});
  f.Add(RecordType::kSemaphore, kTid,
        SemaphoreRecord{kDevice, kFence, uint32_t(SemaphoreKind::kFence), 0, 0});
  return f;
}

// Batch `id` submitted at `cpu_ns`, run over GPU ticks [start, end].
void AddBatch(RecordFile& f, uint64_t id, uint64_t cpu_ns, uint64_t start, uint64_t end) {
  f.Add(RecordType::kBatch, kTid, BatchRecord{id, kQueue, cpu_ns, 1, 1, 0, 0});
  f.Add(RecordType::kBatchGpu, kTid, BatchGpuRecord{id, kDevice, start, end});
}

// Batch 1 waits for the host signal T = 1 at 1,250,000; its ticks 240,000..260,000 place it
// at 1,241,000..1,261,000, before the signal.
void AddBatchAfterHostSignal(RecordFile& f) {
  f.Add(RecordType::kHostSignal, kTid, HostSignalRecord{kTimeline, 1, 1'250'000});
  AddBatch(f, 1, 1'100'000, 240'000, 260'000);
  f.Add(RecordType::kBatchSync, kTid,
        BatchSyncRecord{1, kTimeline, 1, 0x400, uint32_t(SyncRole::kWait), 0});
}

// Batch `id` signals F; vkWaitForFences(F) from `wait_begin` returns at `wait_end`.
void AddFenceWait(RecordFile& f, uint64_t id, uint64_t wait_begin, uint64_t wait_end) {
  f.Add(RecordType::kBatchSync, kTid,
        BatchSyncRecord{id, kFence, 0, 0, uint32_t(SyncRole::kFence), 0});
  f.Add(RecordType::kCpuWaitItem, kTid,
        CpuWaitItemRecord{100 + id, kFence, 0, uint32_t(CpuWaitObject::kFence), 0});
  f.Add(RecordType::kCpuWaitDone, kTid,
        CpuWaitDoneRecord{100 + id, wait_begin, wait_end, UINT64_MAX, 0, 1});
}

class VulkanGpuClock : public ::testing::Test {
 protected:
  void Import(const RecordFile& records) {
    const auto path = m_dir / "clock.fsvk";
    records.Write(path);
    m_db = m_dir / "clock.db";
    core::store::TraceWriter writer(m_db, "vulkan-layer");
    ImportVulkanRecords({path}, writer);
    writer.Commit();
  }
  int64_t Count(const std::string& sql) {
    core::store::Database db(m_db.string(), core::store::Database::Mode::kReadOnly);
    return db.QueryInt(sql);
  }
  std::string Text(const std::string& sql) { return test_support::FirstCell(m_db, sql); }
  int64_t Problems(const std::string& name) {
    return Count("SELECT coalesce(sum(count), 0) FROM import_problems WHERE name = '" + name +
                 "'");
  }
  test_support::ScratchDir m_dir;
  std::filesystem::path m_db;
};

TEST_F(VulkanGpuClock, CompletionAfterTheCpuWaitReturnedIsShiftedBack) {
  // Batch 1 (submitted 1,100,000; ticks 200,000..300,000) is placed at 1,201,000..1,301,000,
  // but the vkWaitForFences its fence released returned at 1,300,500: shifted by -500.
  RecordFile f = Capture();
  AddBatch(f, 1, 1'100'000, 200'000, 300'000);
  AddFenceWait(f, 1, 1'150'000, 1'300'500);
  Import(f);
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_started WHERE packet_id = 1"), 1'200'500);
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_completed WHERE packet_id = 1"), 1'300'500);
  EXPECT_EQ(Count("SELECT count(*) FROM cpu_wait_released r JOIN flows l ON l.to_event = "
                  "r.event_id JOIN fence_signal_executed s ON s.event_id = l.from_event "
                  "WHERE s.ts_ns = 1300500 AND r.ts_ns = 1300500"),
            1);
  EXPECT_EQ(Text("SELECT value FROM meta WHERE key = 'vulkan_gpu_clock_causal_shift_ns'"), "500");
  EXPECT_EQ(Problems("vulkan_gpu_clock_shifted"), 1);
  EXPECT_EQ(Problems("vulkan_gpu_clock_out_of_causal_order"), 0);
  EXPECT_EQ(Problems("vulkan_gpu_clock_paired_samples"), 1);
}

TEST_F(VulkanGpuClock, StartBeforeTheHostSignalItWaitedForIsShiftedForward) {
  // Placed at 1,241,000 but released by T = 1 at 1,250,000: shifted by +9,000.
  RecordFile f = Capture();
  AddBatchAfterHostSignal(f);
  Import(f);
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_started WHERE packet_id = 1"), 1'250'000);
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_completed WHERE packet_id = 1"), 1'270'000);
  EXPECT_EQ(Count("SELECT ts_ns FROM fence_wait_unblocked WHERE fence_value = 1"), 1'250'000);
  EXPECT_EQ(Text("SELECT value FROM meta WHERE key = 'vulkan_gpu_clock_causal_shift_ns'"),
            "9000");
  EXPECT_EQ(Problems("vulkan_gpu_clock_shifted"), 1);
}

TEST_F(VulkanGpuClock, TimesInCausalOrderAreNotMoved) {
  // Batch 1 at 1,201,000..1,301,000, its wait returned at 1,302,000: nothing to correct.
  RecordFile f = Capture();
  AddBatch(f, 1, 1'100'000, 200'000, 300'000);
  AddFenceWait(f, 1, 1'150'000, 1'302'000);
  Import(f);
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_completed WHERE packet_id = 1"), 1'301'000);
  EXPECT_EQ(Count("SELECT count(*) FROM meta WHERE key = 'vulkan_gpu_clock_causal_shift_ns'"), 0);
  EXPECT_EQ(Problems("vulkan_gpu_clock_shifted"), 0);
}

TEST_F(VulkanGpuClock, ContradictoryBoundsMeetHalfwayAndSaySo) {
  // Batch 1 needs +9,000 (as above); batch 2 (ticks 300,000..310,000, placed at
  // 1,301,000..1,311,000) completes 6,000 after its wait returned at 1,305,000, so needs at most
  // -6,000. No shift does both: the middle, +1,500, leaves each 7,500 out of order.
  RecordFile f = Capture();
  AddBatchAfterHostSignal(f);
  AddBatch(f, 2, 1'200'000, 300'000, 310'000);
  AddFenceWait(f, 2, 1'260'000, 1'305'000);
  Import(f);
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_started WHERE packet_id = 1"), 1'242'500);
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_completed WHERE packet_id = 2"), 1'312'500);
  EXPECT_EQ(Problems("vulkan_gpu_clock_shifted"), 1);
  EXPECT_EQ(Problems("vulkan_gpu_clock_out_of_causal_order"), 1);
  EXPECT_NE(Text("SELECT description FROM import_problems WHERE name = "
                 "'vulkan_gpu_clock_out_of_causal_order'")
                .find("7500 ns"),
            std::string::npos);
}

// A damaged capture: batch 1's ticks lie ~2^63 before the calibration's (placed at the clamp,
// -4.6e18 + 1,002,000 ns) and the CPU wait its fence released returned at 7e18 ns. The bound
// that wait sets, 7e18 - (-4.6e18), is past int64: found by fuzz_vulkan_records as an overflow.
// Taken in double: the completion must come no later than +1.16e19 ns (met), the start no
// earlier than the submission at 1,100,000, so the shift wanted is 1,100,000 - (1,002,000 -
// 4.6e18), just past the 4.6e18 at which GPU times are clamped (int64's range, with room): held
// there, the batch starts at -4.6e18 + 1,002,000 + 4.6e18 = 1,002,000.
TEST_F(VulkanGpuClock, BoundsFarPastInt64AreTakenAsTheyAre) {
  RecordFile f = Capture();
  constexpr uint64_t kFarBefore = (uint64_t{1} << 63) + 1000;  // ticks - 1000 = -2^63 as int64
  AddBatch(f, 1, 1'100'000, kFarBefore, kFarBefore + 100);
  AddFenceWait(f, 1, 1'150'000, 7'000'000'000'000'000'000);
  Import(f);
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_started WHERE packet_id = 1"), 1'002'000);
  EXPECT_EQ(Problems("vulkan_gpu_clock_shifted"), 1);
  EXPECT_EQ(Problems("vulkan_gpu_clock_out_of_causal_order"), 0);
}

}  // namespace
