// The Vulkan record importer on record files written here (the layer's format,
// importers/vulkan/vk_record_format.h): two queues of two families on one device, a
// cross-queue timeline-semaphore wait, a fence waited for on the CPU and a run of polls. Every
// expected time, id and link is worked out by hand from the records below.
#include "importers/vulkan/vk_record_importer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/store/sqlite_db.h"
#include "core/store/trace_writer.h"
#include "importers/vulkan/vk_record_format.h"
#include "tests/importers/vulkan/record_file.h"
#include "tests/support/test_support.h"

namespace {

using namespace importers::vulkan;  // NOLINT

using vk_test::RecordFile;
using vk_test::Text;

constexpr uint32_t kMain = 10, kWorker = 11;
constexpr uint64_t kDevice = 0xD0, kPhysical = 0xF0;
constexpr uint64_t kGraphics = 0x100, kCompute = 0x200, kTimeline = 0x300, kFence = 0x400;
constexpr uint64_t kPolledFence = 0x500;
// Calibration: GPU tick 1000 (1 ns per tick) is CPU time 1,000,000, so CPU = ticks + 999,000.
constexpr uint64_t kOffset = 999'000;

// Batch 1 on the compute queue (worker thread) signals T = 5; batch 2 on the graphics queue
// (main thread) waits T >= 5 and signals F; the main thread waits for F with vkWaitForFences,
// then batch 3 on the compute queue signals the polled fence P, which the worker polled for.
void WriteTwoQueueCapture(const std::filesystem::path& path) {
  RecordFile f;
  FileHeader file;
  file.pid = 4242;
  file.start_cpu_ns = 900'000;
  Text(file.process_name, "twoqueues");
  f.Add(RecordType::kFileHeader, kMain, file);
  ThreadRecord main_thread{900'000, {}}, worker_thread{900'000, {}};
  Text(main_thread.name, "main");
  Text(worker_thread.name, "worker");
  f.Add(RecordType::kThread, kMain, main_thread);
  f.Add(RecordType::kThread, kWorker, worker_thread);
  DeviceRecord device{kDevice, kPhysical, 0x10005, 0, 1.0f, 1, {}};
  Text(device.name, "Test GPU");
  f.Add(RecordType::kDevice, kMain, device);
  f.Add(RecordType::kCalibration, kMain,
        CalibrationRecord{kDevice, 1000, 1'000'000, 50,
                          uint32_t(CalibrationMethod::kCalibratedTimestamps), 1});
  f.Add(RecordType::kQueue, kMain, QueueRecord{kDevice, kGraphics, 0, 0, 0x7, 64});
  f.Add(RecordType::kQueue, kMain, QueueRecord{kDevice, kCompute, 1, 0, 0x2, 64});
  f.Add(RecordType::kSemaphore, kMain,
        SemaphoreRecord{kDevice, kTimeline, uint32_t(SemaphoreKind::kTimeline), 0, 0});
  f.Add(RecordType::kSemaphore, kMain,
        SemaphoreRecord{kDevice, kFence, uint32_t(SemaphoreKind::kFence), 0, 0});
  f.Add(RecordType::kSemaphore, kMain,
        SemaphoreRecord{kDevice, kPolledFence, uint32_t(SemaphoreKind::kFence), 0, 0});
  const std::string graphics = "graphics", compute = "async compute";
  f.Add(RecordType::kName, kMain, NameRecord{kGraphics, 4, uint32_t(graphics.size())}, graphics);
  f.Add(RecordType::kName, kMain, NameRecord{kCompute, 4, uint32_t(compute.size())}, compute);

  f.Add(RecordType::kBatch, kWorker, BatchRecord{1, kCompute, 1'100'000, 1, 1, 0, 0});
  f.Add(RecordType::kBatchSync, kWorker,
        BatchSyncRecord{1, kTimeline, 5, 0, uint32_t(SyncRole::kSignal), 0});
  f.Add(RecordType::kBatch, kMain, BatchRecord{2, kGraphics, 1'150'000, 1, 1, 1, 0});
  f.Add(RecordType::kBatchSync, kMain,
        BatchSyncRecord{2, kTimeline, 5, 0x400, uint32_t(SyncRole::kWait), 0});
  f.Add(RecordType::kBatchSync, kMain,
        BatchSyncRecord{2, kFence, 0, 0, uint32_t(SyncRole::kFence), 0});
  f.Add(RecordType::kCpuWaitItem, kMain,
        CpuWaitItemRecord{3, kFence, 0, uint32_t(CpuWaitObject::kFence), 0});
  // GPU times arrive later, as the layer reads them: ticks 200,000..300,000 and 310,000..400,000.
  f.Add(RecordType::kBatchGpu, kWorker, BatchGpuRecord{1, kDevice, 200'000, 300'000});
  f.Add(RecordType::kBatchGpu, kMain, BatchGpuRecord{2, kDevice, 310'000, 400'000});
  f.Add(RecordType::kCpuWaitDone, kMain,
        CpuWaitDoneRecord{3, 1'160'000, 1'400'500, UINT64_MAX, 0, 1});
  // The worker polls P from 1,410,000; batch 3 (submitted 1,420,000, ticks 430,000..440,000)
  // signals it; the poll at 1,440,200 finds it signalled.
  f.Add(RecordType::kBatch, kMain, BatchRecord{4, kCompute, 1'420'000, 1, 1, 0, 0});
  f.Add(RecordType::kBatchSync, kMain,
        BatchSyncRecord{4, kPolledFence, 0, 0, uint32_t(SyncRole::kFence), 0});
  f.Add(RecordType::kBatchGpu, kMain, BatchGpuRecord{4, kDevice, 430'000, 440'000});
  f.Add(RecordType::kPollWait, kWorker,
        PollWaitRecord{5, kPolledFence, 0, 1, 1'410'000, 1'440'200, uint32_t(CpuWaitObject::kFence),
                       7});
  f.Write(path);
}

class VulkanRecordImport : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto records = m_dir / "two_queues.fsvk";
    WriteTwoQueueCapture(records);
    ASSERT_TRUE(IsVulkanRecordFile(records));
    m_db = m_dir / "two_queues.db";
    core::store::TraceWriter writer(m_db, "vulkan-layer");
    m_stats = ImportVulkanRecords({records}, writer);
    writer.Commit();
  }
  int64_t Count(const std::string& sql) {
    core::store::Database db(m_db.string(), core::store::Database::Mode::kReadOnly);
    return db.QueryInt(sql);
  }
  // The id of the queue named `name`.
  std::string Queue(const std::string& name) {
    return "(SELECT q.id FROM queues q JOIN strings s ON s.id = q.name_sid WHERE s.value = '" +
           name + "')";
  }

  // CPU waits released at `released` and linked by a flow to a GPU signal executed at `signal`
  // on the queue named `queue`.
  int64_t CpuWaitsReleasedBy(int64_t released, int64_t signal, const std::string& queue) {
    return Count(
        "SELECT count(*) FROM cpu_wait_released r JOIN flows f ON f.to_event = r.event_id "
        "JOIN fence_signal_executed s ON s.event_id = f.from_event WHERE r.ts_ns = " +
        std::to_string(released) + " AND s.ts_ns = " + std::to_string(signal) +
        " AND s.queue_id = " + Queue(queue));
  }

  test_support::ScratchDir m_dir;
  std::filesystem::path m_db;
  VulkanImportStats m_stats;
};

