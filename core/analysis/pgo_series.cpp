#include "core/analysis/pgo_series.h"

#include <algorithm>

namespace core::analysis {
namespace {

// Index of the pass holding time t, or -1 before the first pass.
int PassOf(const std::vector<PgoPass>& passes, TimeNs t) {
  auto it = std::upper_bound(passes.begin(), passes.end(), t,
                             [](TimeNs x, const PgoPass& p) { return x < p.start; });
  return static_cast<int>(it - passes.begin()) - 1;
}

}  // namespace

PgoSeries ComputePgoSeries(const core::store::TraceStore& store, const Reconstruction& r) {
  PgoSeries out;
  BackgroundMode in_force = BackgroundMode::kAllowed;  // the default before any accepted call
  for (size_t i = 0; i < r.mode_changes.size(); ++i) {
    const ModeChange& m = r.mode_changes[i];
    PgoPass pass;
    pass.start = m.ts;
    pass.end = i + 1 < r.mode_changes.size() ? r.mode_changes[i + 1].ts : r.end_ns;
    pass.call_id = m.call_id;
    pass.refused = m.result != 0;
    pass.requested_mode = m.mode;
    if (!pass.refused) in_force = m.mode;
    pass.mode = in_force;
    pass.action = m.action;
    pass.further_measurements_desired = m.further_measurements_desired;
    pass.further_measurements_known = true;
    out.passes.push_back(pass);
  }
  out.boundary = PgoBoundary::kModeChanged;
  const auto& ev = store.events;
  if (out.passes.empty() && !r.tasks.empty()) {
    out.boundary = PgoBoundary::kVariantApplied;
    std::vector<TimeNs> starts = {r.start_ns};
    for (size_t i = 0; i < ev.size(); ++i) {
      if (ev.kind[i] == EventKind::VariantApplied) starts.push_back(ev.ts[i]);
    }
    for (size_t i = 0; i < starts.size(); ++i) {
      PgoPass pass;
      pass.start = starts[i];
      pass.end = i + 1 < starts.size() ? starts[i + 1] : r.end_ns;
      out.passes.push_back(pass);
    }
  }
  if (out.passes.empty()) {
    out.boundary = PgoBoundary::kNone;
    return out;
  }
  auto& passes = out.passes;
  for (const BackgroundTask& t : r.tasks) {
    if (t.queued != kUnknownTime) {
      int p = PassOf(passes, t.queued);
      if (p >= 0) ++passes[p].tasks_queued;
    }
    if (t.ended == kUnknownTime) continue;
    int p = PassOf(passes, t.ended);
    if (p < 0) continue;
    if (t.outcome == TaskOutcome::kFinished) ++passes[p].tasks_finished;
    else ++passes[p].tasks_cancelled;
  }
  std::vector<double> packet_ns(passes.size(), 0), pgo_ns(passes.size(), 0);
  for (const Packet& packet : r.packets) {
    if (packet.start == kUnknownTime || packet.end == kUnknownTime) continue;
    int p = PassOf(passes, packet.end);
    if (p < 0) continue;
    ++passes[p].packets;
    if (packet.flags & kPacketInstrumented) ++passes[p].instrumented_packets;
    if (packet.flags & kPacketUsesVariant) ++passes[p].variant_packets;
    packet_ns[p] += static_cast<double>(packet.end - packet.start);
    if (packet.flags & (kPacketInstrumented | kPacketUsesVariant)) {
      ++passes[p].pgo_packets;
      pgo_ns[p] += static_cast<double>(packet.end - packet.start);
    }
  }
  for (size_t p = 0; p < passes.size(); ++p) {
    if (passes[p].packets) passes[p].mean_packet_ns = packet_ns[p] / passes[p].packets;
    if (passes[p].pgo_packets) passes[p].mean_pgo_packet_ns = pgo_ns[p] / passes[p].pgo_packets;
  }
  for (size_t i = 0; i < ev.size(); ++i) {
    if (ev.kind[i] != EventKind::VariantApplied) continue;
    int p = PassOf(passes, ev.ts[i]);
    if (p >= 0) ++passes[p].variants_applied;
  }
  return out;
}

std::string_view FurtherMeasurementsDesiredName(const PgoPass& pass) {
  if (!pass.further_measurements_known) return "unknown";
  return pass.further_measurements_desired ? "yes" : "no";
}

std::string ModeInForceText(const PgoPass& pass) {
  std::string text(BackgroundModeName(pass.mode));
  if (pass.refused) text += " (refused " + std::string(BackgroundModeName(pass.requested_mode)) + ")";
  return text;
}

}  // namespace core::analysis
