// A TraceSink that passes everything to another one: a base for a sink that looks at or filters
// some of what a producer writes (core/replay/replay_outcome.cpp) and hands on the rest.
#pragma once

#include "core/store/trace_sink.h"

namespace core::store {

class ForwardingSink : public TraceSink {
 public:
  explicit ForwardingSink(TraceSink& to) : m_to(to) {}

  core::model::StringId Intern(std::string_view text) override { return m_to.Intern(text); }
  core::model::AdapterId AddAdapter(const core::model::Adapter& r) override {
    return m_to.AddAdapter(r);
  }
  core::model::EngineId AddEngine(const core::model::Engine& r) override {
    return m_to.AddEngine(r);
  }
  core::model::QueueId AddQueue(const core::model::Queue& r) override { return m_to.AddQueue(r); }
  core::model::ProcessId AddProcess(const core::model::Process& r) override {
    return m_to.AddProcess(r);
  }
  core::model::ContextId AddContext(const core::model::Context& r) override {
    return m_to.AddContext(r);
  }
  core::model::ThreadId AddThread(const core::model::Thread& r) override {
    return m_to.AddThread(r);
  }
  core::model::FenceId AddFence(const core::model::Fence& r) override { return m_to.AddFence(r); }
  core::model::PsoId AddPso(const core::model::Pso& r) override { return m_to.AddPso(r); }
  core::model::ResourceId AddResource(const core::model::Resource& r) override {
    return m_to.AddResource(r);
  }
  using TraceSink::Append;
  core::model::EventRowId Append(const core::model::EventRecord& e) override {
    return m_to.Append(e);
  }
  void AddEventArg(core::model::EventRowId event, std::string_view key, int64_t value) override {
    m_to.AddEventArg(event, key, value);
  }
  void SetMeta(std::string_view key, std::string_view value) override { m_to.SetMeta(key, value); }
  uint64_t events_written() const override { return m_to.events_written(); }

 private:
  TraceSink& m_to;
};

}  // namespace core::store
