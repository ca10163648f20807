// The plain vectors Reconstruct fills while it pairs and links records, and the step that turns
// them into the Reconstruction's packed tables once everything is known.
#pragma once

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

// Moves everything into `out`'s packed tables (core/store/packed_table.h), releasing each plain
// vector as soon as it is packed so the peak stays near one copy. The inputs are left empty.
void PackReconstruction(Boxes& boxes, std::vector<PlainQueueTrack>& queues,
                        std::vector<PlainThreadTrack>& threads, Reconstruction& out);

}  // namespace core::analysis
