// A trace built in memory, never written: what a producer (the simulator, a replay) writes into
// it becomes a TraceStore as LoadTrace would give for the same rows, without SQLite. For a
// replay that is measured and thrown away (core/replay: the opportunities of a report), where
// writing and reading a trace file back took most of the time.
//
// Event arguments (TraceWriter::AddEventArg) are not kept: no analysis reads them.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/store/event_row_packer.h"
#include "core/store/string_hash.h"
#include "core/store/trace_sink.h"
#include "core/store/trace_store.h"

namespace core::store {

class MemoryTrace : public TraceSink {
 public:
  // `source` goes to meta.source.
  explicit MemoryTrace(std::string_view source);

  core::model::StringId Intern(std::string_view text) override;
  core::model::AdapterId AddAdapter(const core::model::Adapter& row) override;
  core::model::EngineId AddEngine(const core::model::Engine& row) override;
  core::model::QueueId AddQueue(const core::model::Queue& row) override;
  core::model::ProcessId AddProcess(const core::model::Process& row) override;
  core::model::ContextId AddContext(const core::model::Context& row) override;
  core::model::ThreadId AddThread(const core::model::Thread& row) override;
  core::model::FenceId AddFence(const core::model::Fence& row) override;
  core::model::PsoId AddPso(const core::model::Pso& row) override;
  core::model::ResourceId AddResource(const core::model::Resource& row) override;
  using TraceSink::Append;
  core::model::EventRowId Append(const core::model::EventRecord& event) override;
  void AddEventArg(core::model::EventRowId, std::string_view, int64_t) override {}
  void SetMeta(std::string_view key, std::string_view value) override;
  uint64_t events_written() const override { return m_packer.rows; }

  // The store (meta events, events_sorted, start_ns and end_ns filled in as a writer's Commit
  // does); the trace is empty afterwards. `path` names it in messages.
  TraceStore TakeStore(const std::string& path);

 private:
  TraceStore m_store;
  std::unordered_map<std::string, core::model::StringId, TransparentStringHash, std::equal_to<>>
      m_strings;
  EventRowPacker m_packer;
  core::model::TimeNs m_first = 0;
  core::model::TimeNs m_last = 0;
  bool m_sorted = true;
};

}  // namespace core::store
