// One row of the `events` table as the loader and the record reader select it: the column list
// and its conversion to an EventRecord (NULL reads as 0), in one place so both read rows alike.
#pragma once

#include <sqlite3.h>

#include "core/store/trace_writer.h"

namespace core::store {

// Column 0 is the rowid; columns 1..11 are the record's fields in EventRecord order.
inline constexpr const char* kEventRowColumns =
    "rowid, ts_ns, kind, queue_id, thread_id, fence_id, value, op_id, arg0, arg1, arg2, flags";

// The columns of `events` that hold a plain number whatever the kind (ids of operations, values,
// the kind-specific fields): what a search for a number compares, as a SQL list.
inline constexpr const char* kEventNumberColumns = "op_id, value, arg0, arg1, arg2";

inline EventRowId EventRowIdOf(sqlite3_stmt* row) { return sqlite3_column_int64(row, 0); }

inline EventRecord EventRecordOf(sqlite3_stmt* row) {
  EventRecord r;
  r.ts = sqlite3_column_int64(row, 1);
  r.kind = static_cast<EventKind>(sqlite3_column_int(row, 2));
  r.queue = static_cast<QueueId>(sqlite3_column_int64(row, 3));
  r.thread = static_cast<ThreadId>(sqlite3_column_int64(row, 4));
  r.fence = static_cast<FenceId>(sqlite3_column_int64(row, 5));
  r.value = static_cast<uint64_t>(sqlite3_column_int64(row, 6));
  r.op = sqlite3_column_int64(row, 7);
  r.arg0 = sqlite3_column_int64(row, 8);
  r.arg1 = sqlite3_column_int64(row, 9);
  r.arg2 = sqlite3_column_int64(row, 10);
  r.flags = static_cast<uint32_t>(sqlite3_column_int64(row, 11));
  return r;
}

}  // namespace core::store
