// The plain vectors Reconstruct fills while it pairs and links records, the step that builds the
// per-track lists from them (reconstruction_tracks.cpp) and the one that turns them into the
// Reconstruction's packed tables once everything is known (reconstruction_tables.cpp).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/analysis/reconstruction.h"

namespace core::analysis {

// What the builder fills while it pairs and links: plain vectors it can grow and patch in place.
// PackReconstruction turns them into the packed tables once everything is known.
struct Boxes {
  std::vector<Packet> packets;
  std::vector<SignalBox> signals;
  std::vector<WaitBox> waits;
  std::vector<CpuWait> cpu_waits;
  std::vector<Interrupt> interrupts;
  std::vector<BackgroundTask> tasks;
  std::vector<ModeChange> mode_changes;
  std::vector<PreemptionMarker> preemptions;
  std::vector<TdrMarker> tdrs;
};

struct PlainQueueTrack {
  std::vector<uint32_t> packets, signals, waits, interrupts, preemptions, tdrs;
  std::vector<RunSegment> segments;
  std::vector<MissingWindow> missing;
};

struct PlainThreadTrack {
  std::vector<uint32_t> cpu_waits, cpu_signals, submissions, tasks;
};

// The first of the times that is known (kUnknownTime when none is).
inline TimeNs FirstKnown(TimeNs a, TimeNs b, TimeNs c = kUnknownTime) {
  if (a != kUnknownTime) return a;
  if (b != kUnknownTime) return b;
  return c;
}

// Named counters of what could not be paired or linked, kept by name so the output order is
// stable.
class ProblemCounter {
 public:
  void Count(const char* name, const char* description, TimeNs ts) {
    auto [it, inserted] = m_problems.try_emplace(name);
    if (inserted) {
      it->second.name = name;
      it->second.description = description;
      it->second.first_ts = ts;
    }
    ++it->second.count;
  }
  std::vector<LinkProblem> Take() {
    std::vector<LinkProblem> out;
    for (auto& [name, problem] : m_problems) out.push_back(std::move(problem));
    return out;
  }

 private:
  std::map<std::string, LinkProblem> m_problems;
};

// The per-track index lists (queues[queue id], threads[thread id]; slot 0 collects records
// naming no track or an unknown one), each sorted by its boxes' start time. Also numbers each
// packet's run segments (Packet::first_segment, segments) and sorts the tasks by time.
void BuildTrackLists(const core::store::TraceStore& store, Boxes& boxes,
                     const std::vector<RunSegment>& segments,
                     const std::vector<MissingWindow>& missing,
                     std::vector<PlainQueueTrack>& queues, std::vector<PlainThreadTrack>& threads,
                     ProblemCounter& problems);

// Moves everything into `out`'s packed tables (core/store/packed_table.h), releasing each plain
// vector as soon as it is packed so the peak stays near one copy. The inputs are left empty.
void PackReconstruction(Boxes& boxes, std::vector<PlainQueueTrack>& queues,
                        std::vector<PlainThreadTrack>& threads, Reconstruction& out);

}  // namespace core::analysis
