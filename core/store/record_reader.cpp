#include "core/store/record_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/model/error.h"
#include "core/store/event_row.h"

namespace core::store {

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
  std::string sql = fmt::format("SELECT {} FROM events WHERE rowid IN (", kEventRowColumns);
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
    const EventRowId rowid = EventRowIdOf(m_select.handle());
    const EventRecord record = EventRecordOf(m_select.handle());
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
