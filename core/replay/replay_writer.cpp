#include "core/replay/replay_writer.h"

#include <fmt/format.h>

namespace core::replay {

namespace {

// The trace's topology rows, in their order: the writer gives them the same ids.
core::sim::WrittenTopology CopyTopology(const core::store::TraceStore& trace,
                                        const DerivedProgram& program,
                                        core::store::TraceSink& w) {
  for (const auto& row : trace.adapters) w.AddAdapter(row);
  for (const auto& row : trace.engines) w.AddEngine(row);
  for (const auto& row : trace.queues) w.AddQueue(row);
  for (const auto& row : trace.processes) w.AddProcess(row);
  for (const auto& row : trace.contexts) w.AddContext(row);
  for (const auto& row : trace.threads) w.AddThread(row);
  for (const auto& row : trace.fences) w.AddFence(row);
  for (const auto& row : trace.psos) w.AddPso(row);
  for (const auto& row : trace.resources) w.AddResource(row);

  core::sim::WrittenTopology ids;
  core::model::ProcessId process = trace.processes.empty() ? 0 : trace.processes.front().id;
  if (process == 0) process = w.AddProcess({0, "replay"});
  ids.process = process;
  ids.adapters = program.adapter_ids;
  ids.engines = program.engine_ids;
  ids.queues = program.queue_ids;
  for (core::model::QueueId q : program.queue_ids) {
    core::model::ContextId context = 0;
    for (const auto& c : trace.contexts) {
      if (c.queue == q) {
        context = c.id;
        break;
      }
    }
    ids.contexts.push_back(context);
  }
  for (size_t f = 0; f < program.fence_ids.size(); ++f) {
    core::model::FenceId id = program.fence_ids[f];
    if (id == 0) {
      // A fence of the replay's own (a device sync re-bound to every stream of its device).
      const core::sim::FenceSpec& spec = program.scenario.fences[f];
      core::model::Fence row;
      row.name = spec.name;
      row.kind = spec.kind;
      row.owner_adapter = spec.adapter < program.adapter_ids.size() ? program.adapter_ids[spec.adapter] : 0;
      id = w.AddFence(row);
    }
    ids.fences.push_back(id);
  }
  for (size_t t = 0; t < program.thread_ids.size(); ++t) {
    core::model::ThreadId id = program.thread_ids[t];
    if (id == 0) {
      // A stand-in submitter: a thread row of its own after the trace's.
      id = w.AddThread({process, -static_cast<int64_t>(t + 1),
                        core::model::ThreadKind::kApplication, program.scenario.threads[t].name,
                        static_cast<int32_t>(t)});
    }
    ids.threads.push_back(id);
  }
  return ids;
}

}  // namespace

core::sim::SimSummary WriteReplay(const core::store::TraceStore& trace,
                                  const DerivedProgram& program, core::store::TraceSink& writer,
                                  const ReplayRun& run) {
  const core::sim::WrittenTopology ids = CopyTopology(trace, program, writer);
  writer.SetMeta("clock", trace.MetaOr("clock", "ns"));
  writer.SetMeta("replay_of", trace.path.string());
  writer.SetMeta("replay_of_hash", fmt::format("{:016x}", trace.events_hash));
  writer.SetMeta("replay_edits", run.edits);
  writer.SetMeta("start_ns", std::to_string(program.origin));
  core::sim::SimOptions options;
  options.topology = &ids;
  options.write_meta = false;
  options.clock_origin = program.origin;
  options.progress = run.progress;
  options.step_durations = run.step_durations;
  options.fence_mode = core::sim::FenceMode::kNative;  // each adapter and fence as the trace ran
  const double span = static_cast<double>(program.end - program.origin);
  options.duration_ns = static_cast<DurationNs>(span * run.limit_factor) + 1'000'000;
  return core::sim::RunSimulation(program.scenario, writer, options);
}

}  // namespace core::replay
