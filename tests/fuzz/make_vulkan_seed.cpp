// Writes a seed for fuzz_vulkan_records: one process's record file (the capture layer's format,
// importers/vulkan/vk_record_format.h) holding every record type at least once, so that the
// fuzzer starts from inputs that reach each branch of the importer: two queues of two
// families, binary and timeline semaphores and a fence, a cross-queue wait, host signals, CPU
// waits (a call and a run of polls), a present, an acquire, queue labels, names.
// Usage: make_vulkan_seed OUTPUT
#include <cstdio>
#include <string>

#include "importers/vulkan/vk_record_format.h"
#include "tests/importers/vulkan/record_file.h"

using namespace importers::vulkan;  // NOLINT
using vk_test::RecordFile;
using vk_test::Text;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_vulkan_seed OUTPUT\n");
    return 2;
  }
  constexpr uint32_t kMain = 10, kWorker = 11;
  constexpr uint64_t kDevice = 0xD0, kGraphics = 0x100, kCompute = 0x200;
  constexpr uint64_t kBinary = 0x300, kTimeline = 0x301, kFence = 0x302, kSwapchain = 0x900;
  RecordFile f;
  FileHeader file;
  file.pid = 7;
  file.start_cpu_ns = 1'000;
  Text(file.process_name, "seed");
  f.Add(RecordType::kFileHeader, kMain, file);
  ThreadRecord thread{1'000, {}};
  Text(thread.name, "main");
  f.Add(RecordType::kThread, kMain, thread);
  Text(thread.name, "worker");
  f.Add(RecordType::kThread, kWorker, thread);
  DeviceRecord device{kDevice, 0xF0, 0x1002, 0x73bf, 1.0f, 1, {}};
  Text(device.name, "GPU");
  f.Add(RecordType::kDevice, kMain, device);
  f.Add(RecordType::kCalibration, kMain,
        CalibrationRecord{kDevice, 1'000, 2'000, 50,
                          uint32_t(CalibrationMethod::kCalibratedTimestamps), 1});
  f.Add(RecordType::kCalibration, kMain,
        CalibrationRecord{kDevice, 900'000, 901'000, 80,
                          uint32_t(CalibrationMethod::kPairedSamples), 4});
  f.Add(RecordType::kQueue, kMain, QueueRecord{kDevice, kGraphics, 0, 0, 0x7, 64});
  f.Add(RecordType::kQueue, kMain, QueueRecord{kDevice, kCompute, 1, 0, 0x2, 64});
  f.Add(RecordType::kSemaphore, kMain,
        SemaphoreRecord{kDevice, kBinary, uint32_t(SemaphoreKind::kBinary), 0, 0});
  f.Add(RecordType::kSemaphore, kMain,
        SemaphoreRecord{kDevice, kTimeline, uint32_t(SemaphoreKind::kTimeline), 0, 2});
  f.Add(RecordType::kSemaphore, kMain,
        SemaphoreRecord{kDevice, kFence, uint32_t(SemaphoreKind::kFence), 0, 0});
  const std::string queue_name = "graphics", semaphore_name = "frame done";
  f.Add(RecordType::kName, kMain, NameRecord{kGraphics, 4, uint32_t(queue_name.size())},
        queue_name);
  f.Add(RecordType::kName, kMain, NameRecord{kTimeline, 5, uint32_t(semaphore_name.size())},
        semaphore_name);
  const std::string label = "frame 1";
  f.Add(RecordType::kQueueLabel, kMain,
        QueueLabelRecord{kGraphics, 5'000, uint32_t(QueueLabelOp::kBegin), uint32_t(label.size())},
        label);
  // Batch 1 (compute) signals the timeline to 5 and the binary semaphore; batch 2 (graphics)
  // waits for both and signals the fence.
  f.Add(RecordType::kBatch, kWorker, BatchRecord{1, kCompute, 10'000, 1, 1, 0, 0});
  f.Add(RecordType::kBatchSync, kWorker,
        BatchSyncRecord{1, kTimeline, 5, 0, uint32_t(SyncRole::kSignal), 0});
  f.Add(RecordType::kBatchSync, kWorker,
        BatchSyncRecord{1, kBinary, 0, 0, uint32_t(SyncRole::kSignal), 0});
  const std::string batch_name = "shadows";
  f.Add(RecordType::kBatchName, kWorker, BatchNameRecord{1, uint32_t(batch_name.size()), 0},
        batch_name);
  f.Add(RecordType::kBatch, kMain, BatchRecord{2, kGraphics, 12'000, 2, 1, 1, 0});
  f.Add(RecordType::kBatchSync, kMain,
        BatchSyncRecord{2, kTimeline, 5, 0x400, uint32_t(SyncRole::kWait), 0});
  f.Add(RecordType::kBatchSync, kMain,
        BatchSyncRecord{2, kBinary, 0, 0x400, uint32_t(SyncRole::kWait), 0});
  f.Add(RecordType::kBatchSync, kMain,
        BatchSyncRecord{2, kFence, 0, 0, uint32_t(SyncRole::kFence), 0});
  f.Add(RecordType::kQueueLabel, kMain,
        QueueLabelRecord{kGraphics, 13'000, uint32_t(QueueLabelOp::kEnd), 0});
  f.Add(RecordType::kHostSignal, kWorker, HostSignalRecord{kTimeline, 9, 14'000});
  f.Add(RecordType::kCpuWaitItem, kMain,
        CpuWaitItemRecord{3, kFence, 0, uint32_t(CpuWaitObject::kFence), 0});
  f.Add(RecordType::kCpuWaitItem, kMain,
        CpuWaitItemRecord{3, kTimeline, 5, uint32_t(CpuWaitObject::kSemaphore), 0});
  f.Add(RecordType::kBatchGpu, kWorker, BatchGpuRecord{1, kDevice, 20'000, 30'000});
  f.Add(RecordType::kBatchGpu, kMain, BatchGpuRecord{2, kDevice, 31'000, 40'000});
  f.Add(RecordType::kCpuWaitDone, kMain, CpuWaitDoneRecord{3, 15'000, 42'000, UINT64_MAX, 0, 1});
  f.Add(RecordType::kCpuWaitItem, kMain,
        CpuWaitItemRecord{4, kGraphics, 0, uint32_t(CpuWaitObject::kQueue), 0});
  f.Add(RecordType::kCpuWaitDone, kMain, CpuWaitDoneRecord{4, 43'000, 44'000, UINT64_MAX, 0, 1});
  f.Add(RecordType::kPollWait, kWorker,
        PollWaitRecord{5, kTimeline, 5, 9, 41'000, 45'000, uint32_t(CpuWaitObject::kSemaphore),
                       3});
  f.Add(RecordType::kPresent, kMain, PresentRecord{kGraphics, kSwapchain, 46'000, 0, 0});
  f.Add(RecordType::kAcquire, kMain, AcquireRecord{kSwapchain, kBinary, 0, 47'000, 48'000, 1, 0});
  const std::string marker = "end of frame";
  f.Add(RecordType::kQueueLabel, kMain,
        QueueLabelRecord{kGraphics, 49'000, uint32_t(QueueLabelOp::kInsert),
                         uint32_t(marker.size())},
        marker);
  f.Add(RecordType::kCpuWaitItem, kMain, CpuWaitItemRecord{6, kDevice, 0,
                                                           uint32_t(CpuWaitObject::kDevice), 0});
  f.Add(RecordType::kCpuWaitDone, kMain, CpuWaitDoneRecord{6, 50'000, 51'000, 0, 2, 1});
  f.Write(argv[1]);
  return 0;
}
