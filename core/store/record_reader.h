// RecordReader: whole EventRecords of events (by event index) whether or not the store still
// holds its bulk columns. While the columns are resident (the command line, tests with a loaded
// store) the records come from memory; once EventColumns::ReleaseBulkColumns() has run (the
// window) they are read from the trace file by rowid, a batch at a time with one prepared
// statement. Both paths give the same records.
//
// The file is opened when the reader is made if the columns are already released (so a reader
// made right after loading keeps working even if the file is later replaced or deleted: the open
// connection keeps reading the file it opened), else on the first read that needs it.
//
// Not thread-safe: one reader per thread (each has its own SQLite connection).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/store/sqlite_db.h"
#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"

namespace core::store {

class RecordReader {
 public:
  // `store` must outlive the reader. Throws core::Error when the columns are released and the
  // file cannot be opened.
  explicit RecordReader(const TraceStore& store);
  ~RecordReader();
  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;

  // Records of events `indices` (any order, repeats allowed), in the order asked. Throws
  // core::Error naming the file and the rowid when an index is out of range, the file has no
  // such row, or the row no longer matches the loaded trace (time or kind differ).
  std::vector<EventRecord> Read(std::span<const uint32_t> indices);
  // One record; the last few hundred records read one by one are kept, so asking again for the
  // same record (a view redrawn every frame) costs a lookup, not a query.
  EventRecord Read(uint32_t index);

  // True when records come from the file (the columns are released).
  bool reads_file() const { return m_store.events.bulk_released; }

 private:
  static constexpr size_t kBatch = 64;  // rowids bound per execution of the statement
  static constexpr size_t kCacheSlots = 256;
  EventRecord FromMemory(uint32_t index) const;
  void ReadBatchFromFile(std::span<const uint32_t> indices, EventRecord* out);
  void Open();

  const TraceStore& m_store;
  std::unique_ptr<Database> m_db;
  Statement m_select;  // SELECT ... FROM events WHERE rowid IN (?1, ..., ?kBatch)
  struct Slot {
    uint32_t index = UINT32_MAX;
    EventRecord record;
  };
  std::array<Slot, kCacheSlots> m_cache;  // direct-mapped on the event index
};

}  // namespace core::store
