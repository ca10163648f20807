#include "core/report/report_json.h"

#include "core/replay/whatif.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/model/event_types.h"
#include "core/replay/whatif.h"
#include "core/report/exported_by.h"
#include "core/report/queue_streams.h"
#include "core/report/findings.h"
#include "core/report/import_problems_report.h"
#include "core/report/launch_json.h"
#include "core/report/report_sections.h"

namespace core::report {
namespace {

using namespace core::analysis;  // NOLINT

Json PercentilesJson(const Percentiles& p) {
  Json j = Json::Object();
  SetPercentiles(j, p);
  return j;
}

Json LatencyGroupJson(const ReportData& d, const LatencyGroup& g, bool pair) {
  Json j = Json::Object();
  j.Set("kind", g.cpu ? "cpu" : "gpu");
  if (pair) {
    j.Set("from", d.SignallerName(g.from, g.from == 0));
    j.Set("to", g.cpu ? d.ThreadName(g.to_thread) : d.QueueName(g.to_queue));
  } else {
    j.Set("fence", d.FenceName(g.fence));
    j.Set("fence_id", g.fence);
  }
  j.Set("to_signal", PercentilesJson(g.to_signal));
  j.Set("to_unblock", PercentilesJson(g.to_unblock));
  j.Set("to_unblock_before_reached", PercentilesJson(g.before_reached));
  j.Set("to_unblock_after_reached", PercentilesJson(g.after_reached));
  j.Set("total", PercentilesJson(g.total));
  return j;
}

Json HistogramJson(const Log2Histogram& h) {
  Json j = Json::Array();
  for (size_t k = 0; k < h.counts.size(); ++k) {
    Json bucket = Json::Object();
    bucket.Set("from_ns", Log2Histogram::BucketLow(k));
    bucket.Set("count", h.counts[k]);
    j.Push(std::move(bucket));
  }
  return j;
}

Json LatencyJson(const ReportData& d) {
  const WaitLatency& l = d.latency;
  Json j = Json::Object();
  j.Set("method",
        "nearest-rank percentiles over the waits unblocked / released in the span; to_signal = "
        "queued -> releasing signal executed (0 when it had executed before), to_unblock = "
        "signal executed -> unblocked/released, split at the time the waiter reached the wait "
        "(GPU: the observed time, else the end of the queue's previous packet; CPU: the wait's "
        "begin) into to_unblock_before_reached (the waiter was not there yet: its queue still "
        "busy) and to_unblock_after_reached (wait reached -> unblocked); total = queued -> "
        "unblocked");
  j.Set("gpu", LatencyGroupJson(d, l.gpu, false));
  j.Set("cpu", LatencyGroupJson(d, l.cpu, false));
  Json per_fence = Json::Array();
  for (const auto& g : l.per_fence) per_fence.Push(LatencyGroupJson(d, g, false));
  j.Set("per_fence", std::move(per_fence));
  Json per_pair = Json::Array();
  for (const auto& g : l.per_queue_pair) per_pair.Push(LatencyGroupJson(d, g, true));
  j.Set("per_queue_pair", std::move(per_pair));
  Json hist = Json::Object();
  hist.Set("gpu_to_signal", HistogramJson(l.gpu_to_signal_hist));
  hist.Set("gpu_to_unblock", HistogramJson(l.gpu_to_unblock_hist));
  hist.Set("cpu_to_signal", HistogramJson(l.cpu_to_signal_hist));
  hist.Set("cpu_to_unblock", HistogramJson(l.cpu_to_unblock_hist));
  j.Set("histograms", std::move(hist));
  j.Set("unlinked_waits", l.unlinked);
  return j;
}

Json CriticalPathJson(const ReportData& d) {
  const CriticalPath& p = d.critical_path;
  Json j = Json::Object();
  j.Set("start_ns", p.start);
  j.Set("end_ns", p.end);
  j.Set("length_ns", p.Length());
  j.Set("shares", ObjectArray(p.shares, [&](Json& share, const PathShare& s) {
          share.Set("track", s.queue ? "queue" : "thread");
          share.Set("name", s.queue ? d.QueueName(s.queue) : d.ThreadName(s.thread));
          share.Set("ns", s.ns);
          share.Set("share", s.share);
          share.Set("running_ns", s.running_ns);
        }));
  j.Set("steps_total", static_cast<uint64_t>(p.steps.size()));
  Json steps = Json::Array();
  // the latest steps matter most: keep the tail when capping
  size_t first = p.steps.size() > kMaxListedPathSteps ? p.steps.size() - kMaxListedPathSteps : 0;
  for (size_t i = first; i < p.steps.size(); ++i) {
    const PathStep& s = p.steps[i];
    Json step = Json::Object();
    step.Set("kind", PathStepKindName(s.kind));
    step.Set("track", s.queue ? d.QueueName(s.queue) : d.ThreadName(s.thread));
    step.Set("start_ns", s.start);
    step.Set("end_ns", s.end);
    const uint32_t packet = s.NamedPacket();
    step.Set("name", packet != kNoIndex ? d.store->String(d.recon.packets[packet].name) : "");
    if (s.signal != kNoIndex) {
      const SignalBox& sig = d.recon.signals[s.signal];
      step.Set("fence", d.FenceName(sig.fence));
      step.Set("value", sig.value);
    }
    steps.Push(std::move(step));
  }
  j.Set("steps", std::move(steps));
  return j;
}

// The waits held longest, each with the signal and the packet that released it.
Json LongestWaitsJson(const ReportData& d) {
  return ObjectArray(d.longest_waits, [&](Json& x, const HeldWait& w) {
    x.Set("kind", w.cpu ? "cpu" : "gpu");
    x.Set("waiting", w.cpu ? d.ThreadName(w.thread) : d.QueueName(w.queue));
    x.Set("fence", d.FenceName(w.fence));
    x.Set("value", w.value);
    x.Set("start_ns", w.start);
    x.Set("end_ns", w.end);
    x.Set("held_ns", w.Held());
    const bool signal = w.signal != kNoIndex;
    const SignalBox sig = signal ? d.recon.signals[w.signal] : SignalBox{};
    x.Set("released_by", signal ? d.SignallerName(sig.queue, sig.cpu) : "none");
    x.Set("signal_executed_ns", signal && sig.executed != kUnknownTime ? sig.executed : 0);
    x.Set("released_by_packet",
          w.packet != kNoIndex ? d.store->String(d.recon.packets[w.packet].name) : "");
    x.Set("link", !signal ? "none" : w.link_inferred ? "inferred" : "from_trace");
  });
}

Json PacketStatsJson(const ReportData& d) {
  return ObjectArray(d.packet_stats, [&](Json& x, const PacketNameStats& row) {
    x.Set("name", d.store->String(row.name));
    x.Set("queue", d.QueueName(row.queue));
    x.Set("count", row.count);
    x.Set("total_ns", row.total_ns);
    x.Set("mean_ns", row.mean_ns);
    x.Set("p50_ns", row.p50_ns);
    x.Set("p99_ns", row.p99_ns);
    x.Set("max_ns", row.max_ns);
  });
}

Json PgoJson(const ReportData& d) {
  return ObjectArray(d.pgo.passes, [&](Json& pass, const PgoPass& p) {
    pass.Set("boundary", d.pgo.boundary == PgoBoundary::kVariantApplied ? "variant_applied"
                                                                           : "mode_changed");
    pass.Set("start_ns", p.start);
    pass.Set("end_ns", p.end);
    pass.Set("call_id", p.call_id);
    pass.Set("mode", std::string(BackgroundModeName(p.mode)));  // in force during the pass
    pass.Set("requested_mode", std::string(BackgroundModeName(p.requested_mode)));
    pass.Set("action", std::string(MeasurementsActionName(p.action)));
    pass.Set("further_measurements_desired", p.further_measurements_desired);
    pass.Set("further_measurements_desired_known", p.further_measurements_known);
    pass.Set("refused", p.refused);
    pass.Set("tasks_queued", p.tasks_queued);
    pass.Set("tasks_finished", p.tasks_finished);
    pass.Set("tasks_cancelled", p.tasks_cancelled);
    pass.Set("packets", p.packets);
    pass.Set("instrumented_packets", p.instrumented_packets);
    pass.Set("variant_packets", p.variant_packets);
    pass.Set("mean_packet_ns", p.mean_packet_ns);
    pass.Set("pgo_packets", p.pgo_packets);
    pass.Set("mean_pgo_packet_ns", p.mean_pgo_packet_ns);
    pass.Set("variants_applied", p.variants_applied);
  });
}

Json FindingsJson(const ReportData& d) {
  std::vector<Finding> all = CollectFindings(d);
  Json j = Json::Object();
  j.Set("count", static_cast<uint64_t>(all.size()));
  j.Set("waits_never_unblocked", static_cast<uint64_t>(d.waits.never_unblocked.size()));
  j.Set("wait_cycles", static_cast<uint64_t>(d.waits.cycles.size()));
  j.Set("stuck_after_rewind", static_cast<uint64_t>(d.waits.stuck_after_rewind.size()));
  j.Set("signal_not_in_capture", static_cast<uint64_t>(d.waits.signal_not_in_capture.size()));
  j.Set("overrun_windows", static_cast<uint64_t>(d.overruns.windows.size()));
  j.Set("hazards", d.hazards.hazards);
  j.Set("rewinds", static_cast<uint64_t>(d.rewinds.size()));
  j.Set("tdrs", static_cast<uint64_t>(d.recon.tdrs.size()));
  Json list = Json::Array();
  for (size_t i = 0; i < all.size() && i < kMaxListedFindings; ++i) {
    Json f = Json::Object();
    f.Set("kind", all[i].kind);
    f.Set("ts_ns", all[i].ts);
    f.Set("end_ns", all[i].end);
    f.Set("message", all[i].message);
    list.Push(std::move(f));
  }
  j.Set("list", std::move(list));
  return j;
}

}  // namespace

void SetPercentiles(Json& j, const Percentiles& p) {
  j.Set("count", p.count);
  j.Set("p50_ns", p.p50);
  j.Set("p90_ns", p.p90);
  j.Set("p99_ns", p.p99);
  j.Set("max_ns", p.max);
  j.Set("mean_ns", p.mean);
}

Json StatsJson(const ReportData& d) {
  const auto& store = *d.store;
  Json j = Json::Object();
  j.Set("schema_version", static_cast<int64_t>(std::stoll(store.MetaOr("schema_version", "1"))));
  j.Set("source", store.MetaOr("source", ""));
  if (auto by = ExportedBy(store); !by.empty()) j.Set("exported_by", by);
  j.Set("duration_ns", std::max<int64_t>(0, d.recon.end_ns - d.recon.start_ns));
  j.Set("start_ns", d.recon.start_ns);  // the span the figures cover, on the trace's time base
  j.Set("end_ns", d.recon.end_ns);
  j.Set("events", static_cast<uint64_t>(store.events.size()));
  Json present = Json::Array();
  for (const std::string& name : SectionNames(SectionsOf(d))) present.Push(name);
  j.Set("sections_present", std::move(present));
  Json queues = Json::Array();
  for (const QueueTime& t : d.queue_time.queues) {
    const auto* q = store.FindQueue(t.queue);
    const auto* adapter = q ? store.FindAdapter(q->adapter) : nullptr;
    const auto* engine = q ? store.FindEngine(q->engine) : nullptr;
    Json queue = Json::Object();
    queue.Set("name", q ? q->name : "");
    queue.Set("adapter", adapter ? adapter->name : "");
    queue.Set("engine", engine ? engine->name : "");
    queue.Set("type", q ? std::string(QueueTypeName(q->type)) : "");
    queue.Set("identity", d.QueueIdentity(t.queue));
    queue.Set("packets", t.packets);  // submitted, as packets_submitted
    queue.Set("packets_submitted", t.counts.submitted);
    queue.Set("packets_started", t.counts.started);
    queue.Set("packets_completed", t.counts.completed);
    queue.Set("packets_running_at_end", t.counts.running_at_end);
    queue.Set("signals_executed", t.signals_executed);
    queue.Set("waits_unblocked", t.waits_unblocked);
    queue.Set("busy_ns", t.busy_ns);
    queue.Set("waiting_ns", t.waiting_ns);
    queue.Set("idle_ns", t.idle_ns);
    if (q) {
      if (std::string streams = QueueStreams(store, q->name); !streams.empty()) {
        queue.Set("streams", streams);  // the streams this hardware queue carried
      }
    }
    queues.Push(std::move(queue));
  }
  j.Set("queues", std::move(queues));
  j.Set("latency", LatencyJson(d));

  uint64_t gpu_never = 0, cpu_never = 0;
  for (const auto& p : d.waits.never_unblocked) (p.cpu ? cpu_never : gpu_never)++;
  Json fences = Json::Object();
  fences.Set("objects", static_cast<uint64_t>(store.fences.size()));
  fences.Set("signals_queued", d.Count(EventKind::FenceSignalQueued));
  fences.Set("signals_executed", d.Count(EventKind::FenceSignalExecuted));
  fences.Set("cpu_signals", d.Count(EventKind::FenceCpuSignal));
  fences.Set("gpu_waits_queued", d.Count(EventKind::FenceWaitQueued));
  fences.Set("gpu_waits_unblocked", d.Count(EventKind::FenceWaitUnblocked));
  fences.Set("cpu_waits", d.Count(EventKind::CpuWaitBegin));
  fences.Set("cpu_waits_released", d.Count(EventKind::CpuWaitReleased));
  // Open waits at the end, one category each (core/analysis/wait_findings.h): never_unblocked
  // (nothing in the trace can release them: the CI gate), unprocessed_at_end (value reached),
  // pending_at_end (a queued signal would release them), signal_not_in_capture (the value was
  // reached by a signal outside the trace), stuck_after_rewind (the fence was lowered below).
  fences.Set("waits_never_unblocked", gpu_never + cpu_never);
  fences.Set("gpu_waits_never_unblocked", gpu_never);
  fences.Set("cpu_waits_never_released", cpu_never);
  fences.Set("waits_unprocessed_at_end", static_cast<uint64_t>(d.waits.unprocessed_at_end.size()));
  fences.Set("waits_pending_at_end", static_cast<uint64_t>(d.waits.pending_at_end.size()));
  fences.Set("waits_signal_not_in_capture",
             static_cast<uint64_t>(d.waits.signal_not_in_capture.size()));
  fences.Set("waits_stuck_after_rewind", static_cast<uint64_t>(d.waits.stuck_after_rewind.size()));
  // Every wait that nothing in or after the trace can release: the CI gate for "something is
  // stuck". A wait stuck after a rewind hangs its queue or thread as surely as one never
  // signalled; waits_never_unblocked keeps its narrower meaning (keys are never renamed).
  fences.Set("waits_stuck", static_cast<uint64_t>(d.waits.Stuck()));
  fences.Set("rewinds", static_cast<uint64_t>(d.rewinds.size()));
  // Waits whose releasing signal (or, for CUDA, the recorded work) is known; *_inferred: the
  // importer worked the link out (ReleaseLink::kInferred) rather than read it from the capture.
  fences.Set("gpu_waits_linked", d.links.gpu_waits_linked);
  fences.Set("gpu_waits_linked_inferred", d.links.gpu_waits_linked_inferred);
  fences.Set("cpu_waits_linked", d.links.cpu_waits_linked);
  fences.Set("cpu_waits_linked_inferred", d.links.cpu_waits_linked_inferred);
  // GPU waits the trace holds but names too little of to place (cudaStreamWaitEvent calls of a
  // Kineto trace without cuda_sync events): in no queue's waiting time.
  fences.Set("gpu_waits_not_placed", d.UnplacedStreamWaits());
  j.Set("fences", std::move(fences));

  const InterruptAnalysis& x = d.interrupts;
  Json interrupts = Json::Object();
  interrupts.Set("total", x.total);
  interrupts.Set("with_waiters_released", x.with_waiters_released);
  interrupts.Set("spurious", x.spurious);
  interrupts.Set("spurious_ratio", x.spurious_ratio);
  interrupts.Set("per_signal", x.per_signal);
  interrupts.Set("optimized", x.optimized);
  interrupts.Set("scan_all", x.scan_all);
  interrupts.Set("peak_per_ms", x.peak_per_ms);  // most interrupts in any 1 ms
  j.Set("interrupts", std::move(interrupts));

  // Every log_overrun record is one missing window of the reconstruction (with its
  // entries_lost clamped at 0), so the analysis's sum is the records' sum.
  const uint64_t entries_lost = d.overruns.entries_lost;
  Json logs = Json::Object();
  logs.Set("entries_written", d.Count(EventKind::LogWrite));
  logs.Set("overruns", d.Count(EventKind::LogOverrun));
  logs.Set("entries_lost", entries_lost);
  logs.Set("fallback_scans", d.Count(EventKind::LogFallbackScan));
  j.Set("log_buffers", std::move(logs));

  // seed 004: preemption requests, their latency (request -> preemption point + context save)
  // and TDRs; the granularities are the first adapter's, as lower-case names.
  const PreemptionStats& p = d.preemption;
  Json preemption = Json::Object();
  preemption.Set("requests", p.requests);
  preemption.Set("completed", p.completed);
  preemption.Set("packets_preempted", p.packets_preempted);
  preemption.Set("preemptions", p.preemptions);
  preemption.Set("max_latency_ns", p.latency.max);
  preemption.Set("p99_latency_ns", p.latency.p99);
  preemption.Set("tdrs", p.tdrs);
  preemption.Set("granularity_graphics",
                 std::string(PreemptionGranularityName(p.granularity_graphics)));
  preemption.Set("granularity_compute",
                 std::string(PreemptionGranularityName(p.granularity_compute)));
  j.Set("preemption", std::move(preemption));

  // seed 000: background (PGO) tasks on runtime-owned threads and how the driver converged.
  const BackgroundStats& b = d.background;
  Json background = Json::Object();
  background.Set("tasks_queued", b.tasks_queued);
  background.Set("tasks_started", b.tasks_started);
  background.Set("tasks_finished", b.tasks_finished);
  background.Set("tasks_cancelled", b.tasks_cancelled);
  background.Set("tasks_abandoned", b.tasks_abandoned);
  background.Set("tasks_running_at_end", b.tasks_running_at_end);
  background.Set("tasks_waiting_at_end", b.tasks_waiting_at_end);
  background.Set("max_concurrent", b.max_concurrent);
  background.Set("api_errors", b.api_errors);
  background.Set("passes", b.passes);
  background.Set("converged", b.converged);
  background.Set("passes_to_converge", b.passes_to_converge);
  background.Set("time_to_converge_ns", b.time_to_converge_ns);
  background.Set("packet_time_first_pass_ns", b.packet_time_first_pass_ns);
  background.Set("packet_time_last_pass_ns", b.packet_time_last_pass_ns);
  j.Set("background", std::move(background));
  return j;
}

Json PreemptionLatencyJson(const ReportData& d) {
  return ObjectArray(d.preemption.per_granularity, [](Json& x, const GranularityLatency& g) {
    x.Set("granularity", std::string(PreemptionGranularityName(g.granularity)));
    x.Set("requests", g.requests);
    x.Set("completed", g.latency.count);
    x.Set("p50_ns", g.latency.p50);
    x.Set("p99_ns", g.latency.p99);
    x.Set("max_ns", g.latency.max);
  });
}

Json ReportJson(const ReportData& d) {
  Json j = StatsJson(d);
  j.Set("queue_pairs", ObjectArray(d.queue_time.pairs, [&](Json& pair, const QueuePairWait& p) {
          pair.Set("waiting", d.QueueName(p.waiting));
          pair.Set("signalling", d.SignallerName(p.signalling, p.cpu_signal));
          pair.Set("waiting_ns", p.waiting_ns);
          pair.Set("waits", p.waits);
        }));
  j.Set("idle_gaps", ObjectArray(d.gaps.per_queue, [&](Json& q, const QueueGaps& g) {
          q.Set("name", d.QueueName(g.queue));
          for (size_t c = 0; c < kGapCauses; ++c) {
            q.Set(std::string(GapCauseName(static_cast<GapCause>(c))) + "_ns", g.by_cause[c]);
          }
          q.Set("engine_busy_ns", g.engine_busy_ns);
          q.Set("waiting_on", FenceGapsJson(d, g.per_fence));
          q.Set("synchronised_on", SyncGapsJson(d, g.per_sync));
        }));
  j.Set("idle_split", IdleSplitJson(d));
  j.Set("launch_links", LaunchLinksJson(d));
  j.Set("launch_delay", LaunchDelayJson(d));
  j.Set("queue_length", QueueLengthJson(d));

  Json rate = Json::Object();
  rate.Set("bin_ns", d.interrupts.bin_ns);
  Json counts = Json::Array();
  for (uint64_t c : d.interrupts.count) counts.Push(c);
  rate.Set("counts", std::move(counts));
  rate.Set("per_fence", ObjectArray(d.interrupts.per_fence, [&](Json& x, const FenceInterrupts& f) {
             x.Set("fence", d.FenceName(f.fence));
             x.Set("interrupts", f.interrupts);
             x.Set("signals_executed", f.signals_executed);
           }));
  auto adapter_json = [&](Json& x, const AdapterInterrupts& a) {
    const auto* adapter = d.store->FindAdapter(a.adapter);
    x.Set("adapter", adapter ? adapter->name : "");
    x.Set("interrupts", a.total);
    x.Set("spurious", a.spurious);
    x.Set("optimized", a.optimized);
    x.Set("scan_all", a.scan_all);
    x.Set("waiters_released", a.waiters_released);
    x.Set("mean_per_ms", a.mean_per_ms);
    x.Set("peak_per_ms", a.peak_per_ms);
  };
  rate.Set("per_adapter", ObjectArray(d.interrupts.per_adapter, adapter_json));
  j.Set("interrupt_rate", std::move(rate));

  j.Set("critical_path", CriticalPathJson(d));
  j.Set("findings", FindingsJson(d));
  j.Set("pgo_series", PgoJson(d));
  j.Set("preemption_latency", PreemptionLatencyJson(d));
  j.Set("packet_stats", PacketStatsJson(d));
  j.Set("longest_waits", LongestWaitsJson(d));
  j.Set("import_problems", ImportProblemsJson(d));
  // What pays (each a replay; empty where not computed), and how closely the replay they come
  // from reproduces the trace.
  j.Set("opportunities", replay::OpportunitiesJson(d.opportunities));
  if (d.opportunities.computed) j.Set("replay", replay::FidelityJson(d.opportunities.fidelity));

  Json recon = Json::Object();
  recon.Set("packets", static_cast<uint64_t>(d.recon.packets.size()));
  recon.Set("signals", static_cast<uint64_t>(d.recon.signals.size()));
  recon.Set("waits", static_cast<uint64_t>(d.recon.waits.size()));
  recon.Set("cpu_waits", static_cast<uint64_t>(d.recon.cpu_waits.size()));
  recon.Set("background_tasks", static_cast<uint64_t>(d.recon.tasks.size()));
  Json problems = Json::Object();
  for (const LinkProblem& p : d.recon.problems) problems.Set(p.name, p.count);
  recon.Set("problems", std::move(problems));
  j.Set("reconstruction", std::move(recon));
  return j;
}

}  // namespace core::report
