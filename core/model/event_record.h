// EventRecord: one row of the `events` table with its generic columns (queue, thread, fence,
// value, op, arg0..arg2, flags). What the generic columns mean depends on the kind; read and
// write them through the typed records of core/model/event_types.h, never by column name.
// Only the store (writing and loading rows) and the generated accessors touch arg0..arg2.
#pragma once

#include <cstdint>

#include "core/model/event_kind.h"
#include "core/model/types.h"

namespace core::model {

// Zero ids are written as NULL.
struct EventRecord {
  TimeNs ts = 0;
  EventKind kind = EventKind::PacketSubmitted;
  QueueId queue = 0;
  ThreadId thread = 0;
  FenceId fence = 0;
  uint64_t value = 0;
  int64_t op = 0;
  int64_t arg0 = 0;
  int64_t arg1 = 0;
  int64_t arg2 = 0;
  uint32_t flags = 0;
};

// The generic columns by name, for code that walks a kind's fields (event_fields.h).
enum class EventColumn : uint8_t { kQueue, kThread, kFence, kValue, kOp, kArg0, kArg1, kArg2, kFlags };

// The column's value as a signed 64-bit integer (value and flags widened as SQL stores them).
int64_t ColumnValue(const EventRecord& record, EventColumn column);
void SetColumnValue(EventRecord& record, EventColumn column, int64_t value);

}  // namespace core::model
