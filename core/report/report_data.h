// Everything the reports show, computed once from a loaded trace: the reconstruction and every
// analysis of core/analysis. The JSON, Markdown and HTML renderers and `compare` read this.
#pragma once

#include <array>
#include <functional>
#include <string>

#include "core/analysis/background_stats.h"
#include "core/analysis/critical_path.h"
#include "core/analysis/fence_rewinds.h"
#include "core/analysis/idle_gaps.h"
#include "core/analysis/interrupt_analysis.h"
#include "core/analysis/longest_waits.h"
#include "core/analysis/launch_calls.h"
#include "core/analysis/launch_delay.h"
#include "core/analysis/overrun_windows.h"
#include "core/analysis/packet_stats.h"
#include "core/analysis/pgo_series.h"
#include "core/analysis/preemption_stats.h"
#include "core/analysis/queue_length.h"
#include "core/analysis/queue_time.h"
#include "core/analysis/reconstruction.h"
#include "core/analysis/resource_hazards.h"
#include "core/analysis/wait_findings.h"
#include "core/analysis/wait_latency.h"
#include "core/analysis/wait_links.h"
#include "core/replay/opportunities.h"
#include "core/store/trace_store.h"

namespace core::report {

// How many of the longest waits the reports list.
constexpr size_t kLongestWaits = 20;

struct ReportData {
  const core::store::TraceStore* store = nullptr;
  bool full = false;  // false: only what `stats` needs (no path, gaps, hazards)
  std::array<uint64_t, 256> kind_counts{};  // records per event kind id
  analysis::Reconstruction recon;
  analysis::QueueTimeSplit queue_time;
  analysis::InterruptAnalysis interrupts;
  analysis::OverrunAnalysis overruns;
  analysis::WaitFindings waits;
  analysis::WaitLinkCounts links;
  std::vector<analysis::FenceRewind> rewinds;
  analysis::PreemptionStats preemption;  // seed 004
  analysis::PgoSeries pgo;               // seed 000
  analysis::BackgroundStats background;  // seed 000
  analysis::WaitLatency latency;
  // full only
  analysis::CriticalPath critical_path;
  analysis::IdleGaps gaps;
  analysis::HazardAnalysis hazards;
  // What pays, ranked (core/replay/opportunities.h): computed by ComputeOpportunities, not by
  // AnalyseTrace (each is a replay of the trace), for `report` and the window.
  replay::Opportunities opportunities;
  // Per (packet name, queue) run-time statistics over the whole trace, by total_ns descending.
  // Full only: one duration per packet sorted per name, about the cost of the latency figures.
  std::vector<analysis::PacketNameStats> packet_stats;
  std::vector<analysis::HeldWait> longest_waits;  // kLongestWaits of them, longest first
  // CUDA-style launch figures: which call launched each packet (empty without cpu_launch
  // flows), the launch delay and the queue length per queue.
  analysis::LaunchCalls launches;
  analysis::LaunchDelays launch_delays;
  analysis::QueueLengths queue_lengths;

