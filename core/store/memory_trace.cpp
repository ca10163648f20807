#include "core/store/memory_trace.h"

#include <algorithm>

namespace core::store {

namespace {

template <typename Row>
uint32_t AddRow(std::vector<Row>& table, Row row) {
  row.id = static_cast<decltype(row.id)>(table.size() + 1);
  table.push_back(std::move(row));
  return table.back().id;
}

}  // namespace

MemoryTrace::MemoryTrace(std::string_view source) {
  m_store.strings.push_back("");
  m_store.meta["source"] = std::string(source);
  m_store.meta["created_by"] = "fencescope";
  m_store.meta["clock"] = "ns";
}

core::model::StringId MemoryTrace::Intern(std::string_view text) {
  if (text.empty()) return 0;
  auto it = m_strings.find(text);  // no string built for a name already there
  if (it != m_strings.end()) return it->second;
  const auto id = static_cast<core::model::StringId>(m_store.strings.size());
  m_strings.emplace(std::string(text), id);
  m_store.strings.emplace_back(text);
  return id;
}

core::model::AdapterId MemoryTrace::AddAdapter(const core::model::Adapter& row) {
  return AddRow(m_store.adapters, row);
}
core::model::EngineId MemoryTrace::AddEngine(const core::model::Engine& row) {
  return AddRow(m_store.engines, row);
}
core::model::QueueId MemoryTrace::AddQueue(const core::model::Queue& row) {
  return AddRow(m_store.queues, row);
}
core::model::ProcessId MemoryTrace::AddProcess(const core::model::Process& row) {
  return AddRow(m_store.processes, row);
}
core::model::ContextId MemoryTrace::AddContext(const core::model::Context& row) {
  return AddRow(m_store.contexts, row);
}
core::model::ThreadId MemoryTrace::AddThread(const core::model::Thread& row) {
  return AddRow(m_store.threads, row);
}
core::model::FenceId MemoryTrace::AddFence(const core::model::Fence& row) {
  return AddRow(m_store.fences, row);
}
core::model::PsoId MemoryTrace::AddPso(const core::model::Pso& row) {
  return AddRow(m_store.psos, row);
}
core::model::ResourceId MemoryTrace::AddResource(const core::model::Resource& row) {
  return AddRow(m_store.resources, row);
}

core::model::EventRowId MemoryTrace::Append(const core::model::EventRecord& event) {
  const auto rowid = static_cast<core::model::EventRowId>(m_packer.rows + 1);
  if (m_packer.rows == 0) {
    m_first = m_last = event.ts;
  } else {
    if (event.ts < m_last) m_sorted = false;
    m_first = std::min(m_first, event.ts);
    m_last = std::max(m_last, event.ts);
  }
  m_packer.Add(rowid, event);
  return rowid;
}

void MemoryTrace::SetMeta(std::string_view key, std::string_view value) {
  m_store.meta[std::string(key)] = std::string(value);
}

TraceStore MemoryTrace::TakeStore(const std::string& path) {
  m_store.path = path;
  auto& meta = m_store.meta;
  meta["events"] = std::to_string(m_packer.rows);
  meta["events_sorted"] = m_sorted ? "1" : "0";
  if (!meta.count("start_ns")) meta["start_ns"] = std::to_string(m_first);
  if (!meta.count("end_ns")) meta["end_ns"] = std::to_string(m_last);
  SetEventsFromPacked(m_store, std::move(m_packer));
  TraceStore out = std::move(m_store);
  m_store = TraceStore{};
  m_strings.clear();
  m_packer = EventRowPacker();
  return out;
}

}  // namespace core::store
