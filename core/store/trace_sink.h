// What a producer of a trace writes into: topology rows, strings, events, their arguments and
// meta. TraceWriter writes a trace file (or an SQLite database in memory); MemoryTrace
// (memory_trace.h) builds the TraceStore directly, for a replay that is measured, not kept.
// The simulator writes into either.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/model/event_record.h"
#include "core/model/event_types.h"
#include "core/model/topology.h"
#include "core/model/types.h"

namespace core::store {

class TraceSink {
 public:
  virtual ~TraceSink() = default;

  virtual core::model::StringId Intern(std::string_view text) = 0;
  virtual core::model::AdapterId AddAdapter(const core::model::Adapter& row) = 0;
  virtual core::model::EngineId AddEngine(const core::model::Engine& row) = 0;
  virtual core::model::QueueId AddQueue(const core::model::Queue& row) = 0;
  virtual core::model::ProcessId AddProcess(const core::model::Process& row) = 0;
  virtual core::model::ContextId AddContext(const core::model::Context& row) = 0;
  virtual core::model::ThreadId AddThread(const core::model::Thread& row) = 0;
  virtual core::model::FenceId AddFence(const core::model::Fence& row) = 0;
  virtual core::model::PsoId AddPso(const core::model::Pso& row) = 0;
  virtual core::model::ResourceId AddResource(const core::model::Resource& row) = 0;

  // Appends one event; returns its rowid (1, 2, ... in append order).
  virtual core::model::EventRowId Append(const core::model::EventRecord& event) = 0;
  template <core::model::events::TypedEvent Typed>
  core::model::EventRowId Append(const Typed& event) {
    return Append(event.Record());
  }
  virtual void AddEventArg(core::model::EventRowId event, std::string_view key, int64_t value) = 0;
  // Trace-wide facts; later calls replace earlier values of the same key.
  virtual void SetMeta(std::string_view key, std::string_view value) = 0;
  virtual uint64_t events_written() const = 0;
};

}  // namespace core::store
