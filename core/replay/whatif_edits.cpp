#include "core/replay/whatif_edits.h"

#include <fmt/format.h>
#include <fnmatch.h>

#include <cmath>
#include <unordered_set>

#include "core/model/error.h"
#include "core/model/event_types.h"
#include "core/replay/api_call_name.h"
#include "core/sim/preemption.h"
#include "core/sim/simulator.h"

namespace core::replay {

using analysis::kNoIndex;
using core::sim::StepOp;

bool Edits::Empty() const {
  return scale.empty() && scale_queue.empty() && remove_wait.empty() && remove_waits.empty() &&
         remove_sync.empty() && remove_cpu_waits.empty() && remove_cpu_wait.empty() &&
         !cpu_scale && !launch_latency_ns && priority.empty() && fence_mode.empty() &&
         preemption_granularity.empty();
}

std::string Edits::Describe() const {
  std::string out;
  auto add = [&out](const std::string& text) {
    if (!out.empty()) out += ' ';
    out += text;
  };
  for (const auto& [p, f] : scale) add(fmt::format("--scale '{}={}'", p, f));
  for (const auto& [q, f] : scale_queue) add(fmt::format("--scale-queue '{}={}'", q, f));
  for (int64_t w : remove_wait) add(fmt::format("--remove-wait {}", w));
  for (const auto& [a, b] : remove_waits) add(fmt::format("--remove-waits '{}<-{}'", a, b));
  for (const auto& call : remove_sync) add(fmt::format("--remove-sync '{}'", call));
  for (const auto& t : remove_cpu_waits) add(fmt::format("--remove-cpu-waits '{}'", t));
  for (int64_t w : remove_cpu_wait) add(fmt::format("--remove-cpu-wait {}", w));
  if (cpu_scale) add(fmt::format("--cpu-scale {}", *cpu_scale));
  if (launch_latency_ns) add(fmt::format("--launch-latency {}", *launch_latency_ns));
  for (const auto& [q, p] : priority) add(fmt::format("--priority '{}={}'", q, p));
  if (!fence_mode.empty()) add("--fence-mode " + fence_mode);
  if (!preemption_granularity.empty()) add("--preemption-granularity " + preemption_granularity);
  return out;
}

namespace {

void CheckFactor(double factor, const std::string& what) {
  if (!std::isfinite(factor) || factor < 0) {
    throw core::Error(fmt::format("whatif: {}: the factor must be a finite number >= 0", what));
  }
}

DurationNs Scaled(DurationNs ns, double factor) {
  return static_cast<DurationNs>(std::llround(static_cast<double>(ns) * factor));
}

// The scenario queue of a trace queue name; throws when the trace has none.
uint32_t QueueIndexNamed(const DerivedProgram& program, const std::string& name) {
  for (uint32_t i = 0; i < program.scenario.queues.size(); ++i) {
    if (program.scenario.queues[i].name == name) return i;
  }
  throw core::Error(fmt::format("whatif: the trace has no queue named '{}'", name));
}

// What --scale and --scale-queue make of a packet step's run time: the factor it is scaled by.
class PacketFactors {
 public:
  PacketFactors(const Edits& edits, const DerivedProgram& program) {
    for (const auto& [name, factor] : edits.scale_queue) {
      CheckFactor(factor, "--scale-queue " + name);
      m_queues.push_back({QueueIndexNamed(program, name), factor});
    }
    for (const auto& [pattern, factor] : edits.scale) CheckFactor(factor, "--scale " + pattern);
    // The factor of each step name, matched once per name rather than once per packet.
    const std::vector<std::string>& names = program.scenario.step_names;
    m_by_name.assign(names.size(), 1.0);
    for (size_t i = 0; i < names.size(); ++i) {
      for (const auto& [pattern, f] : edits.scale) {
        // A name is also itself (a kernel name may hold '[' or '*').
        if (pattern == names[i] || fnmatch(pattern.c_str(), names[i].c_str(), 0) == 0) {
          m_by_name[i] *= f;
        }
      }
    }
  }
  double Of(const core::sim::Step& step) const {
    double factor = step.name < m_by_name.size() ? m_by_name[step.name] : 1.0;
    for (const auto& [queue, f] : m_queues) {
      if (step.queue == queue) factor *= f;
    }
    return factor;
  }

 private:
  std::vector<double> m_by_name;                      // [StepName]
  std::vector<std::pair<uint32_t, double>> m_queues;  // (scenario queue, factor)
};

class Editor {
 public:
  Editor(const core::store::TraceStore& store, const analysis::Reconstruction& recon,
         DerivedProgram& program)
      : m_store(store), m_recon(recon), m_program(program) {}

  void ScalePackets(const Edits& edits, EditCounts& n) {
    const PacketFactors factors(edits, m_program);
    ForEachStep([&](core::sim::Step& step, const StepSource& source) {
      if (source.origin != StepOrigin::kPacket) return false;
      const double factor = factors.Of(step);
      if (factor != 1) {
        step.duration_ns = Scaled(step.duration_ns, factor);
        ++n.packets_scaled;
      }
      return false;
    });
  }

