// What pays, ranked: a causal profile for GPU queues. Each candidate change is replayed
// (whatif.h) and its gain measured against the unedited replay:
//   * the packet names with the most critical-path time, twice as fast, and the busiest names
//     beside them (a busy kernel off the critical path shows that it would save nothing);
//   * the waits (GPU or CPU) that held a queue or thread longest, removed;
//   * the host twice as fast (the CPU time between its calls halved).
// A kernel that is busy but never on the critical path gains about nothing; one on it gains
// what it saves until another path takes over. The replays run on every core.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/analysis/critical_path.h"
#include "core/analysis/longest_waits.h"
#include "core/analysis/reconstruction.h"
#include "core/replay/replay_fidelity.h"
#include "core/replay/whatif_edits.h"
#include "core/store/trace_store.h"

namespace core::replay {

// How many of each kind of candidate are replayed.
inline constexpr size_t kOpportunityPacketNames = 10;
inline constexpr size_t kOpportunityBusiestNames = 3;
inline constexpr size_t kOpportunityWaits = 5;

struct Opportunity {
  std::string kind;  // "faster_packets", "gpu_wait_removed", "cpu_wait_removed", "faster_host"
  std::string name;  // the packet name; the wait ("QUEUE waits for FENCE >= V"); "host"
  std::string edit;  // the `fencescope whatif` options that ask the same (Edits::Describe)
  DurationNs why_ns = 0;   // its critical-path time, or how long the wait held
  DurationNs busy_ns = 0;  // faster_packets: the GPU time of the packets of that name
  DurationNs predicted_span_ns = 0;
  double gain_pct = 0;       // against the unedited replay's span
  double step_gain_pct = 0;  // the same for the mean step
  Edits edits;  // `edit` as edits, for a caller that replays it again (the window)
};

struct Opportunities {
  bool computed = false;
  bool cancelled = false;  // the ranking was stopped before its replays ended (the window)
  ReplayFidelity fidelity;  // the unedited replay against the trace
  std::vector<Opportunity> list;  // largest gain first
};

// `longest` are the trace's longest waits (longest_waits.h), `path` its critical path.
// `progress` (may be empty) gets the fraction of the replays done, from the replaying threads,
// one call at a time; it may throw to cancel: the replays running finish, no other starts, and
// the exception is thrown here.
Opportunities FindOpportunities(const core::store::TraceStore& store,
                                const analysis::Reconstruction& recon,
                                const analysis::CriticalPath& path,
                                const std::vector<analysis::HeldWait>& longest,
                                const std::function<void(double)>& progress = {});

}  // namespace core::replay
