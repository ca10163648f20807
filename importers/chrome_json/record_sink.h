// Records made by the Chrome JSON builder before they are written: kept in memory so that
// records whose time is learnt later (a packet's submit time comes from its launch flow) can be
// fixed, then sorted by time and appended to the TraceWriter in one go, with flows translated
// from record indices to the rowids the writer hands out.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/model/event_fields.h"
#include "core/store/trace_writer.h"
#include "importers/chrome_json/two_thread_sort.h"

namespace importers::chrome_json {

struct PendingFlow {
  uint32_t from = 0;  // record indices
  uint32_t to = 0;
  core::model::FlowKind kind = core::model::FlowKind::kGeneric;
  core::model::StringId name = 0;
};

class RecordSink {
 public:
  void Reserve(size_t records) { m_records.reserve(records); }
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
  size_t size() const { return m_records.size(); }
  size_t flow_count() const { return m_flows.size(); }

  // Appends every record in time order (ties keep creation order), shifted by `offset_ns`, then
  // the flows. `progress` gets the fraction of records written.
  // `names[sid]` is the text of writer string id sid (flows are named by text).
  template <typename Progress>
  void WriteTo(core::store::TraceWriter& writer, int64_t offset_ns,
               const std::vector<std::string>& names, Progress&& progress) {
    // (ts, creation index) pairs: sorting them gives the stable time order without reading the
    // records during the sort.
    std::vector<std::pair<core::model::TimeNs, uint32_t>> keys(m_records.size());
    for (uint32_t i = 0; i < keys.size(); ++i) keys[i] = {m_records[i].ts, i};
    SortOnTwoThreads(keys, [](const auto& a, const auto& b) { return a < b; });
    std::vector<uint32_t> order(keys.size());
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = keys[i].second;
    keys.clear();
    keys.shrink_to_fit();
    std::vector<core::model::EventRowId> rowid(m_records.size());
    for (size_t i = 0; i < order.size(); ++i) {
      // The records are read in time order, scattered over the array: ask for one a few
      // appends ahead so that it is in the cache when its turn comes.
      if (i + kPrefetchDistance < order.size()) {
        __builtin_prefetch(&m_records[order[i + kPrefetchDistance]]);
        __builtin_prefetch(&rowid[order[i + kPrefetchDistance]], 1);
      }
      core::store::EventRecord record = m_records[order[i]];
      record.ts += offset_ns;
      core::model::ShiftTimeFields(record, offset_ns);  // times on the same base as ts
      rowid[order[i]] = writer.Append(record);
      if ((i & 0xFFFF) == 0) progress(static_cast<double>(i) / order.size());
    }
    for (const PendingFlow& flow : m_flows) {
      std::string_view name;
      if (flow.name != 0 && flow.name < names.size()) name = names[flow.name];
      writer.AddFlow(rowid[flow.from], rowid[flow.to], flow.kind, name);
    }
    m_records.clear();
    m_records.shrink_to_fit();
  }

 private:
  static constexpr size_t kPrefetchDistance = 16;
  std::vector<core::store::EventRecord> m_records;
  std::vector<PendingFlow> m_flows;
};

}  // namespace importers::chrome_json
