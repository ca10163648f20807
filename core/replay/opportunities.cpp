#include "core/replay/opportunities.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>

#include "core/replay/replay_outcome.h"
#include "core/replay/replayed_trace.h"
#include "core/replay/whatif_edits.h"

namespace core::replay {

namespace {

struct Candidate {
  Opportunity opportunity;
  Edits edits;
};

// A candidate before its replay: what it changes and why it was chosen.
Opportunity Proposed(std::string kind, std::string name, DurationNs why_ns) {
  Opportunity o;
  o.kind = std::move(kind);
  o.name = std::move(name);
  o.why_ns = why_ns;
  return o;
}

std::string FenceLabel(const core::store::TraceStore& store, core::model::FenceId fence,
                       uint64_t value) {
  const core::model::Fence* f = store.FindFence(fence);
  return fmt::format("{} >= {}", f ? f->name : "fence " + std::to_string(fence), value);
}

// Whether the program holds CPU time of the host between its calls (what --cpu-scale scales):
// none in a trace of GPU work alone, whose every launch is a stand-in's, nor where each thread
// makes its calls at one instant.
bool HasHostCpuTime(const DerivedProgram& program) {
  for (const std::vector<StepSource>& sources : program.sources) {
    for (const StepSource& source : sources) {
      if (source.origin == StepOrigin::kCpuWork) return true;
    }
  }
  return false;
}

std::vector<Candidate> Candidates(const core::store::TraceStore& store,
                                  const analysis::Reconstruction& recon,
                                  const analysis::CriticalPath& path,
                                  const std::vector<analysis::HeldWait>& longest, bool host) {
  std::vector<Candidate> out;
  // The packet names with the most critical-path time.
  std::map<std::string, DurationNs> on_path;
  for (const analysis::PathStep& step : path.steps) {
    if (step.kind != analysis::PathStepKind::kRun || step.packet == analysis::kNoIndex) continue;
    on_path[store.String(recon.packets.Get<&analysis::Packet::name>(step.packet))] +=
        step.end - step.start;
  }
  std::vector<std::pair<std::string, DurationNs>> names(on_path.begin(), on_path.end());
  std::sort(names.begin(), names.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  // Summed by string id first (a string and a map lookup per packet was a fiftieth of the
  // opportunities), then by name: two ids may hold one text.
  std::unordered_map<core::model::StringId, DurationNs> busy_by_id;
  const auto& packets = recon.packets;
  for (size_t i = 0; i < packets.size(); ++i) {
    const TimeNs start = packets.Get<&analysis::Packet::start>(i);
    const TimeNs end = packets.Get<&analysis::Packet::end>(i);
    if (start != analysis::kUnknownTime && end != analysis::kUnknownTime) {
      busy_by_id[packets.Get<&analysis::Packet::name>(i)] += end - start;
    }
  }
  std::map<std::string, DurationNs> busy;
  for (const auto& [id, ns] : busy_by_id) busy[store.String(id)] += ns;
  std::vector<std::pair<std::string, DurationNs>> busiest(busy.begin(), busy.end());
  auto by_time = [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  };
  std::sort(busiest.begin(), busiest.end(), by_time);
  std::vector<std::string> chosen;
  for (size_t i = 0; i < names.size() && i < kOpportunityPacketNames; ++i) {
    chosen.push_back(names[i].first);
  }
  for (size_t i = 0, added = 0; i < busiest.size() && added < kOpportunityBusiestNames; ++i) {
    if (std::find(chosen.begin(), chosen.end(), busiest[i].first) != chosen.end()) continue;
    chosen.push_back(busiest[i].first);
    ++added;
  }
  for (const std::string& name : chosen) {
    Candidate c;
    c.edits.scale.push_back({name, 0.5});
    c.opportunity = Proposed("faster_packets", name, on_path.count(name) ? on_path[name] : 0);
    c.opportunity.busy_ns = busy[name];
    out.push_back(std::move(c));
  }
  // The waits that held a queue or thread longest.
  for (size_t i = 0; i < longest.size() && i < kOpportunityWaits; ++i) {
    const analysis::HeldWait& w = longest[i];
    Candidate c;
    if (w.cpu) {
      const analysis::CpuWait box = recon.cpu_waits[w.index];
      c.edits.remove_cpu_wait.push_back(box.waiter_id);
      const core::model::Thread* t = store.FindThread(box.thread);
      c.opportunity = Proposed("cpu_wait_removed",
                               fmt::format("{} waits for {}", t ? t->name : "a thread",
                                           FenceLabel(store, box.fence, box.value)),
                               w.Held());
    } else {
      const analysis::WaitBox box = recon.waits[w.index];
      c.edits.remove_wait.push_back(box.wait_id);
      const core::model::Queue* q = store.FindQueue(box.queue);
      c.opportunity = Proposed("gpu_wait_removed",
                               fmt::format("{} waits for {}", q ? q->name : "a queue",
                                           FenceLabel(store, box.fence, box.value)),
                               w.Held());
    }
    out.push_back(std::move(c));
  }
  if (host) {
    Candidate faster_host;
    faster_host.edits.cpu_scale = 0.5;
    faster_host.opportunity = Proposed("faster_host", "host", 0);
    out.push_back(std::move(faster_host));
  }
  for (Candidate& c : out) {
    c.opportunity.edit = c.edits.Describe();
    c.opportunity.edits = c.edits;
  }
  return out;
}

}  // namespace

Opportunities FindOpportunities(const core::store::TraceStore& store,
                                const analysis::Reconstruction& recon,
                                const analysis::CriticalPath& path,
                                const std::vector<analysis::HeldWait>& longest,
                                const std::function<void(double)>& progress) {
  Opportunities out;
  if (recon.packets.size() == 0) return out;
  const DerivedProgram program = DeriveProgram(store, recon);
  std::vector<Candidate> candidates =
      Candidates(store, recon, path, longest, HasHostCpuTime(program));
  // The unedited replay and each candidate's: one step each of the progress.
  const double steps = static_cast<double>(candidates.size() + 1);
  std::mutex progress_lock;
  size_t done = 0;
  auto step_done = [&] {
    if (!progress) return;
    std::lock_guard<std::mutex> lock(progress_lock);
    progress(static_cast<double>(++done) / steps);
  };
  const TracePacketSlots slots(recon);

  // The unedited replay (with the fidelity figures) and the candidates, as many at once as there
  // are cores; the unedited replay first, on one of them, beside the first candidates. Each
  // candidate's gain is against the unedited replay's span and steps, worked out when all are
  // done.
  std::vector<ReplayOutcome> outcomes(candidates.size());
  auto replay_unedited = [&] {
    if (std::optional<MeasuredReplay> m = MeasureUneditedReplay(store, recon, slots, program)) {
      out.fidelity = m->fidelity;
      return std::move(m->outcome.steps);
    }
    const ReplayedTrace unedited = ReplayInMemory(store, program, "");
    out.fidelity = MeasureFidelity(store, recon, unedited.store, unedited.recon, program);
    return StepLengths(unedited.store, unedited.recon);
  };
  std::map<int64_t, DurationNs> replay_steps;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};  // a replay failed or the progress cancelled: start no other
  std::mutex failed_lock;
  std::exception_ptr failed;
  auto work = [&] {
    // A candidate that changes run times alone replays the shared program with its durations
    // (no copy of the program at all). Any other is edited on the worker's one copy of the
    // program and undone after its replay (copying the whole program per candidate cost a
    // fifth of a candidate's time).
    core::sim::StepDurations durations;
    std::optional<DerivedProgram> edited;
    auto measure = [&](const Candidate& c) {
      const std::string& edit = c.opportunity.edit;
      // Measured from what the replay wrote, without building the replayed trace; in full
      // where packet ids alone do not say which packet is which.
      const bool durations_alone = EditedDurations(c.edits, program, durations);
      if (durations_alone) {
        if (auto outcome = MeasureReplay(store, recon, slots, program, edit, &durations)) {
          return std::move(*outcome);
        }
      }
      if (!edited) edited = program;
      ApplyEdits(c.edits, store, recon, *edited);
      std::optional<ReplayOutcome> outcome;
      if (!durations_alone) outcome = MeasureReplay(store, recon, slots, *edited, edit);
      if (!outcome) {
        const ReplayedTrace replayed = ReplayInMemory(store, *edited, edit);
        outcome = ReplayOutcome{SpanOfTraceWork(recon, replayed.recon),
                                StepLengths(replayed.store, replayed.recon)};
      }
      UndoEdits(c.edits, program, *edited);
      return std::move(*outcome);
    };
    for (size_t task; !stop && (task = next++) <= candidates.size();) {
      try {
        if (task == 0) {
          replay_steps = replay_unedited();
        } else {
          outcomes[task - 1] = measure(candidates[task - 1]);
        }
        step_done();
      } catch (...) {
        stop = true;
        std::lock_guard<std::mutex> lock(failed_lock);
        if (!failed) failed = std::current_exception();
      }
    }
  };
  const unsigned cores = std::max(
      1u, std::min<unsigned>(std::thread::hardware_concurrency(),
                             static_cast<unsigned>(candidates.size() + 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < cores; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (failed) std::rethrow_exception(failed);

  const double replay_span = static_cast<double>(out.fidelity.replay_span_ns);
  for (size_t i = 0; i < candidates.size(); ++i) {
    Opportunity& o = candidates[i].opportunity;
    o.predicted_span_ns = std::max<DurationNs>(0, outcomes[i].span_of_trace_work);
    o.gain_pct = GainPct(replay_span, static_cast<double>(o.predicted_span_ns));
    o.step_gain_pct = StepGainPct(replay_steps, outcomes[i].steps);
    out.list.push_back(std::move(o));
  }
  std::stable_sort(out.list.begin(), out.list.end(),
                   [](const Opportunity& a, const Opportunity& b) { return a.gain_pct > b.gain_pct; });
  out.computed = true;
  return out;
}

}  // namespace core::replay
