// Topology set-up, the event loop and the end of a run.
#include "core/sim/simulator.h"

#include <string>

#include "core/model/error.h"
#include "core/sim/background_tasks.h"
#include "core/sim/preemption.h"
#include "core/sim/sim_state.h"

namespace core::sim {

using core::model::FenceKind;
using core::model::kNoWaiterMonitoredValue;

namespace {

constexpr uint64_t kMaxEventsAtOneInstant = 50'000'000;

void SetUpAdapters(core::store::TraceSink& w, const Scenario& s, bool native_mode,
                   const PreemptionState& preemption, const WrittenTopology* given,
                   Topology& ids) {
  ids.adapter_queues.resize(s.adapters.size());
  ids.adapter_fences.resize(s.adapters.size());
  if (given) {
    ids.adapter_ids = given->adapters;
    return;
  }
  for (size_t i = 0; i < s.adapters.size(); ++i) {
    const AdapterSpec& a = s.adapters[i];
    core::model::Adapter info;
    info.name = a.name;
    info.luid = static_cast<int64_t>(i + 1);
    info.native_fences = a.native_fences && native_mode;  // as run, not merely as capable
    info.optimized_interrupts = a.optimized_interrupts && info.native_fences;
    info.preemption_graphics = preemption.adapters[i].graphics;  // seed 004: as run
    info.preemption_compute = preemption.adapters[i].compute;
    ids.adapter_ids.push_back(w.AddAdapter(info));
  }
}

// Engines with their run lists, and the HW queues with their contexts and logs.
void SetUpQueues(core::store::TraceSink& w, const Scenario& s, bool native_mode,
                 core::model::ProcessId process, const WrittenTopology* given, Topology& ids,
                 GpuQueues& gpu, PreemptionState& preemption, LogBuffers& logs) {
  std::vector<uint32_t> ordinals(s.adapters.size(), 0);
  for (size_t i = 0; i < s.engines.size(); ++i) {
    const EngineSpec& e = s.engines[i];
    EngineState en;
    en.adapter = e.adapter;
    en.id = given ? given->engines[i]
                  : w.AddEngine({ids.adapter_ids[e.adapter], e.type, ordinals[e.adapter]++, e.name});
    gpu.engines.push_back(en);
    preemption.engines.emplace_back();
  }
  for (size_t i = 0; i < s.queues.size(); ++i) {
    const QueueSpec& q = s.queues[i];
    HwQueue hq;
    hq.engine = q.engine;
    hq.adapter = s.engines[q.engine].adapter;
    hq.priority = q.priority;
    hq.launch_latency_ns = q.launch_latency_ns;
    hq.resume_ns = q.resume_ns;
    if (given) {
      hq.id = given->queues[i];
      hq.context = given->contexts[i];
    } else {
      hq.id = w.AddQueue({gpu.engines[q.engine].id, ids.adapter_ids[hq.adapter], q.type,
                          q.priority, process, q.name, static_cast<int32_t>(i)});
      hq.context = w.AddContext({process, hq.id, static_cast<int64_t>(i + 1), q.name});
    }
    const AdapterSpec& a = s.adapters[hq.adapter];
    // seed 003: Dxgkrnl gives each user-mode HWQueue a wait log and a signal log (native fences).
    QueueLogs queue_logs;
    queue_logs.enabled = a.native_fences && native_mode && a.write_logs;
    for (LogBuffer& log : queue_logs.logs) ResizeLog(log, a.log_bytes);
    logs.queues.push_back(queue_logs);
    gpu.engines[q.engine].queues.push_back(static_cast<uint32_t>(i));
    ids.adapter_queues[hq.adapter].push_back(static_cast<uint32_t>(i));
    gpu.queues.push_back(std::move(hq));
  }
}

void SetUpFences(core::store::TraceSink& w, const Scenario& s, bool native_mode,
                 const WrittenTopology* given, Topology& ids, FenceTable& fences,
                 CpuWaiterList& waiters) {
  for (size_t i = 0; i < s.fences.size(); ++i) {
    const FenceSpec& spec = s.fences[i];
    FenceState f;
    f.owner = spec.adapter;
    f.cross_adapter = spec.kind == FenceKind::kCrossAdapter;
    f.adapters.push_back(spec.adapter);
    for (uint32_t a : spec.opened_on) f.adapters.push_back(a);
    f.native_on.assign(s.adapters.size(), false);
    uint32_t mask = 0;
    for (uint32_t a : f.adapters) {
      // seed 003: a fence is native only where the adapter supports it; elsewhere it is opened as
      // a regular monitored fence.
      f.native_on[a] = native_mode && s.adapters[a].native_fences &&
                       spec.kind != FenceKind::kMonitored;
      mask |= 1u << a;
      ids.adapter_fences[a].push_back(static_cast<uint32_t>(i));
    }
    f.tracks_monitored = f.native_on[f.owner] && !f.cross_adapter;
    f.monitored = f.cross_adapter ? 0 : kNoWaiterMonitoredValue;
    f.current = spec.initial_value;
    core::model::Fence info;
    info.name = spec.name;
    info.kind = f.cross_adapter ? FenceKind::kCrossAdapter
                                : (f.native_on[f.owner] ? FenceKind::kNative : FenceKind::kMonitored);
    info.shared = f.cross_adapter;
    info.owner_adapter = ids.adapter_ids[f.owner];
    info.adapter_mask = mask;
    info.initial_value = spec.initial_value;
    info.handle = static_cast<int64_t>(i + 1);
    f.id = given ? given->fences[i] : w.AddFence(info);
    fences.fences.push_back(std::move(f));
    waiters.per_fence.emplace_back();
  }
}

void SetUpThreads(core::store::TraceSink& w, const Scenario& s, core::model::ProcessId process,
                  const WrittenTopology* given, CpuThreads& cpu) {
  // Each step name is interned once, where a step first uses it (the order the trace's strings
  // are numbered in).
  constexpr core::model::StringId kNotYet = ~core::model::StringId{0};
  cpu.name_sids.assign(s.step_names.size(), kNotYet);
  for (size_t i = 0; i < s.threads.size(); ++i) {
    const ThreadSpec& t = s.threads[i];
    CpuThread ct;
    ct.spec = &t;
    ct.id = given ? given->threads[i]
                  : w.AddThread({process, static_cast<int64_t>(2000 + i),
                                 core::model::ThreadKind::kApplication, t.name,
                                 static_cast<int32_t>(i)});
    cpu.threads.push_back(ct);
    if (t.program == ProgramKind::kAsyncComputeGraphics) {
      cpu.pipeline_name_sids = {w.Intern("ComputeDispatch"), w.Intern("GraphicsFrame")};
    } else {
      for (const Step& step : t.steps) {
        core::model::StringId& sid = cpu.name_sids[step.name];
        if (sid == kNotYet) sid = w.Intern(s.step_names[step.name]);
      }
    }
  }
}

// The scenario's topology in the trace and in the parts' state, in the order the trace lists it.
void SetUpTopology(Sim& sim, const Scenario& s, const WrittenTopology* given) {
  core::store::TraceSink& w = *sim.run.writer;
  const bool native_mode = sim.run.fence_mode == FenceMode::kNative;
  const auto process = given ? given->process : w.AddProcess({1000, s.process_name});
  SetUpAdapters(w, s, native_mode, sim.preemption, given, sim.ids);
  SetUpQueues(w, s, native_mode, process, given, sim.ids, sim.gpu, sim.preemption, sim.logs);
  SetUpFences(w, s, native_mode, given, sim.ids, sim.fences, sim.waiters);
  if (given) {
    sim.ids.resource_ids = given->resources;
  } else {
    for (const ResourceSpec& r : s.resources) {
      sim.ids.resource_ids.push_back(w.AddResource({r.name, r.size_bytes}));
    }
  }
  SetUpThreads(w, s, process, given, sim.cpu);
}

// Each thread runs its steps for the durations given instead of their own.
void UseStepDurations(const Scenario& s, const StepDurations& durations, CpuThreads& cpu) {
  if (durations.size() != s.threads.size()) {
    throw core::Error(s.source + ": step durations for " + std::to_string(durations.size()) +
                      " threads, the scenario has " + std::to_string(s.threads.size()));
  }
  for (size_t i = 0; i < s.threads.size(); ++i) {
    if (durations[i].size() != s.threads[i].steps.size()) {
      throw core::Error(s.source + ": thread '" + s.threads[i].name +
                        "': " + std::to_string(durations[i].size()) + " step durations for " +
                        std::to_string(s.threads[i].steps.size()) + " steps");
    }
    cpu.threads[i].durations = durations[i].data();
  }
}

// MonitoredValue as it starts: UINT64_MAX (no CPU waiter), or 0 on each adapter for a
// cross-adapter fence (seed 003: pinned to 0 for its lifetime).
void RecordInitialMonitoredValues(SimRun& run, const Topology& ids, const FenceTable& fences) {
  for (const FenceState& f : fences.fences) {
    if (!f.tracks_monitored && !f.cross_adapter) continue;
    for (uint32_t a : f.adapters) {
      if (!f.native_on[a]) continue;
      run.Emit(events::MonitoredValueUpdated{.ts_ns = 0,
                                             .fence_id = f.id,
                                             .monitored_value = f.monitored,
                                             .adapter_id = ids.adapter_ids[a]});
      if (!f.cross_adapter) break;
    }
  }
}

bool AnythingPending(const GpuQueues& gpu, const CpuThreads& cpu) {
  for (const HwQueue& q : gpu.queues) {
    if (!q.commands.empty()) return true;
  }
  for (const CpuThread& t : cpu.threads) {
    if (t.blocked) return true;
  }
  return false;
}

// seed 003 / issue: a wait nobody satisfied is recorded as pending when the trace ends.
void RecordPendingWaits(SimRun& run, const GpuQueues& gpu, const FenceTable& table,
                        const CpuWaiterList& waiters, const CpuThreads& cpu) {
  const std::vector<FenceState>& fences = table.fences;
  for (const HwQueue& q : gpu.queues) {
    for (const GpuCommand& c : q.commands) {
      if (c.kind != GpuCommand::Kind::kWait) continue;
      const FenceState& f = fences[c.fence.fence];
      run.Emit(events::WaitPendingAtEnd{.ts_ns = run.now,
                                        .queue_id = q.id,
                                        .fence_id = f.id,
                                        .fence_value = c.fence.value,
                                        .wait_id = c.op,
                                        .current_value = f.current});
    }
  }
  for (size_t fence = 0; fence < fences.size(); ++fence) {
    const FenceState& f = fences[fence];
    for (const CpuWaiter& w : waiters.per_fence[fence]) {
      run.Emit(events::WaitPendingAtEnd{.ts_ns = run.now,
                                        .thread_id = cpu.threads[w.thread].id,
                                        .fence_id = f.id,
                                        .fence_value = w.value,
                                        .wait_id = w.waiter_id,
                                        .current_value = f.current});
    }
  }
}

// Dispatches one simulation event to the part it belongs to, with the parts it reaches.
void HandleEvent(Sim& sim, const SimEvent& ev) {
  SimRun& run = sim.run;
  switch (ev.type) {
    case SimEventType::kThreadStep: RunThread(sim.Thread(), ev.a); break;
    case SimEventType::kPacketDone: OnPacketDone(sim.Gpu(), ev.a, ev.b); break;
    case SimEventType::kQueueWake: OnQueueWake(sim.Gpu(), ev.a); break;
    case SimEventType::kInterrupt: HandleInterrupt(sim.Gpu(), sim.CpuWait(), ev.b); break;
    case SimEventType::kWaitRelease: OnWaitRelease(sim.Gpu(), ev.b); break;
    case SimEventType::kTaskDone: OnTaskDone(sim.Background(), ev.a, ev.b); break;
    case SimEventType::kPreemption:
      OnPreemptionEvent(sim.Engine(), ev.a, static_cast<int64_t>(ev.b));
      break;
    case SimEventType::kTdrTimeout:
      OnTdrTimeout(sim.Engine(), sim.fences, ev.a, static_cast<int64_t>(ev.b));
      break;
    case SimEventType::kLogRead: {
      ReadAdapterLogs(run, sim.ids, sim.gpu, sim.logs, ev.a);
      // Keep reading while anything else can still happen.
      if (run.events.Size() > run.events.Count(SimEventType::kLogRead)) {
        run.events.Push(run.now + run.scenario->adapters[ev.a].os_log_read_ns,
                        SimEventType::kLogRead, ev.a);
      }
      break;
    }
  }
}

}  // namespace

SimSummary RunSimulation(const Scenario& scenario, core::store::TraceSink& writer,
                         const SimOptions& options) {
  Sim sim;
  SimRun& run = sim.run;
  run.scenario = &scenario;
  run.writer = &writer;
  const uint64_t seed = options.seed.value_or(scenario.seed);
  run.random = SimRandom(seed);
  run.fence_mode = options.fence_mode.value_or(scenario.fence_mode);
  run.end_limit = options.duration_ns.value_or(scenario.duration_ns);
  run.origin = options.clock_origin;

  if (options.write_meta) {
    writer.SetMeta("clock", "sim-gpu-ns");
    writer.SetMeta("scenario", scenario.name);
    writer.SetMeta("scenario_source", scenario.source);
    writer.SetMeta("seed", std::to_string(seed));
    writer.SetMeta("fence_mode", std::string(FenceModeName(run.fence_mode)));
    writer.SetMeta("time_limit_ns", std::to_string(run.end_limit));
    // The run's clock starts at 0, whatever is recorded first (a monitored-mode run records
    // nothing until its first thread starts): every run of a scenario shares this origin, so
    // their queue time splits cover the same span and compare like with like.
    writer.SetMeta("start_ns", "0");
  }

  sim.preemption.adapters = ResolvePreemption(scenario, options);
  SetUpTopology(sim, scenario, options.topology);
  if (options.step_durations) UseStepDurations(scenario, *options.step_durations, sim.cpu);
  SetUpBackground(run, sim.bg, sim.cpu.threads.size());
  RecordInitialMonitoredValues(run, sim.ids, sim.fences);
  for (uint32_t t = 0; t < sim.cpu.threads.size(); ++t) {
    const ThreadSpec& spec = *sim.cpu.threads[t].spec;
    if (spec.start_after >= 0) continue;  // started by FinishThread
    run.events.Push(spec.start_ns, SimEventType::kThreadStep, t);
  }
  for (uint32_t a = 0; a < scenario.adapters.size(); ++a) {
    const DurationNs period = scenario.adapters[a].os_log_read_ns;
    if (period > 0) run.events.Push(period, SimEventType::kLogRead, a);
  }

  uint64_t handled = 0;
  uint64_t at_this_instant = 0;
  bool hit_limit = false;
  while (!run.events.Empty()) {
    if (run.events.Top().t > run.end_limit) {
      hit_limit = true;
      break;
    }
    const SimEvent ev = run.events.Pop();
    // A program whose events keep coming at one instant would never end the run.
    at_this_instant = ev.t == run.now ? at_this_instant + 1 : 0;
    if (at_this_instant > kMaxEventsAtOneInstant) {
      throw core::Error(scenario.source + ": the simulation makes no progress at " +
                        std::to_string(ev.t) + " ns (events keep coming at one instant)");
    }
    run.now = ev.t;
    HandleEvent(sim, ev);
    if (!sim.gpu.queues_to_advance.empty()) AdvanceUnblockedQueues(sim.Gpu());
    if ((++handled & 0xFFFF) == 0 && options.progress) {
      options.progress(static_cast<double>(run.now) / static_cast<double>(run.end_limit));
    }
  }
  // A run whose remaining waits can never be satisfied lasts until its time limit.
  if (hit_limit || AnythingPending(sim.gpu, sim.cpu)) run.now = run.end_limit;
  for (uint32_t a = 0; a < scenario.adapters.size(); ++a) {
    ReadAdapterLogs(run, sim.ids, sim.gpu, sim.logs, a);
  }
  RecordPendingWaits(run, sim.gpu, sim.fences, sim.waiters, sim.cpu);
  if (options.progress) options.progress(1.0);

  SimSummary summary;
  summary.events = writer.events_written();
  summary.end_ns = run.now;
  summary.seed = seed;
  summary.fence_mode = run.fence_mode;
  return summary;
}

}  // namespace core::sim
