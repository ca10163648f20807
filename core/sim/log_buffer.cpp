// seed 003 "Native fence log buffer design": the GPU writes wait and signal log entries of a
// HWQueue, the OS reads them (periodically, on interrupts, at the end of the trace) and detects
// overruns from WraparoundCount.
#include "core/sim/log_buffer.h"

#include <algorithm>

namespace core::sim {

using core::model::LogType;

LogWriteResult WriteLogEntry(LogBuffer& log, core::model::TimeNs entry_ts) {
  LogWriteResult r;
  r.entry_index = log.first_free;
  // seed 003: timestamps never go backwards; a zero timestamp (skipped write) is allowed.
  if (entry_ts != 0 && entry_ts > log.last_entry_ts) log.last_entry_ts = entry_ts;
  if (++log.first_free == log.capacity) {
    log.first_free = 0;
    ++log.wraparound;
    r.wrapped = true;
  }
  return r;
}

LogReadResult ReadLog(LogBuffer& log) {
  LogReadResult r;
  const uint64_t written =
      static_cast<uint64_t>(log.wraparound - log.seen_wraparound) * log.capacity + log.first_free -
      log.seen_first_free;
  r.entries_lost = written > log.capacity ? written - log.capacity : 0;
  r.entries_read = written - r.entries_lost;
  r.missing_since = log.seen_entry_ts;
  log.seen_first_free = log.first_free;
  log.seen_wraparound = log.wraparound;
  log.seen_entry_ts = log.last_entry_ts;
  return r;
}

void ResizeLog(LogBuffer& log, uint32_t bytes) {
  const core::model::TimeNs seen = log.seen_entry_ts;
  const core::model::TimeNs last = log.last_entry_ts;
  log = LogBuffer{};
  log.bytes = bytes;
  log.capacity = LogCapacity(bytes);
  log.seen_entry_ts = seen;
  log.last_entry_ts = last;
}

void WriteLog(SimRun& run, const HwQueue& q, QueueLogs& logs, const FenceTable& fences,
              uint32_t fence, LogType type, uint64_t value, int64_t op, TimeNs observed) {
  if (!logs.enabled || !fences.NativeOn(fence, q.adapter)) return;
  LogBuffer& log = logs.logs[static_cast<int>(type)];
  const AdapterSpec& adapter = run.scenario->adapters[q.adapter];
  // seed 003: on linked adapters one GPU can skip the write, leaving a zero timestamp.
  const bool zero = run.random.Chance(adapter.zero_timestamp_chance);
  const LogWriteResult w = WriteLogEntry(log, zero ? 0 : run.now);
  run.Emit(events::LogWrite{
      .ts_ns = run.now,
      .queue_id = q.id,
      .fence_id = fences.fences[fence].id,
      .fence_value = value,
      .op_id = op,
      .entry_index = w.entry_index,
      .wraparound_count = log.wraparound,
      .observed_ns = type == LogType::kWait && !zero ? observed : 0,
      .log_type = static_cast<uint32_t>(type) | (zero ? core::model::kLogEntryZeroTimestamp : 0)});
  if (w.wrapped) {
    run.Emit(events::LogWraparound{.ts_ns = run.now,
                                   .queue_id = q.id,
                                   .wraparound_count = log.wraparound,
                                   .log_type = static_cast<uint32_t>(type)});
  }
}

namespace {

// Reads one log; records the flush, an overrun and a resize. Returns true on an overrun.
bool ReadOneLog(SimRun& run, const HwQueue& q, LogBuffer& log, LogType type) {
  const LogReadResult r = ReadLog(log);
  if (r.entries_read == 0 && r.entries_lost == 0) return false;
  run.Emit(events::LogFlush{.ts_ns = run.now,
                            .queue_id = q.id,
                            .entries_read = static_cast<int64_t>(r.entries_read),
                            .log_type = static_cast<uint32_t>(type)});
  if (r.entries_lost == 0) return false;
  run.Emit(events::LogOverrun{.ts_ns = run.now,
                              .queue_id = q.id,
                              .entries_lost = static_cast<int64_t>(r.entries_lost),
                              .wraparound_count = log.wraparound,
                              .missing_since_ns = r.missing_since,
                              .log_type = static_cast<uint32_t>(type)});
  const AdapterSpec& adapter = run.scenario->adapters[q.adapter];
  if (adapter.grow_logs_when_tracing && log.bytes < adapter.log_max_bytes) {
    // seed 003: when tracing, the OS increases the size of the log buffer to prevent overruns.
    ResizeLog(log, std::min(adapter.log_max_bytes, log.bytes * 2));
    run.Emit(events::LogResized{.ts_ns = run.now,
                                .queue_id = q.id,
                                .size_bytes = log.bytes,
                                .log_type = static_cast<uint32_t>(type)});
  }
  return true;
}

}  // namespace

bool ReadLogs(SimRun& run, const Topology& ids, const GpuQueues& gpu, LogBuffers& logs,
              uint32_t adapter, const std::vector<uint32_t>& queues) {
  int64_t overrun_queue = -1;
  for (uint32_t qi : queues) {
    QueueLogs& queue_logs = logs.queues[qi];
    if (!queue_logs.enabled) continue;
    for (LogType type : {LogType::kWait, LogType::kSignal}) {
      LogBuffer& log = queue_logs.logs[static_cast<int>(type)];
      if (ReadOneLog(run, gpu.queues[qi], log, type) && overrun_queue < 0) overrun_queue = qi;
    }
  }
  if (overrun_queue < 0) return false;
  // seed 003: on an overrun the OS reads the live value of every fence owned by the device.
  run.Emit(events::LogFallbackScan{
      .ts_ns = run.now,
      .queue_id = gpu.queues[static_cast<size_t>(overrun_queue)].id,
      .adapter_id = ids.adapter_ids[adapter],
      .fences_scanned = static_cast<int64_t>(ids.adapter_fences[adapter].size())});
  return true;
}

void ReadAdapterLogs(SimRun& run, const Topology& ids, const GpuQueues& gpu, LogBuffers& logs,
                     uint32_t adapter) {
  ReadLogs(run, ids, gpu, logs, adapter, ids.adapter_queues[adapter]);
}

}  // namespace core::sim
