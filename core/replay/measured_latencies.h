// The latencies a replay takes from its trace instead of from a model: how soon a queue starts
// a packet, and how soon the OS acts on a signal. Each is the median of what the trace shows
// where nothing else was in the way, so that an unedited replay reproduces the trace and an
// edited one moves what the edit moves.
//
//   queue Q  submit P ........ start P              launch: start - submit, when nothing held P
//            [== prev ==] .... start P              resume: start - what held P last (its
//            [wait .. unblocked] .. start P                 queue's previous packet, a wait on
//            [== other queue of the engine ==] .. start P   Q, a packet of another queue of
//                                                           its engine)
//
// A packet the trace shows no launch for is no sample of the launch latency; queued behind its
// queue's previous packet (started within kQueuedBehindNs of its end), it is one of resume.
#pragma once

#include <vector>

#include "core/analysis/reconstruction.h"
#include "core/model/types.h"
#include "core/store/trace_store.h"

namespace core::replay {

// A packet whose submission says nothing of its launch: none, or one at (or after) its start,
// where an importer without the launch puts it.
inline bool SubmittedAtStart(const analysis::Packet& p) {
  return p.start != analysis::kUnknownTime &&
         (p.submit == analysis::kUnknownTime || p.submit >= p.start);
}

// A packet the trace shows no launch for: no thread submitted it, and its submission says
// nothing. It tells nothing of its queue's launch latency. (A thread's launch may take no
// time: a simulated one.)
inline bool LaunchNotInTrace(const analysis::Packet& p) {
  return p.thread == 0 && SubmittedAtStart(p);
}

// How soon after its queue's previous packet ended a packet with no launch in the trace may
// start and still have been queued behind it: a launch made after the queue emptied does not
// start that soon (the launch latencies measured on the captures under ../shared are 5.5 us and
// more), while a queued packet follows its predecessor within its queue's resume gap (1 to
// 2.1 us there, 0 where the profiler puts them back to back).
inline constexpr core::model::DurationNs kQueuedBehindNs = 3'000;

struct QueueLatency {
  core::model::DurationNs launch_ns = 0;
  core::model::DurationNs resume_ns = 0;
};

// [queue id] (index 0 unused).
std::vector<QueueLatency> MeasureQueueLatencies(const core::store::TraceStore& store,
                                                const analysis::Reconstruction& recon);

struct AdapterLatency {
  // A signal executed -> the CPU waiter it reached released (the interrupt and the OS's
  // handling of it; for a CUDA sync, its return). -1: the trace shows none.
  core::model::DurationNs wake_ns = -1;
  // The OS's interrupt -> a GPU wait it held on the CPU (monitored fence) let go; and the same
  // for a wait propagated from another adapter (cross-adapter fence). -1: none.
  core::model::DurationNs held_release_ns = -1;
  core::model::DurationNs propagation_ns = -1;
};

// [adapter id] (index 0: signals of queues with no adapter, and CPU signals).
std::vector<AdapterLatency> MeasureAdapterLatencies(const core::store::TraceStore& store,
                                                    const analysis::Reconstruction& recon);

}  // namespace core::replay