TEST_F(VulkanRecordImport, TwoFamiliesAreTwoEnginesWithANamedQueueEach) {
  EXPECT_EQ(Count("SELECT count(*) FROM adapters"), 1);
  EXPECT_EQ(Count("SELECT count(*) FROM engines"), 2);
  EXPECT_EQ(Count("SELECT count(*) FROM engines WHERE ordinal = 0 AND type = 0"), 1);  // 3D
  EXPECT_EQ(Count("SELECT count(*) FROM queues"), 2);
  EXPECT_EQ(Count("SELECT count(*) FROM queues q JOIN engines e ON e.id = q.engine_id "
                  "WHERE e.ordinal = 1 AND q.id = " +
                  Queue("async compute")),
            1);
  EXPECT_EQ(Count("SELECT count(*) FROM threads"), 2);
  EXPECT_EQ(m_stats.batches, 3u);
  EXPECT_EQ(m_stats.timed_batches, 3u);
}

TEST_F(VulkanRecordImport, CrossQueueTimelineWaitIsReleasedByTheOtherQueuesSignal) {
  // Batch 1 on the compute queue: GPU 1,199,000..1,299,000; its T = 5 executed at its end.
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_started WHERE packet_id = 1"), 200'000 + kOffset);
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_completed WHERE packet_id = 1"), 300'000 + kOffset);
  EXPECT_EQ(Count("SELECT count(*) FROM packet_submitted WHERE packet_id = 1 AND queue_id = " +
                  Queue("async compute")),
            1);
  EXPECT_EQ(Count("SELECT count(*) FROM fence_signal_executed WHERE fence_value = 5 AND ts_ns = "
                  "1299000 AND queue_id = " +
                  Queue("async compute")),
            1);
  // Batch 2's wait on the graphics queue: queued at its submission, unblocked when T = 5
  // executed on the compute queue, linked to that signal (timeline: from the capture).
  EXPECT_EQ(Count("SELECT count(*) FROM fence_wait_queued WHERE ts_ns = 1150000 AND "
                  "fence_value = 5 AND queue_id = " +
                  Queue("graphics")),
            1);
  EXPECT_EQ(Count("SELECT count(*) FROM fence_wait_unblocked w JOIN fence_signal_executed s ON "
                  "s.signal_id = w.released_by_signal_id WHERE w.ts_ns = 1299000 AND "
                  "w.release_link = 1 AND w.queue_id = " +
                  Queue("graphics") + " AND s.queue_id = " + Queue("async compute")),
            1);
  EXPECT_EQ(Count("SELECT count(*) FROM fence_wait_unblocked"), 1);
  // Batch 2 ran after the wait: GPU 1,309,000..1,399,000 on the graphics queue.
  EXPECT_EQ(Count("SELECT ts_ns FROM packet_started WHERE packet_id = 2"), 310'000 + kOffset);
}

TEST_F(VulkanRecordImport, CpuWaitsAreReleasedByTheSignalsOfEitherQueue) {
  // vkWaitForFences(F): 1,160,000 -> 1,400,500, released by batch 2's F (graphics, 1,399,000).
  EXPECT_EQ(Count("SELECT count(*) FROM cpu_wait_begin"), 2);
  EXPECT_EQ(CpuWaitsReleasedBy(1'400'500, 1'399'000, "graphics"), 1);
  // The polls of P: 1,410,000 -> 1,440,200, released by batch 3's P on the compute queue at
  // its GPU end 1,439,000; P's value is the one signal submitted before the last poll.
  EXPECT_EQ(Count("SELECT count(*) FROM cpu_wait_begin WHERE ts_ns = 1410000 AND fence_value = "
                  "1"),
            1);
  EXPECT_EQ(CpuWaitsReleasedBy(1'440'200, 1'439'000, "async compute"), 1);
  EXPECT_EQ(Count("SELECT count(*) FROM flows"), 2);
  EXPECT_EQ(m_stats.cpu_waits, 2u);
  EXPECT_EQ(m_stats.cpu_waits_linked, 2u);
  EXPECT_EQ(m_stats.cpu_wait_polls, 1u);
}

// Names that fill their fixed-size fields to the last byte, with no NUL: each is read as the
// whole field and nothing after it (the record bytes that follow are not part of the name).
TEST(VulkanRecordNames, AFieldWithoutNulIsReadToItsEnd) {
  test_support::ScratchDir dir;
  RecordFile f;
  FileHeader file;
  file.pid = 5;
  const std::string process(sizeof file.process_name, 'p');
  process.copy(file.process_name, sizeof file.process_name);
  f.Add(RecordType::kFileHeader, kMain, file);
  ThreadRecord thread{1, {}};
  const std::string thread_name(sizeof thread.name, 't');
  thread_name.copy(thread.name, sizeof thread.name);
  f.Add(RecordType::kThread, kMain, thread);
  DeviceRecord device{kDevice, kPhysical, 0x10005, 0, 1.0f, 1, {}};
  const std::string device_name(sizeof device.name, 'd');
  device_name.copy(device.name, sizeof device.name);
  f.Add(RecordType::kDevice, kMain, device);
  f.Add(RecordType::kQueue, kMain, QueueRecord{kDevice, kGraphics, 0, 0, 0x7, 64});
  f.Add(RecordType::kBatch, kMain, BatchRecord{1, kGraphics, 1'000, 1, 0, 0, 0});
  const auto records = dir / "names.fsvk";
  f.Write(records);
  const auto db_path = dir / "names.db";
  {
    core::store::TraceWriter writer(db_path, "vulkan-layer");
    ImportVulkanRecords({records}, writer);
    writer.Commit();
  }
  core::store::Database db(db_path.string(), core::store::Database::Mode::kReadOnly);
  auto name_of = [&](const std::string& table) {
    auto s = db.Prepare("SELECT s.value FROM " + table + " t JOIN strings s ON s.id = t.name_sid");
    return s.Step() ? s.ColumnText(0) : std::string("(none)");
  };
  EXPECT_EQ(name_of("processes"), process + " (5)");
  EXPECT_EQ(name_of("threads"), thread_name + " (" + std::to_string(kMain) + ")");
  EXPECT_EQ(name_of("adapters"), device_name);
}

}  // namespace