  void RemoveGpuWaits(const Edits& edits, EditCounts& n) {
    std::unordered_set<int64_t> ids(edits.remove_wait.begin(), edits.remove_wait.end());
    std::vector<std::pair<uint32_t, uint32_t>> pairs;  // (waiting, signalling) scenario queues
    for (const auto& [waiting, signalling] : edits.remove_waits) {
      pairs.push_back(
          {QueueIndexNamed(m_program, waiting), QueueIndexNamed(m_program, signalling)});
    }
    if (ids.empty() && pairs.empty()) return;
    ForEachStep([&](core::sim::Step&, const StepSource& source) {
      if (source.origin != StepOrigin::kGpuWait && source.origin != StepOrigin::kFixedGpuDelay) {
        return false;
      }
      const analysis::WaitBox w = m_recon.waits[source.index];
      bool remove = ids.count(w.wait_id) != 0;
      if (!remove && w.signal != kNoIndex) {
        const core::model::QueueId from = m_recon.signals.Get<&analysis::SignalBox::queue>(w.signal);
        for (const auto& [waiting, signalling] : pairs) {
          if (m_program.queue_ids[waiting] == w.queue && m_program.queue_ids[signalling] == from) {
            remove = true;
          }
        }
      }
      if (remove) ++n.gpu_waits_removed;
      return remove;
    });
  }

  void RemoveCpuWaits(const Edits& edits, EditCounts& n) {
    std::unordered_set<core::model::ThreadId> threads;
    for (const std::string& name : edits.remove_cpu_waits) {
      bool found = false;
      for (const core::model::Thread& t : m_store.threads) {
        if (t.name == name) threads.insert(t.id), found = true;
      }
      if (!found) throw core::Error(fmt::format("whatif: the trace has no thread named '{}'", name));
    }
    // The CPU slices of the calls named: a CPU wait that began inside one was made by it.
    struct Slice {
      core::model::ThreadId thread;
      TimeNs begin, end;
    };
    std::vector<Slice> calls;
    if (!edits.remove_sync.empty()) {
      namespace events = core::model::events;
      m_store.events.kind.ForEachEqual(core::model::EventKind::CpuSlice, [&](size_t e) {
        const auto slice = events::CpuSlice::At(m_store.events, e);
        const std::string& name = m_store.String(slice.name_sid);
        for (const std::string& call : edits.remove_sync) {
          if (name == call || ApiCallName(name) == call) {
            calls.push_back({slice.thread_id, slice.ts_ns, slice.ts_ns + slice.duration_ns});
          }
        }
      });
    }
    const std::unordered_set<int64_t> waiters(edits.remove_cpu_wait.begin(),
                                              edits.remove_cpu_wait.end());
    if (threads.empty() && calls.empty() && waiters.empty()) return;
    ForEachStep([&](core::sim::Step&, const StepSource& source) {
      if (source.origin != StepOrigin::kCpuWait && source.origin != StepOrigin::kFixedCpuDelay) {
        return false;
      }
      const analysis::CpuWait w = m_recon.cpu_waits[source.index];
      bool remove = threads.count(w.thread) != 0 || waiters.count(w.waiter_id) != 0;
      for (const Slice& c : calls) {
        if (c.thread == w.thread && w.begin >= c.begin && w.begin <= c.end) remove = true;
      }
      if (remove) ++n.cpu_waits_removed;
      return remove;
    });
  }

  void ScaleCpu(double factor, EditCounts& n) {
    CheckFactor(factor, "--cpu-scale");
    ForEachStep([&](core::sim::Step& step, const StepSource& source) {
      if (source.origin == StepOrigin::kCpuWork) {
        step.duration_ns = Scaled(step.duration_ns, factor);
        ++n.cpu_gaps_scaled;
      }
      return false;
    });
  }

  // Calls f(step, source) for every step of every thread; erases the steps it returns true for.
  template <class F>
  void ForEachStep(F&& f) {
    for (size_t t = 0; t < m_program.scenario.threads.size(); ++t) {
      auto& steps = m_program.scenario.threads[t].steps;
      auto& sources = m_program.sources[t];
      size_t kept = 0;
      for (size_t i = 0; i < steps.size(); ++i) {
        if (f(steps[i], sources[i])) continue;
        if (kept != i) {
          steps[kept] = std::move(steps[i]);
          sources[kept] = sources[i];
        }
        ++kept;
      }
      steps.resize(kept);
      sources.resize(kept);
    }
  }

