// seed 000, the driver's side of background processing: it instruments packets that run a PSO,
// builds a histogram of the constant values bound, and past a threshold queues a recompile of
// a variant specialised for them. A finished variant is attached to the PSO, and later packets
// with the same constants run faster. A variant in place can reveal a further round of
// specialisation (the PSO's `levels`), which is why FurtherMeasurementsDesired stays true until
// a pass finds nothing new.
#include "core/sim/sim_state.h"

namespace core::sim {

using core::model::BackgroundMode;

double SpeedupFactor(double speedup, int32_t level) {
  // Repeated multiplication rather than std::pow, whose last bit may differ between C libraries:
  // packet durations must be the same everywhere for the same seed.
  double factor = 1.0;
  for (int32_t l = 0; l < level; ++l) factor *= speedup;
  return factor;
}

uint32_t PlanPgoPacket(Sim& sim, uint32_t thread, const Step& step, int64_t frame,
                       GpuCommand& packet) {
  if (step.pso < 0 || !sim.scenario->background.supported) return 0;
  PsoState& pso = sim.bg.psos[static_cast<size_t>(step.pso)];
  if (pso.destroyed) return 0;
  packet.pso = step.pso;
  packet.constants = step.constants.Eval(frame);
  packet.thread = thread;
  const PsoSpec& spec = sim.scenario->psos[static_cast<size_t>(step.pso)];
  const ConstantStats& stats = pso.Stats(packet.constants);
  uint32_t flags = 0;
  double factor = 1.0;
  if (stats.level > 0) {
    factor = SpeedupFactor(spec.speedup, stats.level);
    flags |= core::model::kPacketUsesVariant;
  }
  // seed 000: DISABLE_PROFILING_BY_SYSTEM stops measurement too; the other modes instrument,
  // ALLOW_INTRUSIVE_MEASUREMENTS richly, at a GPU cost.
  packet.instrumented = sim.bg.mode != BackgroundMode::kDisableProfilingBySystem;
  if (packet.instrumented) flags |= core::model::kPacketInstrumented;
  if (sim.bg.mode == BackgroundMode::kAllowIntrusiveMeasurements) {
    factor *= 1.0 + sim.scenario->background.intrusive_overhead;
  }
  packet.remaining_ns = std::max<DurationNs>(
      1, static_cast<DurationNs>(static_cast<double>(packet.remaining_ns) * factor));
  return flags;
}

void OnPgoPacketDone(Sim& sim, const GpuCommand& packet) {
  // seed 000: no PGO decision on GPU work that has not finished executing; now it has.
  if (!packet.instrumented || packet.pso < 0) return;
  PsoState& pso = sim.bg.psos[static_cast<size_t>(packet.pso)];
  if (pso.destroyed) return;
  sim.bg.pass_instrumented = true;
  const BackgroundSpec& bg = sim.scenario->background;
  const PsoSpec& spec = sim.scenario->psos[static_cast<size_t>(packet.pso)];
  ConstantStats& stats = pso.Stats(packet.constants);
  ++stats.samples;
  const int64_t threshold = sim.bg.mode == BackgroundMode::kAllowIntrusiveMeasurements
                                ? bg.intrusive_threshold
                                : bg.threshold;
  if (stats.samples < threshold || stats.task_pending || stats.level >= spec.levels) return;
  if (QueueBackgroundTask(sim, packet.thread, static_cast<uint32_t>(packet.pso), packet.constants,
                          0, false)) {
    stats.task_pending = true;
    sim.bg.pass_found_new = true;
  } else {
    stats.samples = 0;  // cancelled: measure again before asking again
  }
}

bool MeasurementsIncomplete(const Sim& sim) {
  for (uint32_t p = 0; p < sim.bg.psos.size(); ++p) {
    const PsoState& pso = sim.bg.psos[p];
    if (pso.destroyed) continue;
    for (const auto& [constants, stats] : pso.constants) {
      if (stats.samples > 0 && !stats.task_pending && stats.level < sim.scenario->psos[p].levels) {
        return true;  // a histogram still filling up towards a recompile
      }
    }
  }
  return false;
}

std::vector<std::pair<uint32_t, int64_t>> CommitCandidates(Sim& sim) {
  std::vector<std::pair<uint32_t, int64_t>> out;
  if (!sim.scenario->background.supported) return out;
  for (uint32_t p = 0; p < sim.bg.psos.size(); ++p) {
    const PsoState& pso = sim.bg.psos[p];
    if (pso.destroyed) continue;
    for (const auto& [constants, stats] : pso.constants) {
      // seed 000 COMMIT_RESULTS: histograms scaled as if the threshold had been reached.
      if (stats.samples > 0 && !stats.task_pending && stats.level < sim.scenario->psos[p].levels) {
        out.emplace_back(p, constants);
      }
    }
  }
  return out;
}

}  // namespace core::sim
