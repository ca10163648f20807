// seed 003 "Native fence log buffer design": per HWQueue, one wait log and one signal log of
// 4 KB by default, a header (FirstFreeEntryIndex, WraparoundCount) and fixed-size entries. The
// GPU writes entries without back pressure, so it may overwrite entries the OS has not read; the
// OS detects that from WraparoundCount (an overrun).
#pragma once

#include <cstdint>
#include <vector>

#include "core/model/types.h"
#include "core/sim/fence.h"
#include "core/sim/hardware_queue.h"
#include "core/sim/sim_run.h"

namespace core::sim {

// Header: FirstFreeEntryIndex and WraparoundCount plus reserved space. Entry: hNativeFence,
// FenceValue, OperationType, FenceObservedGpuTimestamp, FenceEndGpuTimestamp, padded.
constexpr uint32_t kLogHeaderBytes = 64;
constexpr uint32_t kLogEntryBytes = 64;

constexpr uint32_t LogCapacity(uint32_t bytes) { return (bytes - kLogHeaderBytes) / kLogEntryBytes; }

struct LogBuffer {
  uint32_t bytes = 4096;
  uint32_t capacity = LogCapacity(4096);
  // Written by the GPU.
  uint32_t first_free = 0;   // FirstFreeEntryIndex
  uint32_t wraparound = 0;   // WraparoundCount
  core::model::TimeNs last_entry_ts = 0;  // newest non-zero entry timestamp
  // What the OS saw at its last read.
  uint32_t seen_first_free = 0;
  uint32_t seen_wraparound = 0;
  core::model::TimeNs seen_entry_ts = 0;  // timestamp of the newest entry the OS has read
};

struct LogWriteResult {
  uint32_t entry_index = 0;
  bool wrapped = false;
};

// GPU side: writes one entry at FirstFreeEntryIndex and advances it (wrapping).
LogWriteResult WriteLogEntry(LogBuffer& log, core::model::TimeNs entry_ts);

struct LogReadResult {
  uint64_t entries_read = 0;   // new entries the OS could still read
  uint64_t entries_lost = 0;   // entries overwritten before the OS read them (overrun)
  core::model::TimeNs missing_since = 0;  // newest entry read before this read
};

// OS side: compares the header with what it saw last time. Entries written since then beyond
// the capacity were overwritten unseen: seed 003 "detect that an overrun occurred by comparing
// the new WraparoundCount value in the log header with its cached value".
LogReadResult ReadLog(LogBuffer& log);

// Replaces the buffer by a new, empty one of `bytes` (the OS destroys and recreates a log buffer
// and tells the KMD with DxgkDdiSetNativeFenceLogBuffer).
void ResizeLog(LogBuffer& log, uint32_t bytes);

// seed 003: Dxgkrnl gives each user-mode HWQueue a wait log and a signal log (native fences).
struct QueueLogs {
  bool enabled = false;
  LogBuffer logs[2];  // [LogType]: 0 wait log, 1 signal log
};

struct LogBuffers {
  std::vector<QueueLogs> queues;  // [queue index]
};

// The GPU logs a fence operation of queue `q` (a no-op without logs or on a legacy fence).
void WriteLog(SimRun& run, const HwQueue& q, QueueLogs& logs, const FenceTable& fences,
              uint32_t fence, core::model::LogType type, uint64_t value, int64_t op,
              TimeNs observed);
// The OS reads the logs of `queues` (UpdateNativeFenceLogs); on an overrun it records the
// fallback scan of the adapter's fences and returns true.
bool ReadLogs(SimRun& run, const Topology& ids, const GpuQueues& gpu, LogBuffers& logs,
              uint32_t adapter, const std::vector<uint32_t>& queues);
// The OS reads every log of `adapter` (periodic read, end of trace).
void ReadAdapterLogs(SimRun& run, const Topology& ids, const GpuQueues& gpu, LogBuffers& logs,
                     uint32_t adapter);

}  // namespace core::sim
