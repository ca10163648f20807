// Which records of the trace the event table lists: a kind, a text, a time window of event
// indices. Plain functions, so the table's filter can be tested alone.
//
// Two implementations of the same meaning: FilterEvents over the packed columns in memory (kind
// and window always; the text only while the store holds its bulk columns: the command line,
// tests), and FilterEventsSql, an SQL query over the trace file for a store whose bulk columns
// were released (the window; run it off the UI thread, see event_filter_worker.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/store/sqlite_db.h"
#include "core/store/trace_store.h"

namespace app::gui::state {

// Event indices in [first, last) whose kind is `kind` (0: any kind) and that match `text`
// (empty: any): the text is found, ignoring case, in the name of the record's kind, queue,
// thread or fence, or, when the text is a number (decimal, or 0x hex), equals one of the
// record's fields other than its queue, thread and fence ids and flags (the columns op_id, value
// and the three argument columns; a column the kind gives no field is 0). A non-empty text
// needs the bulk columns (throws
// core::Error once they are released: use FilterEventsSql).
std::vector<uint32_t> FilterEvents(const core::store::TraceStore& store, size_t first, size_t last,
                                   int kind, const std::string& text);

// The same selection, sorted, computed by one SQL query on `db` (a connection to store.path):
// the window and kind bound the rowids and times scanned, names are matched against the file's
// event_kinds, queues, threads, fences and strings tables. Throws core::Error on SQL failure,
// including an interrupt (sqlite3_interrupt or a progress handler) of `db`.
std::vector<uint32_t> FilterEventsSql(const core::store::TraceStore& store,
                                      core::store::Database& db, size_t first, size_t last,
                                      int kind, const std::string& text);

// The number a filter text stands for (decimal, or 0x hex), or nullopt when it is not one.
std::optional<int64_t> FilterNumber(const std::string& text);

}  // namespace app::gui::state
