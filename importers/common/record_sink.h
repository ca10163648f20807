// Records an importer makes before they are written (the Chrome JSON builder, the Nsight Systems
// importer): kept in memory so that records whose time is learnt later (a packet's submit time
// comes from its launch call) can be fixed, then sorted by time and appended to the TraceWriter
// in one go, with flows translated from record indices to the rowids the writer hands out.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/event_fields.h"
#include "core/store/trace_writer.h"
#include "core/model/error.h"
#include "core/store/two_thread_sort.h"
#include "importers/common/record_blocks.h"

namespace importers {

struct PendingFlow {
  uint32_t from = 0;  // record indices
  uint32_t to = 0;
  core::model::FlowKind kind = core::model::FlowKind::kGeneric;
  core::model::StringId name = 0;
};

struct PendingArg {  // an event_args row of a record not yet written
  uint32_t record = 0;
  const char* key = "";  // a string literal
  int64_t value = 0;
};

struct PendingTextArg {  // an event_args row with a text value
  uint32_t record = 0;
  const char* key = "";  // a string literal
  std::string_view text;
};

class RecordSink {
 public:
  uint32_t Add(const core::store::EventRecord& record) {
    m_records.push_back(record);
    return static_cast<uint32_t>(m_records.size() - 1);
  }
  template <core::model::events::TypedEvent E>
  uint32_t Add(const E& event) {
    return Add(event.Record());
  }
  core::store::EventRecord& at(uint32_t index) { return m_records[index]; }
  void AddFlow(uint32_t from, uint32_t to, core::model::FlowKind kind, core::model::StringId name) {
    m_flows.push_back({from, to, kind, name});
  }
  // An integer argument of record `record` (event_args), written with it; `key` must outlive
  // WriteTo (a string literal).
  void AddArg(uint32_t record, const char* key, int64_t value) {
    m_args.push_back({record, key, value});
  }
  // A text argument of record `record`; `key` a string literal, `text` must outlive WriteTo.
  void AddTextArg(uint32_t record, const char* key, std::string_view text) {
    m_text_args.push_back({record, key, text});
  }
  size_t size() const { return m_records.size(); }
  size_t flow_count() const { return m_flows.size(); }

  // Appends every record in time order (ties keep creation order), shifted by `offset_ns`, then
  // the flows. `progress` gets the fraction of records written.
  // `names[sid]` is the text of writer string id sid (flows are named by text).
  // The records are read where they lie, in time order, each asked for a few records ahead of
  // its turn (the order is known, so no read waits on another); a block goes back to the system
  // once its last record is written, while the writer's own buffers and SQLite's cache grow.
  // Importers make their records a table at a time, each mostly in time order, so blocks are
  // finished and freed through the write. (Putting the records in time order in place first
  // followed each cycle of the permutation, one dependent cache miss a record: 3 s of a 10 M
  // record import.)
  template <typename Progress>
  void WriteTo(core::store::TraceWriter& writer, int64_t offset_ns,
               const std::vector<std::string>& names, Progress&& progress) {
    const uint32_t n = static_cast<uint32_t>(m_records.size());
    // (ts, creation index) pairs: sorting them gives the stable time order without reading the
    // records during the sort.
    std::vector<uint32_t> source(n);  // source[i]: creation index of the i-th record in time
    {
      std::vector<std::pair<core::model::TimeNs, uint32_t>> keys(n);
      for (uint32_t i = 0; i < n; ++i) keys[i] = {m_records[i].ts, i};
      core::store::SortOnTwoThreads(keys, [](const auto& a, const auto& b) { return a < b; });
      for (uint32_t i = 0; i < n; ++i) source[i] = keys[i].second;
    }
    // place[c]: position in time order of the record created c-th (flows name creation indices).
    std::vector<uint32_t> place(n);
    for (uint32_t i = 0; i < n; ++i) place[source[i]] = i;
    std::vector<uint32_t> unwritten(m_records.block_count());  // records left in each block
    for (size_t b = 0; b < unwritten.size(); ++b) {
      unwritten[b] = static_cast<uint32_t>(m_records.BlockLength(b));
    }
    core::model::EventRowId first = 0;
    for (uint32_t i = 0; i < n; ++i) {
      if (i + kPrefetchDistance < n) __builtin_prefetch(&m_records[source[i + kPrefetchDistance]]);
      const uint32_t created = source[i];
      core::store::EventRecord record = m_records[created];
      const size_t block = m_records.BlockOf(created);
      if (--unwritten[block] == 0) m_records.FreeBlock(block);
      record.ts += offset_ns;
      core::model::ShiftTimeFields(record, offset_ns);  // times on the same base as ts
      const core::model::EventRowId rowid = writer.Append(record);
      if (i == 0) first = rowid;
      if (rowid != first + i) {
        throw core::Error("internal error: the trace writer's event rowids are not consecutive");
      }
      if ((i & 0xFFFF) == 0) progress(static_cast<double>(i) / n);
    }
    std::vector<uint32_t>().swap(source);
    for (const PendingFlow& flow : m_flows) {
      std::string_view name;
      if (flow.name != 0 && flow.name < names.size()) name = names[flow.name];
      writer.AddFlow(first + place[flow.from], first + place[flow.to], flow.kind, name);
    }
    m_args.ForEach([&](const PendingArg& arg) {
      writer.AddEventArg(first + place[arg.record], arg.key, arg.value);
    });
    m_args.clear();
    m_text_args.ForEach([&](const PendingTextArg& arg) {
      writer.AddEventArg(first + place[arg.record], arg.key, arg.text);
    });
    m_text_args.clear();
    m_records.clear();
  }

 private:
  static constexpr size_t kPrefetchDistance = 16;
  // In blocks, not vectors: a vector's doubling held its old and new buffers at once, the
  // import's peak on large captures (record_blocks.h).
  RecordBlocks<core::store::EventRecord> m_records;
  std::vector<PendingFlow> m_flows;
  RecordBlocks<PendingArg> m_args;
  RecordBlocks<PendingTextArg> m_text_args;
};

}  // namespace importers
