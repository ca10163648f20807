// seed 000, the driver's side of background processing: it instruments packets that run a PSO,
// builds a histogram of the constant values bound, and past a threshold queues a recompile of
// a variant specialised for them. A finished variant is attached to the PSO, and later packets
// with the same constants run faster. A variant in place can reveal a further round of
// specialisation (the PSO's `levels`), which is why FurtherMeasurementsDesired stays true until
// a pass finds nothing new.
#include "core/sim/shader_pgo.h"

#include <algorithm>

#include "core/sim/background_tasks.h"

namespace core::sim {

using core::model::BackgroundMode;

double SpeedupFactor(double speedup, int32_t level) {
  // Repeated multiplication rather than std::pow, whose last bit may differ between C libraries:
  // packet durations must be the same everywhere for the same seed.
  double factor = 1.0;
  for (int32_t l = 0; l < level; ++l) factor *= speedup;
  return factor;
}

uint32_t PlanPgoPacket(const Scenario& scenario, BackgroundState& bg, core::model::ThreadId thread,
                       const Step& step, int64_t frame, GpuCommand& packet) {
  const StepDetail& detail = step.detail.get();
  if (detail.pso < 0 || !scenario.background.supported) return 0;
  PsoState& pso = bg.psos[static_cast<size_t>(detail.pso)];
  if (pso.destroyed) return 0;
  PacketPgo& pgo = packet.pgo;
  pgo.pso = detail.pso;
  pgo.constants = detail.constants.Eval(frame);
  pgo.thread_id = thread;
  const PsoSpec& spec = scenario.psos[static_cast<size_t>(detail.pso)];
  const ConstantStats& stats = pso.Stats(pgo.constants);
  uint32_t flags = 0;
  double factor = 1.0;
  if (stats.level > 0) {
    factor = SpeedupFactor(spec.speedup, stats.level);
    flags |= core::model::kPacketUsesVariant;
  }
  // seed 000: DISABLE_PROFILING_BY_SYSTEM stops measurement too; the other modes instrument,
  // ALLOW_INTRUSIVE_MEASUREMENTS richly, at a GPU cost.
  pgo.instrumented = bg.mode != BackgroundMode::kDisableProfilingBySystem;
  if (pgo.instrumented) flags |= core::model::kPacketInstrumented;
  if (bg.mode == BackgroundMode::kAllowIntrusiveMeasurements) {
    factor *= 1.0 + scenario.background.intrusive_overhead;
  }
  packet.work.remaining_ns = std::max<DurationNs>(
      1, static_cast<DurationNs>(static_cast<double>(packet.work.remaining_ns) * factor));
  return flags;
}

void OnPgoPacketDone(SimRun& run, BackgroundState& bg, const PacketPgo& packet) {
  // seed 000: no PGO decision on GPU work that has not finished executing; now it has.
  if (!packet.instrumented || packet.pso < 0) return;
  PsoState& pso = bg.psos[static_cast<size_t>(packet.pso)];
  if (pso.destroyed) return;
  bg.pass_instrumented = true;
  const BackgroundSpec& spec_bg = run.scenario->background;
  const PsoSpec& spec = run.scenario->psos[static_cast<size_t>(packet.pso)];
  ConstantStats& stats = pso.Stats(packet.constants);
  ++stats.samples;
  const int64_t threshold = bg.mode == BackgroundMode::kAllowIntrusiveMeasurements
                                ? spec_bg.intrusive_threshold
                                : spec_bg.threshold;
  if (stats.samples < threshold || stats.task_pending || stats.level >= spec.levels) return;
  if (QueueBackgroundTask(run, bg, packet.thread_id, static_cast<uint32_t>(packet.pso),
                          packet.constants, 0, false)) {
    stats.task_pending = true;
    bg.pass_found_new = true;
  } else {
    stats.samples = 0;  // cancelled: measure again before asking again
  }
}

namespace {

// A measured constant set that could still lead to a recompile: samples in its histogram, no
// task pending, fewer specialisation rounds than the PSO allows.
template <typename Visit>
void ForEachOpenConstantSet(const Scenario& scenario, const BackgroundState& bg, Visit visit) {
  for (uint32_t p = 0; p < bg.psos.size(); ++p) {
    const PsoState& pso = bg.psos[p];
    if (pso.destroyed) continue;
    for (const auto& [constants, stats] : pso.constants) {
      if (stats.samples > 0 && !stats.task_pending && stats.level < scenario.psos[p].levels) {
        if (!visit(p, constants)) return;
      }
    }
  }
}

}  // namespace

bool MeasurementsIncomplete(const Scenario& scenario, const BackgroundState& bg) {
  bool incomplete = false;
  ForEachOpenConstantSet(scenario, bg, [&](uint32_t, int64_t) {
    incomplete = true;  // a histogram still filling up towards a recompile
    return false;
  });
  return incomplete;
}

std::vector<std::pair<uint32_t, int64_t>> CommitCandidates(const Scenario& scenario,
                                                           const BackgroundState& bg) {
  std::vector<std::pair<uint32_t, int64_t>> out;
  if (!scenario.background.supported) return out;
  // seed 000 COMMIT_RESULTS: histograms scaled as if the threshold had been reached.
  ForEachOpenConstantSet(scenario, bg, [&](uint32_t pso, int64_t constants) {
    out.emplace_back(pso, constants);
    return true;
  });
  return out;
}

}  // namespace core::sim
