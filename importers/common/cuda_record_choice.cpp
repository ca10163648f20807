#include "importers/common/cuda_record_choice.h"

#include <cstdlib>

namespace importers::cuda {

bool WaitTiming::Held() const { return known && went_on - free_at > kHeldNs; }

namespace {

TimeNs Distance(TimeNs a, TimeNs b) { return a > b ? a - b : b - a; }

bool Timed(const RecordCandidate& c) { return c.executed != kExecutionUnknown; }

// Of two candidates at one moment: the one an earlier wait on the event took, else the most
// recent record call.
bool Preferred(const RecordCandidate& a, const RecordCandidate& b) {
  if (a.known_of_event != b.known_of_event) return a.known_of_event;
  return a.recency < b.recency;
}

RecordChoice Choose(std::span<const RecordCandidate> c, const WaitTiming& timing,
                    bool others_only) {
  auto eligible = [&](const RecordCandidate& r) { return !others_only || !r.on_waiting_stream; };
  RecordChoice out;
  if (timing.Held()) {
    // The record that executed while the wait was held, closest to when it went on.
    uint32_t closest = kNone;
    for (uint32_t i = 0; i < c.size(); ++i) {
      const RecordCandidate& r = c[i];
      if (!eligible(r) || !Timed(r)) continue;
      if (r.executed < timing.free_at - kSameMomentNs ||
          r.executed > timing.went_on + kSameMomentNs) {
        continue;
      }
      if (closest == kNone ||
          Distance(r.executed, timing.went_on) < Distance(c[closest].executed, timing.went_on)) {
        closest = i;
      }
    }
    if (closest != kNone) {
      uint32_t best = closest;
      for (uint32_t i = 0; i < c.size(); ++i) {
        const RecordCandidate& r = c[i];
        if (!eligible(r) || !Timed(r) || i == closest) continue;
        if (Distance(r.executed, c[closest].executed) <= kSameMomentNs &&
            r.executed <= timing.went_on + kSameMomentNs && Preferred(r, c[best])) {
          best = i;
        }
      }
      out.candidate = best;
      return out;
    }
  }
  // The most recent record that had executed by the time the wait went on.
  for (uint32_t i = 0; i < c.size(); ++i) {
    const RecordCandidate& r = c[i];
    if (!eligible(r)) continue;
    const bool consistent =
        !timing.known || !Timed(r) || r.executed <= timing.went_on + kSameMomentNs;
    if (consistent && (out.candidate == kNone || r.recency < c[out.candidate].recency)) {
      out.candidate = i;
    }
  }
  if (out.candidate != kNone) return out;
  // Every candidate executed after the wait went on: the clocks disagree; the nearest.
  for (uint32_t i = 0; i < c.size(); ++i) {
    if (!eligible(c[i])) continue;
    if (out.candidate == kNone || c[i].executed < c[out.candidate].executed) out.candidate = i;
  }
  out.timing_contradicts = out.candidate != kNone;
  return out;
}

}  // namespace

RecordChoice ChooseRecord(std::span<const RecordCandidate> candidates, const WaitTiming& timing) {
  RecordChoice choice = Choose(candidates, timing, true);
  if (choice.candidate == kNone) choice = Choose(candidates, timing, false);
  return choice;
}

}  // namespace importers::cuda
