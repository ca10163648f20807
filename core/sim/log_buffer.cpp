#include "core/sim/log_buffer.h"

namespace core::sim {

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

}  // namespace core::sim
