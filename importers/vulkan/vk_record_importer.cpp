#include "importers/vulkan/vk_record_importer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <unordered_map>

#include "core/model/error.h"
#include "importers/vulkan/vk_record_format.h"

namespace importers::vulkan {

namespace {

using namespace core::model;
using core::store::TraceWriter;

constexpr uint32_t kQueueGraphics = 0x1, kQueueCompute = 0x2, kQueueTransfer = 0x4,
                   kQueueVideoDecode = 0x20, kQueueVideoEncode = 0x40;
constexpr int32_t kVkSuccess = 0;

struct Raw {
  RecordType type;
  uint32_t tid;
  const uint8_t* payload;
  size_t size;  // payload bytes
  template <class T>
  T As() const {
    T value{};
    std::memcpy(&value, payload, std::min(sizeof(T), size));
    return value;
  }
};

struct Batch {
  BatchRecord record{};
  uint32_t tid = 0;
  std::vector<BatchSyncRecord> syncs;
  bool has_gpu = false;
  uint64_t start_ticks = 0, end_ticks = 0;
  uint64_t device = 0;
  TimeNs gpu_start = 0, gpu_end = 0;
  uint64_t ordinal = 0;  // 1-based position on its queue
};

struct CpuWait {
  uint32_t tid = 0;
  std::vector<CpuWaitItemRecord> items;
  bool done = false;
  CpuWaitDoneRecord result{};
};

struct Acquire {
  AcquireRecord record{};
  uint32_t tid = 0;
};

struct HostSignal {
  HostSignalRecord record{};
  uint32_t tid = 0;
};

struct Present {
  PresentRecord record{};
  uint32_t tid = 0;
};

struct DeviceState {
  DeviceRecord record{};
  std::vector<CalibrationRecord> calibrations;
  AdapterId adapter = 0;
  std::vector<uint64_t> queues;
  double offset_ns = 0;  // without calibration: CPU ns = ticks * period + offset
  bool have_offset = false;
};

struct QueueState {
  QueueRecord record{};
  QueueId id = 0;
  FenceId idle_fence = 0;
  std::vector<uint64_t> batches;  // batch ids in submission order
};

// One signal of a fence, in the value space described in the header.
struct Signal {
  uint64_t value = 0;
  TimeNs executed = 0;
  int64_t signal_id = 0;
  size_t event = SIZE_MAX;  // index of its executed / cpu-signal event
};

struct FenceState {
  FenceId id = 0;
  SemaphoreKind kind = SemaphoreKind::kBinary;
  uint64_t initial = 0;
  uint64_t count = 0;  // binary semaphores and VkFences: signals so far, in call order
  std::vector<Signal> signals;
  std::string name;
};

// Events are gathered first and appended in time order; flows refer to gathered indices.
struct Gathered {
  EventRecord record;
  size_t order;
};

class FileImporter {
 public:
  FileImporter(TraceWriter& writer, VulkanImportStats& stats, std::vector<Gathered>& events,
               std::vector<std::pair<size_t, size_t>>& flows, int64_t& next_op)
      : m_writer(writer), m_stats(stats), m_events(events), m_flows(flows), m_next_op(next_op) {}

  void Run(const std::filesystem::path& path);

 private:
  void Parse(const std::vector<uint8_t>& bytes, const std::string& label);
  ThreadId Thread(uint32_t tid);
  FenceState& Fence(uint64_t handle, SemaphoreKind kind_if_new);
  TimeNs GpuTime(DeviceState& device, uint64_t ticks);
  size_t Emit(const EventRecord& record) {
    m_events.push_back({record, m_events.size()});
    return m_events.size() - 1;
  }
  template <class Typed>
  size_t Emit(const Typed& typed) {
    return Emit(typed.Record());
  }
  void BuildTopology();
  void BuildEvents();
  // The first signal of `fence` (by execution) reaching `value`, or nullptr.
  const Signal* SatisfyingSignal(const FenceState& fence, uint64_t value) const;

