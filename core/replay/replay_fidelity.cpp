#include "core/replay/replay_fidelity.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

#include "core/analysis/percentiles.h"
#include "core/fleet/step_marks.h"

namespace core::replay {

using analysis::kUnknownTime;

namespace {

std::unordered_map<int64_t, uint32_t> PacketsById(const analysis::Reconstruction& recon) {
  std::unordered_map<int64_t, uint32_t> out;
  out.reserve(recon.packets.size());
  for (uint32_t i = 0; i < recon.packets.size(); ++i) {
    out.try_emplace(recon.packets.Get<&analysis::Packet::packet_id>(i), i);
  }
  return out;
}

// From the trace's start (the replay's too) to the last end seen.
struct Span {
  TimeNs first = 0;
  TimeNs last = std::numeric_limits<TimeNs>::min();
  explicit Span(TimeNs origin) : first(origin) {}
  void Add(TimeNs end) { last = std::max(last, end); }
  DurationNs Length() const { return last >= first ? last - first : -1; }
};

double Percent(double part, double whole) { return whole > 0 ? part / whole * 100.0 : 0.0; }

}  // namespace

DurationNs SpanOfTraceWork(const analysis::Reconstruction& trace_recon,
                           const analysis::Reconstruction& recon) {
  std::unordered_map<int64_t, TimeNs> ends;
  ends.reserve(recon.packets.size());
  for (const auto& [id, index] : PacketsById(recon)) {
    const analysis::Packet r = recon.packets[index];
    if (r.start != kUnknownTime && r.end != kUnknownTime) ends.emplace(id, r.end);
  }
  return SpanOfTraceWork(trace_recon, ends);
}

DurationNs SpanOfTraceWork(const analysis::Reconstruction& trace_recon,
                           const std::unordered_map<int64_t, TimeNs>& replay_ends) {
  Span span(trace_recon.start_ns);
  for (const analysis::Packet& p : trace_recon.packets) {
    if (p.start == kUnknownTime || p.end == kUnknownTime) continue;
    auto it = replay_ends.find(p.packet_id);
    if (it != replay_ends.end()) span.Add(it->second);
  }
  return span.Length();
}

DurationNs SpanOfTraceWork(const analysis::Reconstruction& trace_recon,
                           const TracePacketSlots& slots,
                           const std::vector<TimeNs>& replay_end_by_slot) {
  Span span(trace_recon.start_ns);
  for (const uint32_t slot : slots.timed()) {
    if (replay_end_by_slot[slot] != kUnknownTime) span.Add(replay_end_by_slot[slot]);
  }
  return span.Length();
}

ReplayFidelity MeasureFidelity(const core::store::TraceStore& trace,
                               const analysis::Reconstruction& trace_recon,
                               const core::store::TraceStore& replay,
                               const analysis::Reconstruction& replay_recon,
                               const DerivedProgram& program) {
  const auto by_id = PacketsById(replay_recon);
  auto replayed = [&](int64_t packet_id) {
    auto it = by_id.find(packet_id);
    if (it == by_id.end()) return ReplayedTimes{};
    const analysis::Packet r = replay_recon.packets[it->second];
    return ReplayedTimes{r.start, r.end};
  };
  std::string from_replay;
  return MeasureFidelity(trace, trace_recon, replayed,
                         core::fleet::FindStepMarks(replay, replay_recon, &from_replay), program);
}

ReplayFidelity MeasureFidelity(const core::store::TraceStore& trace,
                               const analysis::Reconstruction& trace_recon,
                               const std::function<ReplayedTimes(int64_t packet_id)>& replayed,
                               const std::vector<core::fleet::StepMark>& replay_steps,
                               const DerivedProgram& program) {
  ReplayFidelity out;
  out.fixed_delays = program.fixed_delays;
  out.launches_not_in_trace = program.launches_not_in_trace;
  Span trace_span(trace_recon.start_ns), replay_span(trace_recon.start_ns);
  std::vector<DurationNs> start_errors;
  for (const analysis::Packet& p : trace_recon.packets) {
    if (p.start == kUnknownTime || p.end == kUnknownTime) continue;
    trace_span.Add(p.end);
    const ReplayedTimes r = replayed(p.packet_id);
    if (r.start == kUnknownTime || r.end == kUnknownTime) {
      ++out.packets_missing;
      continue;
    }
    replay_span.Add(r.end);
    start_errors.push_back(std::abs(r.start - p.start));
  }
  out.packets_compared = start_errors.size();
  if (!start_errors.empty()) {
    const analysis::Percentiles p = analysis::Summarise(start_errors);
    out.start_error_ns_p50 = p.p50;
    out.start_error_ns_p99 = p.p99;
    out.start_error_ns_max = p.max;
  }
  out.trace_span_ns = std::max<DurationNs>(0, trace_span.Length());
  out.replay_span_ns = std::max<DurationNs>(0, replay_span.Length());
  out.span_error_pct = Percent(static_cast<double>(out.replay_span_ns - out.trace_span_ns),
                               static_cast<double>(out.trace_span_ns));

  std::string from_trace;
  const auto trace_steps = core::fleet::FindStepMarks(trace, trace_recon, &from_trace);
  std::unordered_map<int64_t, DurationNs> replayed_steps;
  for (const auto& mark : replay_steps) replayed_steps.try_emplace(mark.id, mark.end - mark.start);
  double sum = 0;
  for (const auto& mark : trace_steps) {
    const DurationNs length = mark.end - mark.start;
    auto it = replayed_steps.find(mark.id);
    if (length <= 0 || it == replayed_steps.end()) continue;
    const double error =
        Percent(std::abs(static_cast<double>(it->second - length)), static_cast<double>(length));
    sum += error;
    out.step_error_pct_max = std::max(out.step_error_pct_max, error);
    ++out.steps_compared;
  }
  if (out.steps_compared) out.step_error_pct_mean = sum / static_cast<double>(out.steps_compared);
  return out;
}

}  // namespace core::replay
