#include "core/replay/measured_latencies.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "core/analysis/percentiles.h"

namespace core::replay {

using analysis::kNoIndex;
using analysis::kUnknownTime;
using core::model::DurationNs;
using core::model::EngineId;
using core::model::QueueId;
using core::model::TimeNs;

namespace {

DurationNs Median(std::vector<DurationNs>& samples) {
  return samples.empty() ? 0 : analysis::Summarise(samples).p50;
}

// How far back among another queue's packets of the same engine to look for one that held a
// packet (their ends are sorted; the packets of the packet's own queue are skipped).
constexpr int kEngineLookBack = 64;

}  // namespace

std::vector<QueueLatency> MeasureQueueLatencies(const core::store::TraceStore& store,
                                                const analysis::Reconstruction& recon) {
  std::vector<QueueLatency> out(store.queues.size() + 1);
  // Per engine, the ends of its packets by time: a packet of another queue of the same engine
  // that ended while a packet waited held it (the engine runs one packet at a time).
  std::unordered_map<EngineId, std::vector<std::pair<TimeNs, QueueId>>> engine_ends;
  for (const analysis::Packet& p : recon.packets) {
    const core::model::Queue* q = store.FindQueue(p.queue);
    if (q && q->engine != 0 && p.end != kUnknownTime) engine_ends[q->engine].push_back({p.end, p.queue});
  }
  for (auto& [engine, ends] : engine_ends) std::sort(ends.begin(), ends.end());

  for (QueueId id = 1; id < recon.queues.size() && id <= store.queues.size(); ++id) {
    const analysis::QueueTrack& track = recon.queues[id];
    // When each wait on the queue let it go: for a wait the GPU itself resolves, the moment its
    // releasing signal executed (an importer may put the unblock at the next packet's start,
    // which would hide the queue's own resume time); else its unblock.
    std::vector<TimeNs> unblocks;
    for (uint32_t w : track.waits) {
      const analysis::WaitBox box = recon.waits[w];
      TimeNs u = box.unblocked;
      if (box.path == core::model::WaitPath::kGpuNative && box.signal != kNoIndex) {
        const TimeNs executed = recon.signals.Get<&analysis::SignalBox::executed>(box.signal);
        if (executed != kUnknownTime && (u == kUnknownTime || executed <= u)) u = executed;
      }
      if (u != kUnknownTime) unblocks.push_back(u);
    }
    std::sort(unblocks.begin(), unblocks.end());
    const core::model::Queue* queue = store.FindQueue(id);
    const auto* ends = queue && queue->engine != 0 ? &engine_ends[queue->engine] : nullptr;
    std::vector<DurationNs> launch, resume;
    TimeNs previous_end = kUnknownTime;
    for (uint32_t index : track.packets) {
      const analysis::Packet p = recon.packets[index];
      const bool measured = p.end != kUnknownTime && p.preemptions == 0;
      if (measured && LaunchNotInTrace(p)) {
        // No launch: only a packet queued behind its predecessor tells the resume gap.
        if (previous_end != kUnknownTime && p.start >= previous_end &&
            p.start - previous_end <= kQueuedBehindNs) {
          resume.push_back(p.start - previous_end);
        }
      } else if (measured && p.start != kUnknownTime && p.submit != kUnknownTime &&
                 p.start >= p.submit) {
        // The last thing in (submit, start] that held the packet back.
        TimeNs held = kUnknownTime;
        if (previous_end != kUnknownTime && previous_end > p.submit && previous_end <= p.start) {
          held = previous_end;
        }
        auto u = std::upper_bound(unblocks.begin(), unblocks.end(), p.start);
        if (u != unblocks.begin() && *std::prev(u) > p.submit) held = std::max(held, *std::prev(u));
        if (ends) {
          auto e = std::upper_bound(ends->begin(), ends->end(), std::make_pair(p.start, QueueId{~0u}));
          for (int k = 0; k < kEngineLookBack && e != ends->begin(); ++k) {
            --e;
            if (e->first <= p.submit) break;
            if (e->second != id) {
              held = std::max(held, e->first);
              break;
            }
          }
        }
        if (held != kUnknownTime) {
          resume.push_back(p.start - held);
        } else {
          launch.push_back(p.start - p.submit);
        }
      }
      if (p.end != kUnknownTime) {
        previous_end = previous_end == kUnknownTime ? p.end : std::max(previous_end, p.end);
      }
    }
    out[id] = {Median(launch), Median(resume)};
  }
  return out;
}

std::vector<AdapterLatency> MeasureAdapterLatencies(const core::store::TraceStore& store,
                                                    const analysis::Reconstruction& recon) {
  const size_t n = store.adapters.size() + 1;
  std::vector<std::vector<DurationNs>> wake(n), held(n), propagation(n);
  auto adapter_of_queue = [&](QueueId q) -> size_t {
    const core::model::Queue* queue = store.FindQueue(q);
    return queue && queue->adapter < n ? queue->adapter : 0;
  };
  for (const analysis::Interrupt& x : recon.interrupts) {
    if (x.signal == kNoIndex || x.adapter >= n) continue;
    const TimeNs executed = recon.signals.Get<&analysis::SignalBox::executed>(x.signal);
    if (executed != kUnknownTime && x.ts >= executed) wake[x.adapter].push_back(x.ts - executed);
  }
  // Without interrupts in the trace (a CUDA capture), the wake-up is what a blocked CPU wait
  // shows: its release after the signal it waited for.
  std::vector<std::vector<DurationNs>> released(n);
  for (const analysis::CpuWait& w : recon.cpu_waits) {
    if (w.signal == kNoIndex || w.released == kUnknownTime || w.begin == kUnknownTime) continue;
    const analysis::SignalBox s = recon.signals[w.signal];
    if (s.cpu || s.executed == kUnknownTime || s.executed <= w.begin || w.released < s.executed) {
      continue;
    }
    released[adapter_of_queue(s.queue)].push_back(w.released - s.executed);
  }
  for (const analysis::WaitBox& w : recon.waits) {
    if (w.interrupt == kNoIndex || w.unblocked == kUnknownTime) continue;
    const TimeNs at = recon.interrupts.Get<&analysis::Interrupt::ts>(w.interrupt);
    if (w.unblocked < at) continue;
    const size_t a = adapter_of_queue(w.queue);
    if (w.path == core::model::WaitPath::kCpuHeld) held[a].push_back(w.unblocked - at);
    if (w.path == core::model::WaitPath::kCrossAdapter) propagation[a].push_back(w.unblocked - at);
  }
  std::vector<AdapterLatency> out(n);
  for (size_t a = 0; a < n; ++a) {
    std::vector<DurationNs>& w = wake[a].empty() ? released[a] : wake[a];
    if (!w.empty()) out[a].wake_ns = Median(w);
    if (!held[a].empty()) out[a].held_release_ns = Median(held[a]);
    if (!propagation[a].empty()) out[a].propagation_ns = Median(propagation[a]);
  }
  return out;
}

}  // namespace core::replay