  TraceWriter& m_writer;
  VulkanImportStats& m_stats;
  std::vector<Gathered>& m_events;
  std::vector<std::pair<size_t, size_t>>& m_flows;
  int64_t& m_next_op;

  FileHeader m_header{};
  ProcessId m_process = 0;
  std::map<uint32_t, std::string> m_thread_names;
  std::unordered_map<uint32_t, ThreadId> m_threads;
  std::map<uint64_t, DeviceState> m_devices;
  std::map<uint64_t, QueueState> m_queues;
  std::map<uint64_t, FenceState> m_fences;
  std::map<uint64_t, Batch> m_batches;
  std::map<uint64_t, CpuWait> m_waits;
  std::vector<Acquire> m_acquires;
  std::vector<HostSignal> m_host_signals;
  std::vector<Present> m_presents;
  std::map<uint64_t, std::string> m_names;
};

void FileImporter::Run(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw core::Error(fmt::format("{}: cannot be read", path.string()));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  Parse(bytes, path.string());
  BuildTopology();
  BuildEvents();
}

void FileImporter::Parse(const std::vector<uint8_t>& bytes, const std::string& label) {
  size_t at = 0;
  bool first = true;
  while (at + sizeof(RecordHeader) <= bytes.size()) {
    RecordHeader header;
    std::memcpy(&header, bytes.data() + at, sizeof header);
    if (header.size < sizeof header) {
      throw core::Error(fmt::format("{}: byte {}: record of size {}", label, at, header.size));
    }
    if (at + header.size > bytes.size()) break;  // cut short: the application was killed
    const Raw raw{header.type, header.tid, bytes.data() + at + sizeof header,
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
        m_thread_names[raw.tid] = raw.As<ThreadRecord>().name;
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
          m_names[r.object] =
              std::string(reinterpret_cast<const char*>(raw.payload) + sizeof r, r.length);
        }
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

TimeNs FileImporter::GpuTime(DeviceState& device, uint64_t ticks) {
  const double period =
      device.record.timestamp_period_ns > 0 ? device.record.timestamp_period_ns : 1.0;
  if (!device.calibrations.empty()) {
    // The latest calibration at or before the ticks (the first one otherwise).
    const CalibrationRecord* use = &device.calibrations.front();
    for (const auto& c : device.calibrations) {
      if (c.gpu_ticks <= ticks) use = &c;
    }
    const double delta = (double(int64_t(ticks - use->gpu_ticks))) * period;
    return TimeNs(int64_t(use->cpu_ns) + int64_t(delta));
  }
  return TimeNs(double(ticks) * period + device.offset_ns);
}

void FileImporter::BuildTopology() {
  core::model::Process process;
  process.pid = m_header.pid;
  process.name = m_header.process_name[0]
                     ? fmt::format("{} ({})", m_header.process_name, m_header.pid)
                     : fmt::format("process {}", m_header.pid);
  m_process = m_writer.AddProcess(process);

  std::map<uint64_t, AdapterId> adapters;  // by physical device
  int32_t sort = 0;
  for (auto& [handle, device] : m_devices) {
    auto [it, added] = adapters.try_emplace(device.record.physical_device, 0);
    if (added) {
      core::model::Adapter info;
      info.name = device.record.name[0] ? std::string(device.record.name) : "Vulkan device";
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

void FileImporter::BuildEvents() {
  // GPU times of the batches, and per-queue order.
  std::vector<Batch*> batches;
  for (auto& [id, b] : m_batches) {
    if (!m_queues.count(b.record.queue) || b.record.cpu_ns == 0) continue;
    batches.push_back(&b);
  }
  std::stable_sort(batches.begin(), batches.end(), [](const Batch* a, const Batch* b) {
    return a->record.cpu_ns < b->record.cpu_ns ||
           (a->record.cpu_ns == b->record.cpu_ns && a->record.batch_id < b->record.batch_id);
  });
  for (auto& [handle, device] : m_devices) {
    if (!device.calibrations.empty()) continue;
    // No calibration: the GPU clock is placed so that no batch starts before its submission.
    const double period =
        device.record.timestamp_period_ns > 0 ? device.record.timestamp_period_ns : 1.0;
    for (Batch* b : batches) {
      if (!b->has_gpu || b->device != handle) continue;
      const double offset = double(b->record.cpu_ns) - double(b->start_ticks) * period;
      if (!device.have_offset || offset > device.offset_ns) device.offset_ns = offset;
      device.have_offset = true;
    }
    if (device.have_offset) {
      m_writer.CountProblem(
          "vulkan_uncalibrated_gpu_clock", Severity::kInfo,
          "the device has no VK_EXT_calibrated_timestamps: GPU times are placed so that no "
          "batch starts before its submission");
    }
  }
  for (Batch* b : batches) {
    QueueState& q = m_queues[b->record.queue];
    q.batches.push_back(b->record.batch_id);
    b->ordinal = q.batches.size();
    if (b->has_gpu && m_devices.count(b->device)) {
      DeviceState& d = m_devices[b->device];
      b->gpu_start = GpuTime(d, b->start_ticks);
      b->gpu_end = std::max(b->gpu_start, GpuTime(d, b->end_ticks));
    }
  }

  // Values of binary semaphores and VkFences follow the call order of everything that signals
  // or waits on them: batches (at submission), acquires (at return), CPU waits (at entry).
  enum class OpKind { kBatch, kAcquire, kHostSignal, kCpuWait };
  struct Op {
    uint64_t time;
    OpKind kind;
    size_t index;
    uint64_t key;
  };
  std::vector<Op> ops;
  for (size_t i = 0; i < batches.size(); ++i) {
    ops.push_back({batches[i]->record.cpu_ns, OpKind::kBatch, i, batches[i]->record.batch_id});
  }
  for (size_t i = 0; i < m_acquires.size(); ++i) {
    ops.push_back({m_acquires[i].record.end_cpu_ns, OpKind::kAcquire, i, 0});
  }
  for (size_t i = 0; i < m_host_signals.size(); ++i) {
    ops.push_back({m_host_signals[i].record.cpu_ns, OpKind::kHostSignal, i, 0});
  }
  std::vector<CpuWait*> waits;
  for (auto& [group, w] : m_waits) {
    if (!w.done) continue;
    waits.push_back(&w);
    ops.push_back({w.result.begin_cpu_ns, OpKind::kCpuWait, waits.size() - 1, group});
  }
  std::stable_sort(ops.begin(), ops.end(), [](const Op& a, const Op& b) {
    return a.time < b.time || (a.time == b.time && a.key < b.key);
  });

  // GPU waits and CPU waits are resolved after every signal is known.
  struct GpuWait {
    Batch* batch;
    uint64_t fence;
    uint64_t value;
  };
  std::vector<GpuWait> gpu_waits;
  struct CpuWaitItem {
    CpuWait* wait;
    uint64_t fence;  // handle into m_fences (queue idle fences use the queue handle)
    uint64_t value;
  };
  std::vector<std::vector<CpuWaitItem>> cpu_items(waits.size());
  std::map<uint64_t, std::vector<uint64_t>> idle_values;  // queue -> values waited for

  const StringId batch_name = m_writer.Intern("vkQueueSubmit batch");
  const StringId batch2_name = m_writer.Intern("vkQueueSubmit2 batch");
  for (const Op& op : ops) {
    switch (op.kind) {
      case OpKind::kBatch: {
        Batch& b = *batches[op.index];
        QueueState& q = m_queues[b.record.queue];
        const ThreadId thread = Thread(b.tid);
        ++m_stats.batches;
        Emit(events::PacketSubmitted{.ts_ns = TimeNs(b.record.cpu_ns),
                                     .queue_id = q.id,
                                     .thread_id = thread,
                                     .packet_id = int64_t(b.record.batch_id),
                                     .name_sid = b.record.submit2 ? batch2_name : batch_name});
        if (b.has_gpu) {
          ++m_stats.timed_batches;
          Emit(events::PacketStarted{
              .ts_ns = b.gpu_start, .queue_id = q.id, .packet_id = int64_t(b.record.batch_id)});
          Emit(events::PacketCompleted{
              .ts_ns = b.gpu_end, .queue_id = q.id, .packet_id = int64_t(b.record.batch_id)});
        }
        for (const BatchSyncRecord& s : b.syncs) {
          const SyncRole role = SyncRole(s.role);
          FenceState& f = Fence(
              s.object, role == SyncRole::kFence ? SemaphoreKind::kFence : SemaphoreKind::kBinary);
          if (role == SyncRole::kWait) {
            const uint64_t value = f.kind == SemaphoreKind::kTimeline ? s.value : f.count;
            gpu_waits.push_back({&b, s.object, value});
            continue;
          }
          const uint64_t value = f.kind == SemaphoreKind::kTimeline ? s.value : ++f.count;
          const int64_t signal_id = m_next_op++;
          ++m_stats.gpu_signals;
          Emit(events::FenceSignalQueued{.ts_ns = TimeNs(b.record.cpu_ns),
                                         .queue_id = q.id,
                                         .thread_id = thread,
                                         .fence_id = f.id,
                                         .fence_value = value,
                                         .signal_id = signal_id});
          // Executed at the batch's GPU end; without timestamps, at its submission.
          const TimeNs executed = b.has_gpu ? b.gpu_end : TimeNs(b.record.cpu_ns);
          f.signals.push_back({value, executed, signal_id, SIZE_MAX});
        }
        break;
      }
      case OpKind::kAcquire: {
        const Acquire& a = m_acquires[op.index];
        ++m_stats.acquires;
        const ThreadId thread = Thread(a.tid);
        Emit(events::Marker{.ts_ns = TimeNs(a.record.end_cpu_ns),
                            .thread_id = thread,
                            .name_sid = m_writer.Intern(
                                fmt::format("vkAcquireNextImageKHR swapchain {:#x} image {}",
                                            a.record.swapchain, a.record.image_index)),
                            .marker_type = 0});
        if (a.record.result < 0) break;
        for (uint64_t handle : {a.record.semaphore, a.record.fence}) {
          if (!handle) continue;
          FenceState& f = Fence(
              handle, handle == a.record.fence ? SemaphoreKind::kFence : SemaphoreKind::kBinary);
          const uint64_t value = ++f.count;
          const int64_t signal_id = m_next_op++;
          ++m_stats.cpu_signals;
          const size_t event = Emit(events::FenceCpuSignal{.ts_ns = TimeNs(a.record.end_cpu_ns),
                                                           .thread_id = thread,
                                                           .fence_id = f.id,
                                                           .fence_value = value,
                                                           .signal_id = signal_id,
                                                           .previous_value = value - 1});
          f.signals.push_back({value, TimeNs(a.record.end_cpu_ns), signal_id, event});
        }
        break;
      }
      case OpKind::kHostSignal: {
        const HostSignal& h = m_host_signals[op.index];
        FenceState& f = Fence(h.record.semaphore, SemaphoreKind::kTimeline);
        const int64_t signal_id = m_next_op++;
        ++m_stats.cpu_signals;
        uint64_t previous = f.initial;
        for (const Signal& s : f.signals) {
          if (s.executed <= TimeNs(h.record.cpu_ns)) previous = std::max(previous, s.value);
        }
        const size_t event = Emit(events::FenceCpuSignal{.ts_ns = TimeNs(h.record.cpu_ns),
                                                         .thread_id = Thread(h.tid),
                                                         .fence_id = f.id,
                                                         .fence_value = h.record.value,
                                                         .signal_id = signal_id,
                                                         .previous_value = previous});
        f.signals.push_back({h.record.value, TimeNs(h.record.cpu_ns), signal_id, event});
        break;
      }
      case OpKind::kCpuWait: {
        CpuWait& w = *waits[op.index];
        for (const CpuWaitItemRecord& item : w.items) {
          switch (CpuWaitObject(item.object_kind)) {
            case CpuWaitObject::kFence: {
              FenceState& f = Fence(item.object, SemaphoreKind::kFence);
              cpu_items[op.index].push_back({&w, item.object, f.count});
              break;
            }
            case CpuWaitObject::kSemaphore:
              Fence(item.object, SemaphoreKind::kTimeline);
              cpu_items[op.index].push_back({&w, item.object, item.value});
              break;
            case CpuWaitObject::kQueue:
            case CpuWaitObject::kDevice: {
              std::vector<uint64_t> queues;
              if (CpuWaitObject(item.object_kind) == CpuWaitObject::kQueue) {
                queues.push_back(item.object);
              } else if (m_devices.count(item.object)) {
                queues = m_devices[item.object].queues;
              }
              for (uint64_t queue : queues) {
                if (!m_queues.count(queue)) continue;
                QueueState& q = m_queues[queue];
                if (!q.idle_fence) {
                  core::model::Fence info;
                  info.name = fmt::format(
                      "{} (idle)", fmt::format("VkQueue {}.{}", q.record.family, q.record.index));
                  info.kind = FenceKind::kOther;
                  info.handle = int64_t(queue);
                  q.idle_fence = m_writer.AddFence(info);
                }
                // Idle after the batches submitted so far.
                uint64_t submitted = 0;
                for (uint64_t id : q.batches) {
                  if (m_batches[id].record.cpu_ns <= w.result.begin_cpu_ns) ++submitted;
                }
                idle_values[queue].push_back(submitted);
                cpu_items[op.index].push_back({&w, queue, submitted});
              }
              break;
            }
          }
        }
        break;
      }
    }
  }

  // Queue idle fences: a signal at the completion of each batch some idle wait waited for.
  std::map<uint64_t, FenceState> idle_fences;
  for (auto& [queue, values] : idle_values) {
    QueueState& q = m_queues[queue];
    FenceState& f = idle_fences[queue];
    f.id = q.idle_fence;
    f.kind = SemaphoreKind::kTimeline;
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    uint64_t previous = 0;
    for (uint64_t value : values) {
      if (value == 0 || value > q.batches.size()) continue;
      Batch& b = m_batches[q.batches[value - 1]];
      const TimeNs executed = b.has_gpu ? b.gpu_end : TimeNs(b.record.cpu_ns);
      const int64_t signal_id = m_next_op++;
      Emit(events::FenceSignalQueued{.ts_ns = TimeNs(b.record.cpu_ns),
                                     .queue_id = q.id,
                                     .thread_id = Thread(b.tid),
                                     .fence_id = f.id,
                                     .fence_value = value,
                                     .signal_id = signal_id});
      const size_t event = Emit(events::FenceSignalExecuted{.ts_ns = executed,
                                                            .queue_id = q.id,
                                                            .fence_id = f.id,
                                                            .fence_value = value,
                                                            .signal_id = signal_id,
                                                            .previous_value = previous});
      previous = value;
      f.signals.push_back({value, executed, signal_id, event});
    }
  }

  // Executed GPU signals, with the value each fence held before.
  for (auto& [handle, f] : m_fences) {
    std::vector<Signal*> order;
    for (Signal& s : f.signals) order.push_back(&s);
    std::stable_sort(order.begin(), order.end(),
                     [](const Signal* a, const Signal* b) { return a->executed < b->executed; });
    uint64_t current = f.initial;
    for (Signal* s : order) {
      if (s->event == SIZE_MAX) {
        // A batch signal: find its queue through the queued record's signal id.
        s->event = Emit(events::FenceSignalExecuted{.ts_ns = s->executed,
                                                    .fence_id = f.id,
                                                    .fence_value = s->value,
                                                    .signal_id = s->signal_id,
                                                    .previous_value = current});
      }
      current = std::max(current, s->value);
    }
  }
  // The queue of each executed batch signal is the queue of its queued record.
  {
    std::unordered_map<uint64_t, QueueId> queue_of_signal;
    for (const Gathered& g : m_events) {
      if (g.record.kind == EventKind::FenceSignalQueued) {
        queue_of_signal[events::FenceSignalQueued::Of(g.record).signal_id] =
            events::FenceSignalQueued::Of(g.record).queue_id;
      }
    }
    for (Gathered& g : m_events) {
      if (g.record.kind != EventKind::FenceSignalExecuted) continue;
      auto e = events::FenceSignalExecuted::Of(g.record);
      if (e.queue_id == 0) {
        e.queue_id = queue_of_signal[e.signal_id];
        g.record = e.Record();
      }
    }
  }

  auto fence_of = [&](uint64_t handle, bool idle) -> FenceState& {
    return idle ? idle_fences[handle] : m_fences[handle];
  };

  // GPU waits: unblocked when the satisfying signal executed (not before the submission).
  for (const GpuWait& gw : gpu_waits) {
    FenceState& f = m_fences[gw.fence];
    QueueState& q = m_queues[gw.batch->record.queue];
    const int64_t wait_id = m_next_op++;
    ++m_stats.gpu_waits;
    const TimeNs queued = TimeNs(gw.batch->record.cpu_ns);
    Emit(events::FenceWaitQueued{.ts_ns = queued,
                                 .queue_id = q.id,
                                 .thread_id = Thread(gw.batch->tid),
                                 .fence_id = f.id,
                                 .fence_value = gw.value,
                                 .wait_id = wait_id});
    const Signal* signal = SatisfyingSignal(f, gw.value);
    const bool at_once = gw.value <= f.initial && f.kind == SemaphoreKind::kTimeline;
    if (signal || at_once) {
      const TimeNs unblocked = signal ? std::max(queued, signal->executed) : queued;
      const ReleaseLink link =
          f.kind == SemaphoreKind::kTimeline ? ReleaseLink::kFromCapture : ReleaseLink::kInferred;
      Emit(events::FenceWaitUnblocked{.ts_ns = unblocked,
                                      .queue_id = q.id,
                                      .fence_id = f.id,
                                      .fence_value = gw.value,
                                      .wait_id = wait_id,
                                      .observed_ns = unblocked,
                                      .released_by_signal_id = signal ? signal->signal_id : 0,
                                      .release_link = signal ? link : ReleaseLink::kNotGiven,
                                      .wait_path = WaitPath::kGpuNative});
    } else if (gw.batch->has_gpu) {
      // The batch ran, so something outside the capture satisfied the wait.
      m_writer.CountProblem("vulkan_wait_signal_not_captured", Severity::kInfo,
                            "a GPU wait whose signal the capture did not see (the batch ran)");
      Emit(events::FenceWaitUnblocked{.ts_ns = gw.batch->gpu_start,
                                      .queue_id = q.id,
                                      .fence_id = f.id,
                                      .fence_value = gw.value,
                                      .wait_id = wait_id,
                                      .observed_ns = gw.batch->gpu_start});
    }
  }

  // CPU waits: begin at the call, released at its return, linked to the satisfying signal.
  for (size_t i = 0; i < waits.size(); ++i) {
    CpuWait& w = *waits[i];
    const auto& items = cpu_items[i];
    if (items.empty()) continue;
    if (w.result.result != kVkSuccess) {
      m_writer.CountProblem("vulkan_cpu_wait_not_satisfied", Severity::kInfo,
                            "CPU wait calls that returned without the wait satisfied (a "
                            "timeout or an error); not shown as waits");
      continue;
    }
    ++m_stats.cpu_waits;
    const ThreadId thread = Thread(w.tid);
    const int64_t group = m_next_op++;
    const uint32_t mode = items.size() <= 1 ? 0 : (w.result.wait_all ? 2 : 1);
    // For wait-any, the member whose signal executed first was released; the others withdrawn.
    size_t satisfied = SIZE_MAX;
    TimeNs satisfied_at = 0;
    std::vector<const Signal*> signals(items.size(), nullptr);
    // Queue and device idle waits wait on the queues' idle fences.
    const CpuWaitObject object = CpuWaitObject(w.items.front().object_kind);
    const bool idle = object == CpuWaitObject::kQueue || object == CpuWaitObject::kDevice;
    for (size_t k = 0; k < items.size(); ++k) {
      FenceState& f = fence_of(items[k].fence, idle);
      signals[k] = items[k].value == 0 ? nullptr : SatisfyingSignal(f, items[k].value);
      const TimeNs at = signals[k] ? signals[k]->executed : TimeNs(w.result.begin_cpu_ns);
      if (satisfied == SIZE_MAX || at < satisfied_at) satisfied = k, satisfied_at = at;
    }
    std::vector<int64_t> waiter_ids(items.size());
    for (size_t k = 0; k < items.size(); ++k) {
      FenceState& f = fence_of(items[k].fence, idle);
      waiter_ids[k] = m_next_op++;
      Emit(events::CpuWaitBegin{.ts_ns = TimeNs(w.result.begin_cpu_ns),
                                .thread_id = thread,
                                .fence_id = f.id,
                                .fence_value = items[k].value,
                                .waiter_id = waiter_ids[k],
                                .group_id = group,
                                .wait_mode = mode});
    }
    bool linked = false;
    for (size_t k = 0; k < items.size(); ++k) {
      FenceState& f = fence_of(items[k].fence, idle);
      const TimeNs end = TimeNs(w.result.end_cpu_ns);
      if (mode == 1 && k != satisfied) {
        Emit(events::CpuWaitWithdrawn{.ts_ns = end,
                                      .thread_id = thread,
                                      .fence_id = f.id,
                                      .fence_value = items[k].value,
                                      .waiter_id = waiter_ids[k],
                                      .group_id = group,
                                      .satisfied_waiter_id = waiter_ids[satisfied]});
        continue;
      }
      const Signal* s = signals[k];
      const ReleaseLink link = !s                                   ? ReleaseLink::kNotGiven
                               : f.kind == SemaphoreKind::kTimeline ? ReleaseLink::kFromCapture
                                                                    : ReleaseLink::kInferred;
      const size_t released =
          Emit(events::CpuWaitReleased{.ts_ns = end,
                                       .thread_id = thread,
                                       .fence_id = f.id,
                                       .fence_value = items[k].value,
                                       .waiter_id = waiter_ids[k],
                                       .observed_value = s ? s->value : items[k].value,
                                       .release_link = link});
      if (s && s->event != SIZE_MAX) {
        m_flows.push_back({s->event, released});
        linked = true;
      }
    }
    if (linked) ++m_stats.cpu_waits_linked;
  }

  // Presents: one marker per swapchain image presented.
  for (const Present& p : m_presents) {
    if (!m_queues.count(p.record.queue)) continue;
    QueueState& q = m_queues[p.record.queue];
    ++m_stats.presents;
    AdapterId adapter = 0;
    for (auto& [handle, d] : m_devices) {
      if (handle == q.record.device) adapter = d.adapter;
    }
    Emit(events::Marker{
        .ts_ns = TimeNs(p.record.cpu_ns),
        .queue_id = q.id,
        .thread_id = Thread(p.tid),
        .name_sid = m_writer.Intern(fmt::format("vkQueuePresentKHR swapchain {:#x} image {}",
                                                p.record.swapchain, p.record.image_index)),
        .adapter_id = adapter,
        .marker_type = 2});
  }
}

}  // namespace

bool IsVulkanRecordFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  RecordHeader header{};
  FileHeader file{};
  if (!in.read(reinterpret_cast<char*>(&header), sizeof header)) return false;
  if (!in.read(reinterpret_cast<char*>(&file), sizeof file)) return false;
  return header.type == RecordType::kFileHeader && file.magic == kRecordMagic;
}

VulkanImportStats ImportVulkanRecords(const std::vector<std::filesystem::path>& files,
                                      core::store::TraceWriter& writer) {
  VulkanImportStats stats;
  std::vector<Gathered> events;
  std::vector<std::pair<size_t, size_t>> flows;
  int64_t next_op = 1;
  for (const auto& file : files) {
    FileImporter importer(writer, stats, events, flows, next_op);
    importer.Run(file);
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

}  // namespace importers::vulkan
