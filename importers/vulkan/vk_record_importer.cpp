#include "importers/vulkan/vk_record_importer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>
#include <unordered_map>

#include "core/model/error.h"
#include "importers/vulkan/vk_record_format.h"
#include "importers/vulkan/vk_record_importer_state.h"

namespace importers::vulkan {

namespace detail {

void FileImporter::Run(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw core::Error(fmt::format("{}: cannot be read", path.string()));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Run(bytes, path.string());
}

void FileImporter::Run(std::string_view bytes, const std::string& label) {
  Parse(bytes, label);
  BuildTopology();
  BuildEvents();
}

void FileImporter::Parse(std::string_view bytes, const std::string& label) {
  size_t at = 0;
  bool first = true;
  while (at + sizeof(RecordHeader) <= bytes.size()) {
    RecordHeader header;
    std::memcpy(&header, bytes.data() + at, sizeof header);
    if (header.size < sizeof header) {
      throw core::Error(fmt::format("{}: byte {}: record of size {}", label, at, header.size));
    }
    if (at + header.size > bytes.size()) break;  // cut short: the application was killed
    const Raw raw{header.type, header.tid,
                  reinterpret_cast<const uint8_t*>(bytes.data()) + at + sizeof header,
                  size_t(header.size - sizeof header)};
    at += header.size;
    ++m_stats.records;
    if (first) {
      m_header = raw.As<FileHeader>();
      if (raw.type != RecordType::kFileHeader || m_header.magic != kRecordMagic) {
        throw core::Error(fmt::format("{}: not a fencescope Vulkan record file", label));
      }
      first = false;
      continue;
    }
    switch (raw.type) {
      case RecordType::kThread:
        m_thread_names[raw.tid] = FieldText(raw.As<ThreadRecord>().name);
        break;
      case RecordType::kDevice: {
        auto r = raw.As<DeviceRecord>();
        m_devices[r.device].record = r;
        break;
      }
      case RecordType::kQueue: {
        auto r = raw.As<QueueRecord>();
        m_queues[r.queue].record = r;
        m_devices[r.device].queues.push_back(r.queue);
        break;
      }
      case RecordType::kCalibration: {
        auto r = raw.As<CalibrationRecord>();
        m_devices[r.device].calibrations.push_back(r);
        break;
      }
      case RecordType::kSemaphore: {
        auto r = raw.As<SemaphoreRecord>();
        FenceState& f = m_fences[r.semaphore];
        f.kind = SemaphoreKind(r.kind);
        f.initial = r.kind == uint32_t(SemaphoreKind::kTimeline) ? r.initial_value : 0;
        break;
      }
      case RecordType::kBatch: {
        Batch& b = m_batches[raw.As<BatchRecord>().batch_id];
        b.record = raw.As<BatchRecord>();
        b.tid = raw.tid;
        break;
      }
      case RecordType::kBatchSync: {
        auto r = raw.As<BatchSyncRecord>();
        m_batches[r.batch_id].syncs.push_back(r);
        break;
      }
      case RecordType::kBatchGpu: {
        auto r = raw.As<BatchGpuRecord>();
        Batch& b = m_batches[r.batch_id];
        b.has_gpu = true;
        b.start_ticks = r.start_ticks;
        b.end_ticks = r.end_ticks;
        b.device = r.device;
        break;
      }
      case RecordType::kHostSignal:
        m_host_signals.push_back({raw.As<HostSignalRecord>(), raw.tid});
        break;
      case RecordType::kCpuWaitItem: {
        auto r = raw.As<CpuWaitItemRecord>();
        CpuWait& w = m_waits[r.group];
        w.tid = raw.tid;
        w.items.push_back(r);
        break;
      }
      case RecordType::kCpuWaitDone: {
        auto r = raw.As<CpuWaitDoneRecord>();
        CpuWait& w = m_waits[r.group];
        w.done = true;
        w.result = r;
        break;
      }
      case RecordType::kPresent:
        m_presents.push_back({raw.As<PresentRecord>(), raw.tid});
        break;
      case RecordType::kAcquire:
        m_acquires.push_back({raw.As<AcquireRecord>(), raw.tid});
        break;
      case RecordType::kName: {
        auto r = raw.As<NameRecord>();
        if (sizeof r + r.length <= raw.size) {
          m_names[r.object] = raw.TextAfter<NameRecord>(r.length);
        }
        break;
      }
      case RecordType::kPollWait: {
        auto r = raw.As<PollWaitRecord>();
        CpuWait& w = m_waits[r.group];
        w.tid = raw.tid;
        w.poll = true;
        w.done = true;
        const bool fence = r.object_kind == uint32_t(CpuWaitObject::kFence);
        w.items.push_back({r.group, r.object, fence ? 0 : r.value_before + 1, r.object_kind, 0});
        w.result = {r.group, r.begin_cpu_ns, r.end_cpu_ns, 0, kVkSuccess, 1};
        break;
      }
      case RecordType::kQueueLabel: {
        auto r = raw.As<QueueLabelRecord>();
        m_queue_labels[r.queue].push_back({r, raw.tid, raw.TextAfter<QueueLabelRecord>(r.length)});
        break;
      }
      case RecordType::kBatchName: {
        auto r = raw.As<BatchNameRecord>();
        m_batches[r.batch_id].label = raw.TextAfter<BatchNameRecord>(r.length);
        break;
      }
      default:
        m_writer.CountProblem("vulkan_unknown_record", Severity::kInfo,
                              "records of a type this importer does not know (skipped)", 1, label);
        break;
    }
  }
  if (first) throw core::Error(fmt::format("{}: empty: the capture layer wrote nothing", label));
}

ThreadId FileImporter::Thread(uint32_t tid) {
  auto [it, added] = m_threads.try_emplace(tid, 0);
  if (added) {
    auto name = m_thread_names.find(tid);
    core::model::Thread info;
    info.process = m_process;
    info.tid = tid;
    info.kind = ThreadKind::kApplication;
    info.name = name != m_thread_names.end() && !name->second.empty()
                    ? fmt::format("{} ({})", name->second, tid)
                    : fmt::format("thread {}", tid);
    info.sort_index = int32_t(m_threads.size());
    it->second = m_writer.AddThread(info);
  }
  return it->second;
}

FenceState& FileImporter::Fence(uint64_t handle, SemaphoreKind kind_if_new) {
  auto [it, added] = m_fences.try_emplace(handle);
  FenceState& f = it->second;
  if (added) f.kind = kind_if_new;
  if (f.id == 0) {
    const char* what = f.kind == SemaphoreKind::kTimeline ? "VkSemaphore (timeline)"
                       : f.kind == SemaphoreKind::kFence  ? "VkFence"
                                                          : "VkSemaphore (binary)";
    auto name = m_names.find(handle);
    core::model::Fence info;
    info.name = name != m_names.end() ? fmt::format("{} {}", what, name->second)
                                      : fmt::format("{} {:#x}", what, handle);
    info.kind = FenceKind::kNative;
    info.initial_value = f.initial;
    info.handle = int64_t(handle);
    f.name = info.name;
    f.id = m_writer.AddFence(info);
  }
  return f;
}

void FileImporter::BuildTopology() {
  core::model::Process process;
  process.pid = m_header.pid;
  process.name = m_header.process_name[0]
                     ? fmt::format("{} ({})", FieldText(m_header.process_name), m_header.pid)
                     : core::model::UnnamedProcessName(m_header.pid);
  m_process = m_writer.AddProcess(process);

  std::map<uint64_t, AdapterId> adapters;  // by physical device
  int32_t sort = 0;
  for (auto& [handle, device] : m_devices) {
    auto [it, added] = adapters.try_emplace(device.record.physical_device, 0);
    if (added) {
      core::model::Adapter info;
      info.name = device.record.name[0] ? FieldText(device.record.name) : "Vulkan device";
      info.luid = int64_t(device.record.physical_device);
      info.native_fences = true;
      it->second = m_writer.AddAdapter(info);
    }
    device.adapter = it->second;
    std::map<uint32_t, EngineId> engines;  // by queue family
    for (uint64_t q : device.queues) {
      QueueState& queue = m_queues[q];
      const QueueRecord& r = queue.record;
      EngineType engine_type = EngineType::kOther;
      QueueType queue_type = QueueType::kOther;
      std::string flags;
      if (r.flags & kQueueGraphics) flags += "graphics+";
      if (r.flags & kQueueCompute) flags += "compute+";
      if (r.flags & kQueueTransfer) flags += "transfer+";
      if (r.flags & (kQueueVideoDecode | kQueueVideoEncode)) flags += "video+";
      if (!flags.empty()) flags.pop_back();
      if (r.flags & kQueueGraphics) {
        engine_type = EngineType::k3D, queue_type = QueueType::k3D;
      } else if (r.flags & kQueueCompute) {
        engine_type = EngineType::kCompute, queue_type = QueueType::kCompute;
      } else if (r.flags & kQueueTransfer) {
        engine_type = EngineType::kCopy, queue_type = QueueType::kCopy;
      } else if (r.flags & (kQueueVideoDecode | kQueueVideoEncode)) {
        engine_type = EngineType::kVideo, queue_type = QueueType::kVideo;
      }
      auto [engine, new_engine] = engines.try_emplace(r.family, 0);
      if (new_engine) {
        core::model::Engine info;
        info.adapter = device.adapter;
        info.type = engine_type;
        info.ordinal = r.family;
        info.name = fmt::format("queue family {} ({})", r.family, flags);
        engine->second = m_writer.AddEngine(info);
      }
      core::model::Queue info;
      info.engine = engine->second;
      info.adapter = device.adapter;
      info.type = queue_type;
      info.process = m_process;
      auto name = m_names.find(q);
      info.name = name != m_names.end()
                      ? name->second
                      : fmt::format("VkQueue {}.{} ({})", r.family, r.index, flags);
      info.sort_index = sort++;
      queue.id = m_writer.AddQueue(info);
    }
  }
  if (m_devices.empty()) {
    m_writer.CountProblem("vulkan_no_device", Severity::kInfo,
                          "the process created no Vulkan device while captured");
  }
}

const Signal* FileImporter::SatisfyingSignal(const FenceState& fence, uint64_t value) const {
  const Signal* best = nullptr;
  for (const Signal& s : fence.signals) {
    if (s.value >= value && (!best || s.executed < best->executed)) best = &s;
  }
  return best;
}

}  // namespace detail

using detail::FileImporter;
using detail::Gathered;
using namespace core::model;

bool IsVulkanRecordFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  RecordHeader header{};
  FileHeader file{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header)) return false;
  if (!in.read(reinterpret_cast<char*>(&file), sizeof file)) return false;
  return header.type == RecordType::kFileHeader && file.magic == kRecordMagic;
}

