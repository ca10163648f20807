// The per-file state of the Vulkan record importer (vk_record_importer.h): the records of one
// capture file gathered by kind, and the importer that turns them into topology and events.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/store/trace_writer.h"
#include "importers/vulkan/vk_record_format.h"
#include "importers/vulkan/vk_record_importer.h"

namespace importers::vulkan::detail {

using namespace core::model;
using core::store::TraceWriter;

constexpr uint32_t kQueueGraphics = 0x1, kQueueCompute = 0x2, kQueueTransfer = 0x4,
                   kQueueVideoDecode = 0x20, kQueueVideoEncode = 0x40;
constexpr int32_t kVkSuccess = 0;

// A fixed-size name field of a record: up to its first NUL, or all of it, as a damaged file (or
// one of another writer) need not end it with one.
template <size_t N>
std::string FieldText(const char (&field)[N]) {
  return std::string(field, strnlen(field, N));
}

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
  // The text after a T whose length field says `length` bytes ("" when the record is short).
  template <class T>
  std::string TextAfter(uint32_t length) const {
    if (sizeof(T) + length > size) return {};
    return std::string(reinterpret_cast<const char*>(payload) + sizeof(T), length);
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
  std::string label;     // from its command buffers' debug-utils labels or names
  std::string name;      // the packet's name: open queue labels, then `label`
};

struct CpuWait {
  uint32_t tid = 0;
  std::vector<CpuWaitItemRecord> items;
  bool done = false;
  bool poll = false;  // a run of status polls (PollWaitRecord)
  CpuWaitDoneRecord result{};
};

struct QueueLabel {
  QueueLabelRecord record{};
  uint32_t tid = 0;
  std::string text;
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
  // Added to the GPU times placed by each calibration (by index; one entry without calibration)
  // so that they keep the causal order the CPU saw (vk_record_clock.cpp).
  std::vector<double> causal_shift_ns;
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
  const Batch* batch = nullptr;  // the batch whose GPU end is `executed`, if timed
  bool host = false;             // vkSignalSemaphore: `executed` is its entry on the CPU clock
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
  // The same for a file's bytes held in memory (`label` names it in messages).
  void Run(std::string_view bytes, const std::string& label);

 private:
  // Something that signals or waits on a binary semaphore or VkFence, in call order.
  enum class OpKind { kBatch, kAcquire, kHostSignal, kCpuWait };
  struct Op {
    uint64_t time;
    OpKind kind;
    size_t index;
    uint64_t key;
  };
  struct GpuWait {
    Batch* batch;
    uint64_t fence;
    uint64_t value;
  };
  struct CpuWaitItem {
    CpuWait* wait;
    uint64_t fence;  // handle into m_fences (queue idle fences use the queue handle)
    uint64_t value;
  };

  void Parse(std::string_view bytes, const std::string& label);
  ThreadId Thread(uint32_t tid);
  FenceState& Fence(uint64_t handle, SemaphoreKind kind_if_new);
  // vk_record_clock.cpp: GPU ticks on the CPU clock, kept in causal order.
  TimeNs GpuTime(DeviceState& device, uint64_t ticks);
  static size_t CalibrationIndex(const DeviceState& device, uint64_t ticks);
  // Bounds on each calibration's shift from what the events emitted so far say; true when a
  // shift changed (the events must then be built again).
  bool KeepCausalOrder();
  // Problems counted while building events, written once the events are final.
  void Problem(std::string name, Severity severity, std::string description) {
    m_problems.push_back({std::move(name), severity, std::move(description)});
  }
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
  // One pass of BuildEvents; ResetEvents undoes it (to build again with shifted GPU times).
  struct EventsMark {
    size_t events, flows;
    int64_t next_op;
    VulkanImportStats stats;
  };
  void EmitEvents();
  void ResetEvents(const EventsMark& mark);
  // vk_record_labels.cpp: packet names from queue labels and command-buffer labels; inserted
  // queue labels as markers; where the GPU times come from (trace meta).
  void NameBatches();
  void EmitQueueLabelMarkers();
  void DescribeGpuClock();
  // The first signal of `fence` (by execution) reaching `value`, or nullptr.
  const Signal* SatisfyingSignal(const FenceState& fence, uint64_t value) const;

  // BuildEvents, by record family.
  void PlaceBatches();
  std::vector<Op> OrderOps();
  void EmitBatch(Batch& b);
  void EmitAcquire(const Acquire& a);
  void EmitHostSignal(const HostSignal& h);
  void GatherCpuWait(size_t index);
  void EmitQueueIdleSignals();
  void EmitExecutedSignals();
  void EmitGpuWaits();
  void EmitCpuWaits();
  void EmitPresents();
  FenceState& WaitedFence(uint64_t handle, bool idle) {
    return idle ? m_idle_fences[handle] : m_fences[handle];
  }

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
  std::map<uint64_t, std::vector<QueueLabel>> m_queue_labels;  // by queue, in record order

  // Built by BuildEvents. GPU waits and CPU waits are resolved after every signal is known.
  std::vector<Batch*> m_submitted;     // batches on a known queue, in call order
  std::vector<CpuWait*> m_done_waits;  // CPU waits that returned
  std::vector<GpuWait> m_gpu_waits;
  std::vector<std::vector<CpuWaitItem>> m_cpu_items;        // by m_done_waits index
  std::map<uint64_t, std::vector<uint64_t>> m_idle_values;  // queue -> values waited for
  std::map<uint64_t, FenceState> m_idle_fences;             // by queue
  StringId m_batch_name{}, m_batch2_name{};
  // Causal facts about GPU times, gathered while emitting (vk_record_clock.cpp): a batch started
  // no earlier than `cpu` (its submission, a host signal it waited for), or completed no later
  // than `cpu` (the return of a CPU wait its signal released).
  struct CausalBound {
    const Batch* batch;
    bool completed;  // false: a bound on its start
    TimeNs cpu;
  };
  std::vector<CausalBound> m_causal_bounds;
  struct PendingProblem {
    std::string name;
    Severity severity;
    std::string description;
  };
  std::vector<PendingProblem> m_problems;
};

}  // namespace importers::vulkan::detail
