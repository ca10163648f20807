#include "core/report/report_data.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <future>

namespace core::report {

std::string QueueName(const core::store::TraceStore& store, core::model::QueueId id) {
  const auto* q = store.FindQueue(id);
  return q ? q->name : fmt::format("queue {}", id);
}

std::string ReportData::QueueIdentity(core::model::QueueId id) const {
  const auto* q = store->FindQueue(id);
  if (!q) return QueueName(id);
  const auto* adapter = store->FindAdapter(q->adapter);
  const auto* engine = store->FindEngine(q->engine);
  std::string identity = fmt::format("{} / {} / {}", adapter ? adapter->name : "",
                                     engine ? engine->name : "", q->name);
  std::vector<std::string> source_ids;
  if (const auto* process = store->FindProcess(q->process)) {
    source_ids.push_back(fmt::format("pid {}", process->pid));
  }
  for (const auto& context : store->contexts) {
    if (context.queue == id) source_ids.push_back(fmt::format("context {}", context.handle));
  }
  if (!source_ids.empty()) identity += fmt::format(" [{}]", fmt::join(source_ids, ", "));
  return identity;
}

std::string ThreadName(const core::store::TraceStore& store, core::model::ThreadId id) {
  const auto* t = store.FindThread(id);
  return t ? t->name : fmt::format("thread {}", id);
}

std::string FenceName(const core::store::TraceStore& store, core::model::FenceId id) {
  const auto* f = store.FindFence(id);
  return f ? f->name : fmt::format("fence {}", id);
}

std::string ReportData::QueueName(core::model::QueueId id) const {
  return report::QueueName(*store, id);
}

std::string ReportData::ThreadName(core::model::ThreadId id) const {
  return report::ThreadName(*store, id);
}

std::string ReportData::FenceName(core::model::FenceId id) const {
  return report::FenceName(*store, id);
}

std::string ReportData::SignallerName(core::model::QueueId id, bool cpu) const {
  if (id != 0) return QueueName(id);
  return cpu ? "CPU" : "none";
}

std::string ReportData::TrackName(core::model::QueueId queue, core::model::ThreadId thread) const {
  if (queue != 0) return QueueName(queue);
  return core::model::ThreadTrackName(ThreadName(thread));
}

bool ReportData::IsQuietQueue(core::model::QueueId id) const {
  for (const analysis::QueueTime& t : queue_time.queues) {
    if (t.queue != id) continue;
    return t.counts.submitted == 0 && t.counts.started == 0 && t.busy_ns == 0 &&
           t.waiting_ns == 0;
  }
  return false;
}

std::string ReportData::QuietQueuesSentence() const {
  std::vector<std::string> names;
  for (core::model::QueueId id : QuietQueues()) names.push_back(QueueName(id));
  if (names.empty()) return {};
  return fmt::format(
      "{} {} nothing in the capture (no packet, no wait; left out of the per-queue tables): "
      "{}.",
      names.size(), names.size() == 1 ? "queue did" : "queues did", fmt::join(names, ", "));
}

namespace {

// The import problems that count cudaStreamWaitEvent calls no wait was placed for, each with
// why, as the sentence says it.
struct UnplacedWaitSource {
  std::string_view problem;
  std::string_view why;  // "{0}": them / it
};
constexpr UnplacedWaitSource kUnplacedWaitSources[] = {
    {"kineto_stream_wait_without_sync", "Kineto wrote no cuda_sync event for {0}"},
    {"nsys_stream_wait_without_sync",
     "the Nsight Systems export has no SYNCHRONIZATION row for {0}"},
};

}  // namespace

uint64_t ReportData::UnplacedStreamWaits() const {
  uint64_t unplaced = 0;
  for (const core::store::ImportProblem& p : store->problems) {
    for (const UnplacedWaitSource& source : kUnplacedWaitSources) {
      if (p.name == source.problem) unplaced += p.count;
    }
  }
  return unplaced;
}

std::string ReportData::UnplacedWaitsSentence() const {
  const uint64_t unplaced = UnplacedStreamWaits();
  if (unplaced == 0) return {};
  const bool one = unplaced == 1;
  const char* them = one ? "it" : "them";
  std::vector<std::string> why;
  for (const UnplacedWaitSource& source : kUnplacedWaitSources) {
    for (const core::store::ImportProblem& p : store->problems) {
      if (p.name == source.problem && p.count > 0) {
        why.push_back(fmt::format(fmt::runtime(source.why), them));
        break;
      }
    }
  }
  return fmt::format(
      "{0} cudaStreamWaitEvent {1} in this trace {2} neither the waiting stream nor the event ({4}"
      "): no wait was placed for {3}, so the time streams waited for each other through {3} is "
      "in none of these figures.",
      unplaced, one ? "call" : "calls", one ? "names" : "name", them, fmt::join(why, "; "));
}

std::string ReportData::NoQueuePairsSentence() const {
  const std::string unplaced = UnplacedWaitsSentence();
  if (unplaced.empty()) return "No queue was held by a wait in this trace.";
  return "No queue was held by a wait placed in this trace. " + unplaced;
}

std::string ReportData::NoLaunchCallsGapSentence() const {
  return "No packet has a launch call in this trace, so its gaps cannot be told apart by the "
         "launch (host wait, kernel wait, other): the idle-gap attribution says what held each "
         "queue.";
}

std::vector<core::model::QueueId> ReportData::QuietQueues() const {
  std::vector<core::model::QueueId> quiet;
  for (const analysis::QueueTime& t : queue_time.queues) {
    if (IsQuietQueue(t.queue)) quiet.push_back(t.queue);
  }
  return quiet;
}

std::string ReportData::SyncName(const analysis::SyncGapTotal& sync) const {
  std::string out = sync.call != 0 ? store->String(sync.call) : std::string("CPU wait");
  out += " on " + ThreadName(sync.thread);
  if (sync.fence != 0) out += " (" + FenceName(sync.fence) + ")";
  return out;
}

std::string ReportData::PairName(const analysis::LatencyGroup& g) const {
  return fmt::format("{} -> {}", SignallerName(g.from, g.from == 0),
                     g.cpu ? ThreadName(g.to_thread) : QueueName(g.to_queue));
}

ReportData AnalyseTrace(const core::store::TraceStore& store, bool full,
                        const AnalyseProgress& progress, core::model::TimeNs path_until) {
  if (progress) progress(0.05);
  analysis::Reconstruction recon = analysis::Reconstruct(store);
  return AnalyseReconstructed(store, std::move(recon), full, progress, path_until);
}

ReportData AnalyseReconstructed(const core::store::TraceStore& store,
                                analysis::Reconstruction recon, bool full,
                                const AnalyseProgress& progress, core::model::TimeNs path_until) {
  ReportData d;
  d.store = &store;
  d.recon = std::move(recon);
  AnalyseInPlace(d, full ? AnalysisSet::kFull : AnalysisSet::kStats, progress, path_until);
  return d;
}

void AnalyseInPlace(ReportData& d, AnalysisSet set, const AnalyseProgress& progress,
                    core::model::TimeNs path_until) {
  using namespace core::analysis;  // NOLINT
  const core::store::TraceStore& store = *d.store;
  const bool full = set == AnalysisSet::kFull;
  d.full = full;
  auto step = [&](double fraction) {
    if (progress) progress(set == AnalysisSet::kFindings ? 0.8 * fraction : fraction);
  };
  for (auto kind : store.events.kind) ++d.kind_counts[static_cast<size_t>(kind) & 0xFF];
  step(full ? 0.35 : 0.6);
  // A full report's per-item analyses that need nothing but the reconstruction run on a thread
  // of their own meanwhile (each analysis fills its own member of d; both threads only read the
  // store and the reconstruction). Progress is reported from this thread only. The future waits
  // for its task when it goes, also when an analysis here throws.
  std::future<void> beside;
  if (full) {
    beside = std::async(std::launch::async, [&d, &store, path_until] {
      d.critical_path = ComputeCriticalPath(d.recon, path_until);
      d.hazards = FindResourceHazards(store, d.recon);
      d.packet_stats = ComputePacketStats(store, d.recon);
      d.longest_waits = LongestWaits(d.recon, IndexPacketCompletions(d.recon), kLongestWaits);
    });
  }
  d.queue_time = ComputeQueueTime(store, d.recon);
  d.interrupts = ComputeInterrupts(d.recon);
  d.overruns = ComputeOverruns(store, d.recon);
  d.waits = FindWaitProblems(d.recon);
  d.links = CountWaitLinks(d.recon);
  d.rewinds = FindFenceRewinds(store, d.recon);
  d.preemption = ComputePreemptionStats(store, d.recon);
  // The PGO series is cheap (one pass over tasks, packets and mode changes) and `stats` needs
  // it for the background block.
  d.pgo = ComputePgoSeries(store, d.recon);
  d.background = ComputeBackgroundStats(store, d.recon, d.pgo);
  d.latency = ComputeWaitLatency(d.recon);
  step(full ? 0.6 : 1.0);
  if (set == AnalysisSet::kFindings) {
    d.hazards = FindResourceHazards(store, d.recon);
    if (progress) progress(1.0);
  }
  if (!full) return;
  d.launches = FindLaunchCalls(store, d.recon);
  d.gaps = AttributeIdleGaps(store, d.recon, d.launches);
  d.launch_delays = ComputeLaunchDelays(store, d.recon, d.launches);
  d.queue_lengths = ComputeQueueLengths(store, d.recon, d.launches);
  step(0.8);
  beside.get();
  step(1.0);
}

ReportData AnalyseForFindings(const core::store::TraceStore& store,
                              const AnalyseProgress& progress) {
  return AnalyseForFindings(store, analysis::Reconstruct(store), progress);
}

ReportData AnalyseForFindings(const core::store::TraceStore& store,
                              analysis::Reconstruction recon, const AnalyseProgress& progress) {
  ReportData d;
  d.store = &store;
  d.recon = std::move(recon);
  AnalyseInPlace(d, AnalysisSet::kFindings, progress);
  return d;
}

void ComputeOpportunities(ReportData& d, const std::function<void(double)>& progress) {
  d.opportunities =
      replay::FindOpportunities(*d.store, d.recon, d.critical_path, d.longest_waits, progress);
}

}  // namespace core::report