  uint64_t Count(core::model::EventKind kind) const {
    return kind_counts[static_cast<size_t>(kind) & 0xFF];
  }
  std::string QueueName(core::model::QueueId id) const;
  // What makes a queue the same queue in another trace of the same program (`compare` matches
  // queues on it): "adapter / engine / queue name", then the ids its source gave it, when it
  // gave any: the pid of its process and the handles of its contexts, e.g.
  // "dGPU / dGPU 3D / Graphics [pid 1000, context 1]". Display names alone may repeat.
  std::string QueueIdentity(core::model::QueueId id) const;
  std::string ThreadName(core::model::ThreadId id) const;
  std::string FenceName(core::model::FenceId id) const;
  // "queue name" for a signal source: the queue, "CPU" for a CPU signal, "none" when unlinked.
  std::string SignallerName(core::model::QueueId id, bool cpu) const;
  // Queues that did nothing in the capture: no packet submitted or started and no GPU wait
  // held them (e.g. CUDA streams whose events were only waited on). The text reports name them
  // in one line instead of a row of zeros in every per-queue table; the JSON keeps every queue.
  bool IsQuietQueue(core::model::QueueId id) const;
  std::vector<core::model::QueueId> QuietQueues() const;
  // "N queues did nothing in the capture ...: A, B." or "" when every queue did something.
  std::string QuietQueuesSentence() const;
  // Said with the queue pairs when the trace holds stream waits that could not be placed
  // (cudaStreamWaitEvent calls of a Kineto trace without cuda_sync events, or of an Nsight
  // Systems export without their SYNCHRONIZATION rows): their waiting is in no figure. Empty
  // when there are none.
  std::string UnplacedWaitsSentence() const;
  // How many such waits (the import problems kineto_stream_wait_without_sync and
  // nsys_stream_wait_without_sync).
  uint64_t UnplacedStreamWaits() const;
  // The queue pairs section's sentence when no pair exists: no queue was held by a wait, or,
  // where waits could not be placed, no placed wait held one.
  std::string NoQueuePairsSentence() const;
  // Instead of the gap classes when no packet of the trace has a launch call (D3D12, ETW and
  // ftrace traces): every gap would be "unlinked".
  std::string NoLaunchCallsGapSentence() const;
  // The queue's name, or "thread <name>" when queue is 0 (without repeating "thread" when the
  // thread's own name begins with it).
  std::string TrackName(core::model::QueueId queue, core::model::ThreadId thread) const;
  // What a queue waited on in a host synchronisation: "cudaStreamSynchronize on main"
  // (the call, when known; the fence, when the CPU wait names one).
  std::string SyncName(const analysis::SyncGapTotal& sync) const;
  // "signaller -> waiter" of a per-queue-pair latency group.
  std::string PairName(const analysis::LatencyGroup& group) const;
};

// Display names from the trace's topology tables, with "queue 7" / "thread 3" / "fence 2" when
// the id is not in them. ReportData's methods of the same names call these.
std::string QueueName(const core::store::TraceStore& store, core::model::QueueId id);
std::string ThreadName(const core::store::TraceStore& store, core::model::ThreadId id);
std::string FenceName(const core::store::TraceStore& store, core::model::FenceId id);

// Progress: fraction in [0, 1] of the analysis work. May be empty.
using AnalyseProgress = std::function<void(double fraction)>;

// `store` must outlive the result. path_until: the time the critical path is walked back from
// (kUnknownTime: the end of the last run segment).
ReportData AnalyseTrace(const core::store::TraceStore& store, bool full,
                        const AnalyseProgress& progress = {},
                        core::model::TimeNs path_until = analysis::kUnknownTime);

// What a reader of the summaries and the findings needs (the window): the `stats` analyses plus
// the resource hazards, so that CollectFindings gives exactly the report's list. The per-item
// analyses of a full report (critical path, idle-gap pieces, launch figures, packet statistics)
// are left out: the window computes those per selected range with the same core functions.
ReportData AnalyseForFindings(const core::store::TraceStore& store,
                              const AnalyseProgress& progress = {});

// The same two from a reconstruction already made of `store` (read from the trace's packed
// cache, core/cache/cached_trace.h).
ReportData AnalyseReconstructed(const core::store::TraceStore& store,
                                analysis::Reconstruction recon, bool full,
                                const AnalyseProgress& progress = {},
                                core::model::TimeNs path_until = analysis::kUnknownTime);
ReportData AnalyseForFindings(const core::store::TraceStore& store,
                              analysis::Reconstruction recon, const AnalyseProgress& progress = {});

// The analyses in place, for a caller that reads `d.recon` on another thread meanwhile (it is
// not moved): `d.store` and `d.recon` set, every analysis of `set` filled in.
enum class AnalysisSet {
  kStats,     // AnalyseReconstructed(full = false)
  kFindings,  // AnalyseForFindings
  kFull,      // AnalyseReconstructed(full = true)
};
void AnalyseInPlace(ReportData& d, AnalysisSet set, const AnalyseProgress& progress = {},
                    core::model::TimeNs path_until = analysis::kUnknownTime);

// Fills d.opportunities from a full analysis (its critical path and longest waits) of a store
// with every event column.
// `progress` as FindOpportunities (core/replay/opportunities.h) takes it.
void ComputeOpportunities(ReportData& d, const std::function<void(double)>& progress = {});

}  // namespace core::report
