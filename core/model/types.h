// Plain value types shared by every part of fencescope: time, ids and the small enumerations
// that the trace schema stores as integers (schemas/event_kinds.sql names each value).
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

namespace core::model {

// Nanoseconds on the trace's single time base.
using TimeNs = int64_t;
using DurationNs = int64_t;

// Fence values are UINT64 as in D3D12; UINT64_MAX means "no CPU waiter" for MonitoredValue.
using FenceValue = uint64_t;
constexpr FenceValue kNoWaiterMonitoredValue = std::numeric_limits<uint64_t>::max();

// Row ids of the topology tables. 0 means "none" (NULL in SQL).
using AdapterId = uint32_t;
using EngineId = uint32_t;
using QueueId = uint32_t;
using ProcessId = uint32_t;
using ContextId = uint32_t;
using ThreadId = uint32_t;
using FenceId = uint32_t;
using PsoId = uint32_t;
using ResourceId = uint32_t;
using CounterSeriesId = uint32_t;
using StringId = uint32_t;
// events.rowid: 1-based index of an event in the order the writer appended it.
using EventRowId = int64_t;

enum class EngineType : uint8_t { k3D = 0, kCompute = 1, kCopy = 2, kVideo = 3, kOther = 4 };
enum class QueueType : uint8_t {
  k3D = 0, kCompute = 1, kCopy = 2, kVideo = 3, kSoftware = 4, kOther = 5
};
enum class ThreadKind : uint8_t { kApplication = 0, kRuntimeBackground = 1, kOs = 2 };
enum class FenceKind : uint8_t { kNative = 0, kMonitored = 1, kCrossAdapter = 2, kOther = 3 };
enum class FlowKind : uint8_t { kGeneric = 0, kCpuLaunch = 1, kFence = 2 };
enum class Severity : uint8_t { kInfo = 0, kError = 1, kDataLoss = 2 };
enum class InterruptType : uint8_t {
  kNative = 0, kMonitored = 1, kCrossAdapter = 2, kDmaCompletion = 3
};
enum class LogType : uint8_t { kWait = 0, kSignal = 1 };
enum class PreemptionGranularity : uint8_t {
  kNone = 0, kDmaBuffer = 1, kPrimitive = 2, kTriangle = 3, kPixel = 4, kShader = 5,
  kDispatch = 6, kThreadGroup = 7, kThread = 8
};
enum class BackgroundMode : uint8_t {
  kAllowed = 0, kAllowIntrusiveMeasurements = 1, kDisableBackgroundWork = 2,
  kDisableProfilingBySystem = 3
};
enum class MeasurementsAction : uint8_t {
  kKeepAll = 0, kCommitResults = 1, kCommitResultsHighPriority = 2, kDiscardPrevious = 3
};

// interrupt.flags: low 4 bits InterruptType, then these bits.
constexpr uint32_t kInterruptTypeMask = 0xF;
constexpr uint32_t kInterruptOptimized = 16;  // the interrupt names a HWQueue
constexpr uint32_t kInterruptScanAll = 32;    // NULL HWQueue: every log of the engine scanned

// packet_submitted.flags
constexpr uint32_t kPacketPaging = 1;
constexpr uint32_t kPacketInstrumented = 2;
constexpr uint32_t kPacketUsesVariant = 4;
constexpr uint32_t kPacketResubmission = 8;
constexpr uint32_t kPacketPresent = 16;
constexpr uint32_t kPacketWait = 32;
constexpr uint32_t kPacketSignal = 64;

// log_write.flags: low bit LogType, then this bit.
constexpr uint32_t kLogEntryZeroTimestamp = 4;  // entry has a zero timestamp (skipped write, LDA)

// fence_wait_unblocked.flags
enum class WaitPath : uint8_t { kGpuNative = 0, kCpuHeld = 1, kCrossAdapter = 2 };

// fence_wait_unblocked.release_link and cpu_wait_released.release_link: how the writer knows what
// released a wait. kInferred marks a link an importer worked out from timing and call order (the
// CUDA rules of schemas/kineto_inference.md) rather than read from the capture.
enum class ReleaseLink : uint8_t { kNotGiven = 0, kFromCapture = 1, kInferred = 2 };

// The queue type that feeds an engine of this type (other engines: QueueType::kOther).
QueueType QueueTypeOf(EngineType type);

// Lower-case names as stored in enum_values (and used in JSON output).
std::string_view EngineTypeName(EngineType type);
std::string_view QueueTypeName(QueueType type);
std::string_view FenceKindName(FenceKind kind);
std::string_view PreemptionGranularityName(PreemptionGranularity granularity);
std::string_view BackgroundModeName(BackgroundMode mode);
std::string_view MeasurementsActionName(MeasurementsAction action);
std::string_view ReleaseLinkName(ReleaseLink link);
std::string_view SeverityName(Severity severity);  // of import_problems.severity
// The name enum_values gives `value` of the enum `enum_name` (as an event field's enum_name
// says), "unknown" for a value it does not list; empty for an enum this list has no names for.
std::string_view EnumValueName(std::string_view enum_name, int64_t value);

}  // namespace core::model