 private:
  const core::store::TraceStore& m_store;
  const analysis::Reconstruction& m_recon;
  DerivedProgram& m_program;
};

}  // namespace

EditCounts ApplyEdits(const Edits& edits, const core::store::TraceStore& store,
                      const analysis::Reconstruction& recon, DerivedProgram& program) {
  EditCounts n;
  Editor editor(store, recon, program);
  editor.ScalePackets(edits, n);
  editor.RemoveGpuWaits(edits, n);
  editor.RemoveCpuWaits(edits, n);
  if (edits.cpu_scale) editor.ScaleCpu(*edits.cpu_scale, n);
  if (edits.launch_latency_ns) {
    if (*edits.launch_latency_ns < 0) throw core::Error("whatif: --launch-latency must be >= 0");
    for (core::sim::QueueSpec& q : program.scenario.queues) {
      q.launch_latency_ns = *edits.launch_latency_ns;
      ++n.queues_changed;
    }
  }
  for (const auto& [name, priority] : edits.priority) {
    program.scenario.queues[QueueIndexNamed(program, name)].priority = priority;
    ++n.queues_changed;
  }
  // seed 003: a fence is native only where its adapter supports native fences; monitored mode
  // runs every fence (but cross-adapter ones) as a legacy monitored fence.
  if (edits.fence_mode == "monitored") {
    for (core::sim::FenceSpec& f : program.scenario.fences) {
      if (f.kind != core::model::FenceKind::kCrossAdapter) f.kind = core::model::FenceKind::kMonitored;
    }
  } else if (edits.fence_mode == "native") {
    for (core::sim::AdapterSpec& a : program.scenario.adapters) a.native_fences = true;
    for (core::sim::FenceSpec& f : program.scenario.fences) {
      if (f.kind == core::model::FenceKind::kMonitored) f.kind = core::model::FenceKind::kNative;
    }
  } else if (!edits.fence_mode.empty()) {
    throw core::Error("whatif: --fence-mode is native or monitored, not '" + edits.fence_mode + "'");
  }
  if (!edits.preemption_granularity.empty()) {
    core::sim::SimOptions granularity;
    if (!core::sim::ApplyGranularityOverride(edits.preemption_granularity, granularity)) {
      throw core::Error("whatif: --preemption-granularity: unknown granularity '" +
                        edits.preemption_granularity + "'");
    }
    for (core::sim::AdapterSpec& a : program.scenario.adapters) {
      if (granularity.preemption_graphics) a.preemption.graphics = *granularity.preemption_graphics;
      if (granularity.preemption_compute) a.preemption.compute = *granularity.preemption_compute;
    }
  }
  return n;
}

bool ChangesDurationsAlone(const Edits& edits) {
  // What ScalePackets and ScaleCpu change: step durations alone, no step added or removed.
  // Whether anything else is asked is Empty() of the rest, so that an edit added later counts
  // as changing more until it says otherwise here.
  Edits rest = edits;
  rest.scale.clear();
  rest.scale_queue.clear();
  rest.cpu_scale.reset();
  return rest.Empty();
}

bool EditedDurations(const Edits& edits, const DerivedProgram& program,
                     core::sim::StepDurations& durations) {
  if (!ChangesDurationsAlone(edits)) return false;
  const PacketFactors factors(edits, program);
  if (edits.cpu_scale) CheckFactor(*edits.cpu_scale, "--cpu-scale");
  const auto& threads = program.scenario.threads;
  durations.resize(threads.size());
  for (size_t t = 0; t < threads.size(); ++t) {
    const std::vector<core::sim::Step>& steps = threads[t].steps;
    const std::vector<StepSource>& sources = program.sources[t];
    std::vector<DurationNs>& out = durations[t];
    out.resize(steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
      DurationNs ns = steps[i].duration_ns;
      // As ApplyEdits: packets by ScalePackets' factor, the CPU time between calls by ScaleCpu's.
      if (sources[i].origin == StepOrigin::kPacket) {
        if (const double factor = factors.Of(steps[i]); factor != 1) ns = Scaled(ns, factor);
      } else if (sources[i].origin == StepOrigin::kCpuWork && edits.cpu_scale) {
        ns = Scaled(ns, *edits.cpu_scale);
      }
      out[i] = ns;
    }
  }
  return true;
}

void UndoEdits(const Edits& edits, const DerivedProgram& original, DerivedProgram& edited) {
  const bool durations_only = ChangesDurationsAlone(edits);
  auto& threads = edited.scenario.threads;
  const auto& originals = original.scenario.threads;
  bool same_shape = durations_only && threads.size() == originals.size();
  for (size_t t = 0; same_shape && t < threads.size(); ++t) {
    same_shape = threads[t].steps.size() == originals[t].steps.size();
  }
  if (!same_shape) {
    edited = original;
    return;
  }
  for (size_t t = 0; t < threads.size(); ++t) {
    auto& steps = threads[t].steps;
    const auto& from = originals[t].steps;
    for (size_t i = 0; i < steps.size(); ++i) steps[i].duration_ns = from[i].duration_ns;
  }
}

}  // namespace core::replay
