#include "core/store/record_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/model/error.h"

namespace core::store {
namespace {

// The columns in the order of trace_loader.cpp's SELECT, converted the same way (NULL -> 0).
constexpr const char* kColumns =
    "rowid, ts_ns, kind, queue_id, thread_id, fence_id, value, op_id, arg0, arg1, arg2, flags";

EventRecord RecordFromRow(const Statement& s) {
  sqlite3_stmt* h = s.handle();
  EventRecord r;
  r.ts = sqlite3_column_int64(h, 1);
  r.kind = static_cast<EventKind>(sqlite3_column_int(h, 2));
  r.queue = static_cast<QueueId>(sqlite3_column_int64(h, 3));
  r.thread = static_cast<ThreadId>(sqlite3_column_int64(h, 4));
  r.fence = static_cast<FenceId>(sqlite3_column_int64(h, 5));
  r.value = static_cast<uint64_t>(sqlite3_column_int64(h, 6));
  r.op = sqlite3_column_int64(h, 7);
  r.arg0 = sqlite3_column_int64(h, 8);
  r.arg1 = sqlite3_column_int64(h, 9);
  r.arg2 = sqlite3_column_int64(h, 10);
  r.flags = static_cast<uint32_t>(sqlite3_column_int64(h, 11));
  return r;
}

}  // namespace

RecordReader::RecordReader(const TraceStore& store) : m_store(store) {
  if (m_store.events.bulk_released) Open();
}

RecordReader::~RecordReader() = default;

void RecordReader::Open() {
  if (m_db) return;
  const std::string path = m_store.path.string();
  if (path.empty()) {
    throw Error("event records: the columns were released and the trace has no file to read");
  }
  m_db = std::make_unique<Database>(path, Database::Mode::kReadOnly);
  std::string sql = fmt::format("SELECT {} FROM events WHERE rowid IN (", kColumns);
  for (size_t i = 1; i <= kBatch; ++i) sql += fmt::format("{}?{}", i == 1 ? "" : ", ", i);
  sql += ")";
  m_select = m_db->Prepare(sql);
}

EventRecord RecordReader::FromMemory(uint32_t index) const {
  const EventColumns& e = m_store.events;
  return EventRecord{e.ts[index],  e.kind[index], e.queue[index], e.thread[index],
                     e.fence[index], e.value[index], e.op[index],  e.arg0[index],
                     e.arg1[index],  e.arg2[index], e.flags[index]};
}

void RecordReader::ReadBatchFromFile(std::span<const uint32_t> indices, EventRecord* out) {
  Open();
  const std::string& path = m_db->path();
  std::array<EventRowId, kBatch> rowids{};
  std::array<bool, kBatch> found{};
  for (size_t k = 0; k < indices.size(); ++k) rowids[k] = m_store.events.RowIdOf(indices[k]);
  for (size_t k = 0; k < kBatch; ++k) {
    if (k < indices.size()) m_select.BindInt(static_cast<int>(k + 1), rowids[k]);
    else m_select.BindNull(static_cast<int>(k + 1));
  }
  while (m_select.Step()) {
    const EventRowId rowid = m_select.ColumnInt(0);
    const EventRecord record = RecordFromRow(m_select);
    // A rowid may be asked for more than once in a batch: fill every place that asked.
    for (size_t k = 0; k < indices.size(); ++k) {
      if (rowids[k] != rowid) continue;
      if (record.ts != m_store.events.ts[indices[k]] ||
          record.kind != m_store.events.kind[indices[k]]) {
        m_select.Reset();
        throw Error(fmt::format(
            "{}: events rowid {}: the row no longer matches the loaded trace (the file was "
            "changed after it was opened)",
            path, rowid));
      }
      out[k] = record;
      found[k] = true;
    }
  }
  m_select.Reset();
  for (size_t k = 0; k < indices.size(); ++k) {
    if (!found[k]) {
      throw Error(fmt::format("{}: events has no row with rowid {} (the file was changed after "
                              "it was opened)",
                              path, rowids[k]));
    }
  }
}

std::vector<EventRecord> RecordReader::Read(std::span<const uint32_t> indices) {
  for (uint32_t index : indices) {
    if (index >= m_store.events.size()) {
      throw Error(fmt::format("{}: event index {} is past the last of {} events",
                              m_store.path.string(), index, m_store.events.size()));
    }
  }
  std::vector<EventRecord> out(indices.size());
  if (!m_store.events.bulk_released) {
    for (size_t k = 0; k < indices.size(); ++k) out[k] = FromMemory(indices[k]);
    return out;
  }
  for (size_t begin = 0; begin < indices.size(); begin += kBatch) {
    const size_t n = std::min(kBatch, indices.size() - begin);
    ReadBatchFromFile(indices.subspan(begin, n), out.data() + begin);
  }
  return out;
}

EventRecord RecordReader::Read(uint32_t index) {
  Slot& slot = m_cache[index % kCacheSlots];
  if (slot.index != index) {
    const uint32_t one[1] = {index};
    slot.record = Read(std::span<const uint32_t>(one)).front();
    slot.index = index;
  }
  return slot.record;
}

}  // namespace core::store
