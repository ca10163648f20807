#include "core/replay/whatif.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "core/analysis/critical_path.h"
#include "core/model/topology.h"
#include "core/replay/replay_outcome.h"
#include "core/replay/replayed_trace.h"
#include "core/report/svg_chart.h"

namespace core::replay {

namespace {

std::vector<PathContributor> PathContributors(const core::store::TraceStore& store,
                                              const analysis::Reconstruction& recon) {
  const analysis::CriticalPath path = analysis::ComputeCriticalPath(recon);
  std::vector<analysis::PathShare> shares = path.shares;
  std::sort(shares.begin(), shares.end(),
            [](const analysis::PathShare& a, const analysis::PathShare& b) { return a.ns > b.ns; });
  std::vector<PathContributor> out;
  for (size_t i = 0; i < shares.size() && i < kPathContributors; ++i) {
    const analysis::PathShare& s = shares[i];
    std::string track;
    if (const core::model::Queue* q = s.queue ? store.FindQueue(s.queue) : nullptr) {
      track = q->name;
    } else if (const core::model::Thread* t = store.FindThread(s.thread)) {
      track = core::model::ThreadTrackName(t->name);
    }
    out.push_back({track, s.ns, s.share, s.running_ns});
  }
  return out;
}

}  // namespace

WhatIfResult RunWhatIf(const core::store::TraceStore& trace, const analysis::Reconstruction& recon,
                       const Edits& edits, const std::filesystem::path& predicted,
                       const std::function<void(double)>& progress) {
  auto report = [&](double f) {
    if (progress) progress(f);
  };
  WhatIfResult out;
  out.edits = edits.Describe();
  const DerivedProgram program = DeriveProgram(trace, recon);
  report(0.1);
  // The two replays report 0.1..0.5 and 0.5..0.9 of the whole. The unedited one is measured in
  // memory; the prediction is written.
  auto part = [&](double from, double to) {
    return [&report, from, to](double f) { report(from + (to - from) * std::min(1.0, f)); };
  };
  std::map<int64_t, DurationNs> replayed;  // the unedited replay's steps
  if (std::optional<MeasuredReplay> m =
          MeasureUneditedReplay(trace, recon, TracePacketSlots(recon), program, part(0.1, 0.5))) {
    out.fidelity = m->fidelity;
    replayed = std::move(m->outcome.steps);
  } else {
    // Packet ids alone do not say which packet is which: measured from the whole replay.
    const ReplayedTrace unedited = ReplayInMemory(trace, program, "", part(0.1, 0.5));
    out.fidelity = MeasureFidelity(trace, recon, unedited.store, unedited.recon, program);
    replayed = StepLengths(unedited.store, unedited.recon);
  }
  report(0.5);
  DerivedProgram edited = program;
  out.counts = ApplyEdits(edits, trace, recon, edited);
  ReplayedTrace prediction = ReplayToFile(trace, edited, predicted, out.edits, part(0.5, 0.9));
  report(0.9);

  out.span_before_ns = out.fidelity.trace_span_ns;
  out.span_replay_ns = out.fidelity.replay_span_ns;
  out.span_after_ns = std::max<DurationNs>(0, SpanOfTraceWork(recon, prediction.recon));
  out.gain_pct =
      GainPct(static_cast<double>(out.span_replay_ns), static_cast<double>(out.span_after_ns));
  const auto before = StepLengths(trace, recon);
  const auto after = StepLengths(prediction.store, prediction.recon);
  for (const auto& [id, ns] : before) {
    StepChange c{id, ns};
    if (auto it = replayed.find(id); it != replayed.end()) c.replay_ns = it->second;
    if (auto it = after.find(id); it != after.end()) c.after_ns = it->second;
    out.steps.push_back(c);
  }
  out.step_gain_pct = StepGainPct(replayed, after);
  out.path_before = PathContributors(trace, recon);
  out.path_after = PathContributors(prediction.store, prediction.recon);
  report(1.0);
  return out;
}

core::report::Json FidelityJson(const ReplayFidelity& f) {
  using core::report::Json;
  Json j = Json::Object();
  j.Set("trace_span_ns", f.trace_span_ns);
  j.Set("replay_span_ns", f.replay_span_ns);
  j.Set("span_error_pct", f.span_error_pct);
  j.Set("steps_compared", f.steps_compared);
  j.Set("step_error_pct_mean", f.step_error_pct_mean);
  j.Set("step_error_pct_max", f.step_error_pct_max);
  j.Set("packets_compared", f.packets_compared);
  j.Set("packets_missing", f.packets_missing);
  j.Set("start_error_ns_p50", f.start_error_ns_p50);
  j.Set("start_error_ns_p99", f.start_error_ns_p99);
  j.Set("start_error_ns_max", f.start_error_ns_max);
  Json delays = Json::Object();
  delays.Set("count", f.fixed_delays.count);
  delays.Set("total_ns", f.fixed_delays.total_ns);
  j.Set("fixed_delays", std::move(delays));
  j.Set("launches_not_in_trace", f.launches_not_in_trace);
  return j;
}

core::report::Json OpportunitiesJson(const Opportunities& o) {
  return core::report::ObjectArray(o.list, [](core::report::Json& x, const Opportunity& p) {
    x.Set("kind", p.kind);
    x.Set("name", p.name);
    x.Set("edit", p.edit);
    x.Set("why_ns", p.why_ns);
    x.Set("busy_ns", p.busy_ns);
    x.Set("predicted_span_ns", p.predicted_span_ns);
    x.Set("gain_pct", p.gain_pct);
    x.Set("step_gain_pct", p.step_gain_pct);
  });
}

core::report::Json WhatIfJson(const WhatIfResult& r) {
  using core::report::Json;
  Json j = Json::Object();
  j.Set("edits", r.edits);
  Json counts = Json::Object();
  counts.Set("packets_scaled", r.counts.packets_scaled);
  counts.Set("gpu_waits_removed", r.counts.gpu_waits_removed);
  counts.Set("cpu_waits_removed", r.counts.cpu_waits_removed);
  counts.Set("cpu_gaps_scaled", r.counts.cpu_gaps_scaled);
  counts.Set("queues_changed", r.counts.queues_changed);
  j.Set("edit_counts", std::move(counts));
  Json span = Json::Object();
  span.Set("before", r.span_before_ns);
  span.Set("replay", r.span_replay_ns);
  span.Set("after", r.span_after_ns);
  j.Set("span_ns", std::move(span));
  j.Set("gain_pct", r.gain_pct);
  j.Set("step_gain_pct", r.step_gain_pct);
  j.Set("steps", core::report::ObjectArray(r.steps, [](Json& x, const StepChange& c) {
          x.Set("id", c.id);
          x.Set("before_ns", c.before_ns);
          x.Set("replay_ns", c.replay_ns);
          x.Set("after_ns", c.after_ns);
        }));
  Json path = Json::Object();
  auto contributors = [](const std::vector<PathContributor>& list) {
    return core::report::ObjectArray(list, [](Json& x, const PathContributor& c) {
      x.Set("track", c.track);
      x.Set("ns", c.ns);
      x.Set("share", c.share);
      x.Set("running_ns", c.running_ns);
    });
  };
  path.Set("before", contributors(r.path_before));
  path.Set("after", contributors(r.path_after));
  j.Set("critical_path", std::move(path));
  j.Set("replay", FidelityJson(r.fidelity));
  return j;
}

std::string WhatIfText(const WhatIfResult& r) {
  using core::report::FormatDuration;
  auto ns = [](DurationNs v) { return FormatDuration(static_cast<double>(v)); };
  std::string out;
  out += fmt::format("edits: {}\n", r.edits.empty() ? "none" : r.edits);
  out += fmt::format(
      "  touched {} packets, {} GPU waits, {} CPU waits, {} CPU gaps, {} queues\n",
      r.counts.packets_scaled, r.counts.gpu_waits_removed, r.counts.cpu_waits_removed,
      r.counts.cpu_gaps_scaled, r.counts.queues_changed);
  out += fmt::format("span: {} -> {} ({:+.1f}%; the unedited replay: {})\n", ns(r.span_before_ns),
                     ns(r.span_after_ns), -r.gain_pct, ns(r.span_replay_ns));
  // The steps that changed most, by how much their replayed length moved.
  std::vector<StepChange> changed;
  for (const StepChange& c : r.steps) {
    if (c.replay_ns >= 0 && c.after_ns >= 0) changed.push_back(c);
  }
  if (!changed.empty()) {
    out += fmt::format("steps: {} compared, mean step {:+.1f}%\n", changed.size(), -r.step_gain_pct);
    std::sort(changed.begin(), changed.end(), [](const StepChange& a, const StepChange& b) {
      return std::abs(a.after_ns - a.replay_ns) > std::abs(b.after_ns - b.replay_ns);
    });
    for (size_t i = 0; i < changed.size() && i < 5; ++i) {
      const StepChange& c = changed[i];
      out += fmt::format("  step {}: {} -> {} (replayed unedited: {})\n", c.id, ns(c.before_ns),
                         ns(c.after_ns), ns(c.replay_ns));
    }
  }
  auto path = [&](const std::vector<PathContributor>& list) {
    std::string text;
    for (const PathContributor& c : list) {
      text += fmt::format("{}{} {} ({:.1f}%; {} running)", text.empty() ? "" : ", ", c.track,
                          ns(c.ns), c.share * 100, ns(c.running_ns));
    }
    return text.empty() ? std::string("none") : text;
  };
  out += "critical path, longest on: " + path(r.path_before) + "\n";
  out += "            predicted: " + path(r.path_after) + "\n";
  out += "replay fidelity: " + FidelitySentence(r.fidelity) + "\n";
  return out;
}

std::string FidelitySentence(const ReplayFidelity& f) {
  using core::report::FormatDuration;
  auto ns = [](DurationNs v) { return FormatDuration(static_cast<double>(v)); };
  std::string out = fmt::format("the unedited replay reproduces the trace's span to {:+.2f}%",
                                f.span_error_pct);
  if (f.steps_compared > 0) {
    if (f.steps_compared == 1) {
      out += fmt::format(", its one step to {:.2f}%", f.step_error_pct_mean);
    } else {
      out += fmt::format(", its {} steps to {:.2f}% on average ({:.2f}% at most)", f.steps_compared,
                         f.step_error_pct_mean, f.step_error_pct_max);
    }
  }
  out += fmt::format("; packet starts within {} (median) and {} (99th percentile) of the "
                     "trace's over {} packets",
                     ns(f.start_error_ns_p50), ns(f.start_error_ns_p99), f.packets_compared);
  if (f.packets_missing) out += fmt::format(" ({} never completed)", f.packets_missing);
  if (f.fixed_delays.count) {
    out += fmt::format("; {} wait{} the trace gives no cause for replayed as measured ({})",
                       f.fixed_delays.count, f.fixed_delays.count == 1 ? "" : "s",
                       ns(f.fixed_delays.total_ns));
  }
  if (f.launches_not_in_trace) {
    out += fmt::format(
        "; {} packet{} with no launch call in the trace, launched when {} started or with the one "
        "{} queued behind",
        f.launches_not_in_trace, f.launches_not_in_trace == 1 ? "" : "s",
        f.launches_not_in_trace == 1 ? "it" : "they",
        f.launches_not_in_trace == 1 ? "it was" : "each was");
  }
  return out;
}

}  // namespace core::replay