namespace {
// Imports each file through `run(importer, i)`, then appends the events in time order.
VulkanImportStats ImportEach(size_t files, core::store::TraceWriter& writer,
                             const std::function<void(FileImporter&, size_t)>& run) {
  VulkanImportStats stats;
  std::vector<Gathered> events;
  std::vector<std::pair<size_t, size_t>> flows;
  int64_t next_op = 1;
  for (size_t i = 0; i < files; ++i) {
    FileImporter importer(writer, stats, events, flows, next_op);
    run(importer, i);
    ++stats.files;
  }
  std::stable_sort(events.begin(), events.end(),
                   [](const Gathered& a, const Gathered& b) { return a.record.ts < b.record.ts; });
  std::vector<EventRowId> rows(events.size());
  for (const Gathered& g : events) rows[g.order] = writer.Append(g.record);
  for (const auto& [from, to] : flows) writer.AddFlow(rows[from], rows[to], FlowKind::kFence);
  stats.events = events.size();
  writer.SetMeta("capture", "vulkan-layer");
  return stats;
}
}  // namespace

VulkanImportStats ImportVulkanRecords(const std::vector<std::filesystem::path>& files,
                                      core::store::TraceWriter& writer) {
  return ImportEach(files.size(), writer,
                    [&](FileImporter& importer, size_t i) { importer.Run(files[i]); });
}

VulkanImportStats ImportVulkanRecordBytes(const std::vector<VulkanRecordBytes>& files,
                                          core::store::TraceWriter& writer) {
  return ImportEach(files.size(), writer, [&](FileImporter& importer, size_t i) {
    importer.Run(files[i].bytes, files[i].label);
  });
}

}  // namespace importers::vulkan
