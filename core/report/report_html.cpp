#include "core/report/report_html.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/report/exported_by.h"
#include "core/report/queue_streams.h"
#include "core/report/figure_labels.h"
#include "core/report/findings.h"
#include "core/report/html_parts.h"
#include "core/report/lead.h"
#include "core/report/report_html_launch.h"
#include "core/report/report_html_timeline.h"
#include "core/report/report_opportunities.h"
#include "core/report/report_json.h"
#include "core/report/import_problems_report.h"
#include "core/report/report_rows.h"
#include "core/report/report_sections.h"
#include "core/report/svg_chart.h"
#include "core/report/table_bounds.h"

namespace core::report {
namespace {

using namespace core::analysis;  // NOLINT


std::string HistogramSvg(const std::string& title, const Log2Histogram& a, const Log2Histogram& b) {
  size_t n = std::max(a.counts.size(), b.counts.size());
  std::vector<std::string> categories;
  BarSeries sa{kToSignal, kWaiting, {}};
  BarSeries sb{kToUnblock, kBusy, {}};
  // buckets below the first non-empty one (other than the zero bucket) carry nothing
  size_t first = 1;
  while (first < n && (first >= a.counts.size() || a.counts[first] == 0) &&
         (first >= b.counts.size() || b.counts[first] == 0)) {
    ++first;
  }
  for (size_t k = 0; k < n; k = k == 0 ? first : k + 1) {
    categories.push_back(k == 0 ? "0" : FormatDuration(static_cast<double>(Log2Histogram::BucketLow(k))));
    sa.values.push_back(k < a.counts.size() ? static_cast<double>(a.counts[k]) : 0);
    sb.values.push_back(k < b.counts.size() ? static_cast<double>(b.counts[k]) : 0);
  }
  return SvgBarChart(title, categories, {sa, sb}, "");
}

std::string PercentileCells(const Percentiles& p) {
  return fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td>", p.count,
                     FormatDuration(p.p50), FormatDuration(p.p90), FormatDuration(p.p99));
}

// p50 and p90 of the two parts of signal executed -> unblocked.
std::string SplitCells(const LatencyGroup& g) {
  return fmt::format("<td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                     FormatDuration(g.before_reached.p50), FormatDuration(g.before_reached.p90),
                     FormatDuration(g.after_reached.p50), FormatDuration(g.after_reached.p90));
}

// The header row of a latency table whose first columns are `first` (already-escaped cells).
std::string LatencyHeader(const std::string& first) {
  return fmt::format(
      "<table><tr>{}<th>n</th><th>{} p50</th><th>p90</th><th>p99</th><th>n</th><th>{} p50</th>"
      "<th>p90</th><th>p99</th><th>{} p50</th><th>p90</th><th>{} p50</th><th>p90</th></tr>\n",
      first, XmlEscape(kToSignal), XmlEscape(kToUnblock), XmlEscape(kBeforeReached),
      XmlEscape(kAfterReached));
}

std::string LatencyRow(const std::string& kind, const std::string& group, const LatencyGroup& g) {
  return fmt::format("<tr><td>{}</td><td>{}</td>{}{}{}</tr>\n", kind, XmlEscape(group),
                     PercentileCells(g.to_signal), PercentileCells(g.to_unblock), SplitCells(g));
}

// The groups with the most time waited (report_rows.h), and a line for the rest.
std::string LatencyTable(const ReportData& d, const std::vector<LatencyGroup>& groups, bool pair) {
  std::string out = LatencyHeader(std::string("<th>kind</th><th>") +
                                  (pair ? "signaller -&gt; waiter" : "fence") + "</th>");
  const Bounded<LatencyGroup> rows = LatencyRows(groups);
  for (const LatencyGroup* g : rows.shown) {
    out += LatencyRow(g->cpu ? "CPU" : "GPU", pair ? d.PairName(*g) : d.FenceName(g->fence), *g);
  }
  return out + "</table>\n" +
         MoreParagraph(MoreLine(rows.more, pair ? "pair" : "fence", pair ? "pairs" : "fences",
                                FormatDuration(rows.more_value) + " waited"));
}

std::string SummarySection(const ReportData& d, const Json& stats, const ReportSections& sections) {
  const auto& fences = *stats.Find("fences");
  const auto& irq = *stats.Find("interrupts");
  std::string out = Section("summary", "Summary") + "<table>\n";
  auto line = [&](const std::string& k, const std::string& v) { out += Row({k, v}); };
  line("trace", d.store->path.string());
  line("source", d.store->MetaOr("source", ""));
  if (auto by = ExportedBy(*d.store); !by.empty()) line("exported by", by);
  // An importer's note on what the capture lacks (ftrace: CPUs that started recording late).
  if (auto note = d.store->MetaOr("capture_note", ""); !note.empty()) line("capture", note);
  line("duration", FormatDuration(static_cast<double>(d.recon.end_ns - d.recon.start_ns)));
  line("events", std::to_string(d.store->events.size()));
  line("queues / fences", fmt::format("{} / {}", d.store->queues.size(), d.store->fences.size()));
  const PacketCounts packets = TotalPacketCounts(d.queue_time);
  line(fmt::format("{} / {} / {} / {}", kPacketsSubmitted, kPacketsStarted, kPacketsCompleted,
                   kPacketsRunningAtEnd),
       fmt::format("{} / {} / {} / {}", packets.submitted, packets.started, packets.completed,
                   packets.running_at_end));
  line("signals executed (GPU + CPU)",
       fmt::format("{} + {}", fences.Find("signals_executed")->Int(), fences.Find("cpu_signals")->Int()));
  line("GPU waits / CPU waits", fmt::format("{} / {}", fences.Find("gpu_waits_queued")->Int(),
                                             fences.Find("cpu_waits")->Int()));
  if (sections.interrupts) {
    line("interrupts (spurious)", fmt::format("{} ({}, {:.1f}%)", irq.Find("total")->Int(),
                                              irq.Find("spurious")->Int(),
                                              100 * irq.Find("spurious_ratio")->Number()));
    line("interrupts per GPU signal", fmt::format("{:.3f}", irq.Find("per_signal")->Number()));
  }
  line("waits stuck (the CI gate: fences.waits_stuck)",
       std::to_string(fences.Find("waits_stuck")->Int()));
  line("waits never unblocked", std::to_string(fences.Find("waits_never_unblocked")->Int()));
  line("waits stuck after a rewind",
       std::to_string(fences.Find("waits_stuck_after_rewind")->Int()));
  line("waits pending at the end (released if the trace went on)",
       std::to_string(fences.Find("waits_pending_at_end")->Int()));
  line("waits whose signal is not in the capture",
       std::to_string(fences.Find("waits_signal_not_in_capture")->Int()));
  line("wait cycles (deadlocks)", std::to_string(d.waits.cycles.size()));
  if (sections.log_buffers) line("log overruns", std::to_string(d.overruns.overruns));
  line("resource hazards", std::to_string(d.hazards.hazards));
  line("fence rewinds", std::to_string(d.rewinds.size()));
  line("critical path", FormatDuration(static_cast<double>(d.critical_path.Length())));
  return out + "</table>\n";
}

std::string QueueSection(const ReportData& d) {
  std::string out = Section("queues", "Queues: busy, waiting, idle") +
                    fmt::format("<table><tr><th>queue</th><th>type</th><th>{}</th><th>{}</th>"
                                "<th>{}</th><th>{}</th><th>busy</th><th>waiting</th><th>idle</th>"
                                "</tr>\n",
                                kPacketsSubmitted, kPacketsStarted, kPacketsCompleted,
                                kPacketsRunningAtEnd);
  std::vector<StackedRow> split, gaps;
  const Bounded<QueueTime> queues = QueueRows(d);
  std::vector<std::string> shown_names;
  for (const QueueTime* t : queues.shown) {
    shown_names.push_back(d.QueueName(t->queue));
    const auto* q = d.store->FindQueue(t->queue);
    out += Row({d.QueueName(t->queue), q ? std::string(QueueTypeName(q->type)) : "",
                std::to_string(t->counts.submitted), std::to_string(t->counts.started),
                std::to_string(t->counts.completed), std::to_string(t->counts.running_at_end),
                FormatDuration(t->busy_ns), FormatDuration(t->waiting_ns),
                FormatDuration(t->idle_ns)});
    split.push_back({d.QueueName(t->queue),
                     {double(t->busy_ns), double(t->waiting_ns), double(t->idle_ns)}});
  }
  out += "</table>\n" +
         MoreParagraph(MoreLine(queues.more, "queue", "queues",
                                FormatDuration(queues.more_value) + " busy"));
  if (std::string quiet = d.QuietQueuesSentence(); !quiet.empty()) {
    out += "<p>" + XmlEscape(quiet) + "</p>\n";
  }
  if (std::string streams = QueueStreamsSentence(*d.store, shown_names); !streams.empty()) {
    out += "<p>" + XmlEscape(streams) + "</p>\n";
  }
  out += SvgStackedBars("Time split per queue", {"busy", "waiting on a fence", "idle"},
                        {kBusy, kWaiting, kIdle}, split, "ns");
  out += Section("pairs", "Queue pairs: time one queue was held by another's signals");
  if (d.queue_time.pairs.empty()) {
    out += "<p>" + XmlEscape(d.NoQueuePairsSentence()) + "</p>\n";
  } else {
    out += "<table><tr><th>waiting queue</th><th>signalled by</th><th>held</th><th>waits</th>"
           "</tr>\n";
    const Bounded<QueuePairWait> pairs = PairRows(d);
    for (const QueuePairWait* p : pairs.shown) {
      out += Row({d.QueueName(p->waiting), d.SignallerName(p->signalling, p->cpu_signal),
                  FormatDuration(p->waiting_ns), std::to_string(p->waits)});
    }
    out += "</table>\n" + MoreParagraph(MoreLine(pairs.more, "queue pair", "queue pairs",
                                                  FormatDuration(pairs.more_value) + " held"));
    if (std::string unplaced = d.UnplacedWaitsSentence(); !unplaced.empty()) {
      out += "<p>" + XmlEscape(unplaced) + "</p>\n";
    }
  }
  out += Section("gaps", "Idle-gap attribution");
  out += "<p>Every idle nanosecond of a queue gets one cause. Launch-bound and synchronised "
         "apply where the next packet's launch call is known (a CPU launch flow, e.g. Kineto's "
         "ac2g): the launching thread had not yet returned from it, and was blocked in a CPU "
         "wait (synchronised) or not.</p>\n";
  std::vector<std::string> labels;
  for (size_t c = 0; c < kGapCauses; ++c) labels.push_back(GapCauseName(static_cast<GapCause>(c)));
  out += "<table><tr><th>queue</th>";
  for (const char* label : kGapCauseLabels) out += fmt::format("<th>{}</th>", XmlEscape(label));
  out += "<th>of which engine busy with another queue</th><th>fences waited on</th>"
         "<th>host syncs</th></tr>\n";
  const Bounded<QueueGaps> rows = GapRows(d);
  for (const QueueGaps* g : rows.shown) {
    std::vector<std::string> cells = {d.QueueName(g->queue)};
    StackedRow bar{d.QueueName(g->queue), {}};
    for (size_t c = 0; c < kGapCauses; ++c) {
      cells.push_back(FormatDuration(g->by_cause[c]));
      bar.values.push_back(static_cast<double>(g->by_cause[c]));
    }
    cells.insert(cells.end(), {FormatDuration(g->engine_busy_ns), FencesCell(d, g->per_fence),
                               SyncsCell(d, g->per_sync)});
    out += Row(cells);
    gaps.push_back(std::move(bar));
  }
  out += "</table>\n" + MoreParagraph(MoreLine(rows.more, "queue", "queues",
                                                FormatDuration(rows.more_value) + " idle"));
  out += SvgStackedBars("Idle time by cause", labels,
                        {kWaiting, kPreempted, kIdle, "#9090c0", "#c05050", "#b070d0"}, gaps, "ns");
  out += IdleSplitSection(d);
  return out;
}

std::string InterruptSection(const ReportData& d) {
  const InterruptAnalysis& x = d.interrupts;
  std::string out = Section("interrupts", "Interrupts");
  out += fmt::format("<p>{} interrupts, {} released a waiter, {} spurious ({:.1f}%), {:.3f} per "
                     "executed GPU signal; {} optimized (named a HWQueue), {} scanned every log of "
                     "the engine. Peak rate {} per ms (the most interrupts in any 1 ms).</p>\n",
                     x.total, x.with_waiters_released, x.spurious, 100 * x.spurious_ratio,
                     x.per_signal, x.optimized, x.scan_all, x.peak_per_ms);
  // x: time since the trace start (labelled in ms / us by the chart), y: mean rate per bin
  std::vector<double> t, per_ms;
  for (size_t i = 0; i < x.count.size(); ++i) {
    t.push_back((static_cast<double>(i) + 0.5) * static_cast<double>(x.bin_ns));
    per_ms.push_back(x.rate_per_s[i] / 1e3);
  }
  out += SvgLineChart(fmt::format("Interrupt rate over time (mean per {} bin, time since the "
                                  "trace start)",
                                  FormatDuration(static_cast<double>(x.bin_ns))),
                      t, "ns", {{"interrupts per ms", kMissing, per_ms, false}}, "/ms", "");
  out += "<table><tr><th>fence</th><th>interrupts</th><th>GPU signals executed</th></tr>\n";
  const Bounded<FenceInterrupts> fences = InterruptFenceRows(d);
  for (const FenceInterrupts* f : fences.shown) {
    out += Row({d.FenceName(f->fence), std::to_string(f->interrupts),
                std::to_string(f->signals_executed)});
  }
  return out + "</table>\n" +
         MoreParagraph(MoreLine(fences.more, "fence", "fences",
                                Thousands(static_cast<uint64_t>(fences.more_value)) +
                                    " interrupts"));
}

std::string LatencySection(const ReportData& d) {
  const WaitLatency& l = d.latency;
  std::string out = Section("latency", "Wait latency");
  if (l.gpu.total.count == 0 && l.cpu.total.count == 0) {
    return out + "<p>No GPU or CPU wait was released in the trace: no latency to show.</p>\n";
  }
  out += "<p>Each wait split in two: queued &rarr; releasing signal executed (waiting for the "
         "work), and signal executed &rarr; unblocked. " +
         XmlEscape(kToUnblockExplained) +
         " A wait queued after its signal executed has 0 to signal and counts from the signal's "
         "execution. Percentiles by nearest rank.</p>\n";
  out += LatencyHeader("<th>kind</th><th>group</th>");
  out += LatencyRow("GPU", "all", l.gpu);
  out += LatencyRow("CPU", "all", l.cpu);
  out += "</table>\n";
  out += HistogramSvg("GPU wait latency histogram (log2 buckets)", l.gpu_to_signal_hist,
                      l.gpu_to_unblock_hist);
  out += HistogramSvg("CPU wait latency histogram (log2 buckets)", l.cpu_to_signal_hist,
                      l.cpu_to_unblock_hist);
  out += "<h3>Per fence</h3>\n<p>The fences and the queue pairs whose waits took the most time "
         "(queued &rarr; unblocked, all waits added up).</p>\n";
  out += LatencyTable(d, l.per_fence, false);
  out += "<h3>Per queue pair</h3>\n";
  out += LatencyTable(d, l.per_queue_pair, true);
  return out;
}

std::string PathSection(const ReportData& d) {
  const CriticalPath& p = d.critical_path;
  std::string out = Section("critical-path", "Critical path");
  out += fmt::format("<p>From {} back to {} ({}), {} steps.</p>\n", Ms(p.end, d.recon.start_ns),
                     Ms(p.start, d.recon.start_ns), FormatDuration(p.Length()), p.steps.size());
  std::vector<StackedRow> rows;
  const Bounded<PathShare> shares = PathShareRows(d);
  for (const PathShare* s : shares.shown) {
    rows.push_back(
        {d.TrackName(s->queue, s->thread),
         {static_cast<double>(s->running_ns), static_cast<double>(s->ns - s->running_ns)}});
  }
  out += SvgStackedBars("Share of the critical path per queue / thread",
                        {"running", "held, waiting for a submission or idle"}, {kPath, kIdle}, rows,
                        "ns");
  out += "<table><tr><th>track</th><th>share</th><th>time</th><th>of it running</th></tr>\n";
  for (const PathShare* s : shares.shown) {
    out += Row({d.TrackName(s->queue, s->thread), Percent(s->share), FormatDuration(s->ns),
                FormatDuration(s->running_ns)});
  }
  out += "</table>\n" + MoreParagraph(MoreLine(shares.more, "track", "tracks",
                                                FormatDuration(shares.more_value)));
  out += "<h3>Last steps (latest first)</h3>\n<table><tr><th>step</th><th>track</th>"
         "<th>from</th><th>to</th><th>length</th><th>packet</th><th>fence</th></tr>\n";
  const Bounded<PathStep> steps = PathStepRows(d);
  for (const PathStep* it : steps.shown) {
    std::string fence;
    if (it->signal != kNoIndex) {
      const SignalBox& s = d.recon.signals[it->signal];
      fence = fmt::format("{} = {}", d.FenceName(s.fence), s.value);
    }
    const uint32_t packet = it->NamedPacket();
    out += "<tr>" + Cell(PathStepKindName(it->kind)) +
           Cell(it->queue ? d.QueueName(it->queue) : d.ThreadName(it->thread)) +
           Cell(Ms(it->start, d.recon.start_ns)) + Cell(Ms(it->end, d.recon.start_ns)) +
           Cell(FormatDuration(it->end - it->start)) +
           NameCell(packet != kNoIndex ? PacketLabel(*d.store, d.recon.packets[packet].name) : "") +
           Cell(fence) + "</tr>\n";
  }
  return out + "</table>\n" + MoreParagraph(MoreLine(steps.more, "earlier step", "earlier steps",
                                                      FormatDuration(steps.more_value)));
}

std::string LongestWaitsSection(const ReportData& d) {
  std::string out = Section("longest-waits", "Longest waits and what released them");
  if (d.longest_waits.empty()) return out + "<p>No wait was released in the trace.</p>\n";
  out += "<p>The waits that held their queue (from when it reached the wait) or thread longest, "
         "with the signal that released them and the packet whose completion executed that "
         "signal. <i>inferred</i>: the importer worked the link out from timing and call order "
         "(the trace does not say).</p>\n<table><tr><th>waiting</th><th>held</th><th>from</th>"
         "<th>fence</th><th>released by</th><th>packet</th><th>link</th></tr>\n";
  for (const HeldWait& w : d.longest_waits) {
    const bool signal = w.signal != kNoIndex;
    const SignalBox sig = signal ? d.recon.signals[w.signal] : SignalBox{};
    out += "<tr>" + Cell(w.cpu ? d.ThreadName(w.thread) : d.QueueName(w.queue), "nowrap") +
           Cell(FormatDuration(w.Held())) + Cell(Ms(w.start, d.recon.start_ns)) +
           Cell(fmt::format("{} >= {}", d.FenceName(w.fence), w.value)) +
           Cell(signal ? d.SignallerName(sig.queue, sig.cpu) : "none", "nowrap") +
           NameCell(w.packet != kNoIndex ? PacketLabel(*d.store, d.recon.packets[w.packet].name)
                                         : "") +
           Cell(!signal ? "" : w.link_inferred ? "inferred" : "from the trace") + "</tr>\n";
  }
  return out + "</table>\n";
}

// A number cell that sorts by its raw value (data-v) while showing `text`.
std::string NumberCell(double value, const std::string& text) {
  return fmt::format("<td data-v=\"{}\">{}</td>", value, XmlEscape(text));
}

std::string PacketStatsSection(const ReportData& d) {
  std::string out = Section("packets", "Packets by name");
  if (d.packet_stats.empty()) return out + "<p>No completed packets.</p>\n";
  const Bounded<PacketNameStats> rows = PacketRows(d);
  out += fmt::format(
      "<p>Run time of completed packets per name and queue (a preempted packet counts the time it "
      "ran, not the wall time); percentiles by nearest rank. The {} of {} groups with the most "
      "total time; click a column header to sort.</p>\n",
      rows.shown.size(), d.packet_stats.size());
  out += "<table class=\"sortable\"><thead><tr><th>name</th><th>queue</th><th>count</th>"
         "<th>total</th><th>mean</th><th>p50</th><th>p99</th><th>max</th></tr></thead><tbody>\n";
  for (const PacketNameStats* row : rows.shown) {
    const PacketNameStats& r = *row;
    out += "<tr>" + NameCell(PacketLabel(*d.store, r.name)) +
           Cell(d.QueueName(r.queue), "nowrap") +
           NumberCell(static_cast<double>(r.count), std::to_string(r.count));
    for (double ns : {static_cast<double>(r.total_ns), r.mean_ns, static_cast<double>(r.p50_ns),
                      static_cast<double>(r.p99_ns), static_cast<double>(r.max_ns)}) {
      out += NumberCell(ns, FormatDuration(ns));
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n" +
         MoreParagraph(MoreLine(rows.more, "packet group", "packet groups",
                                FormatDuration(rows.more_value)));
}

// Click a header of a table.sortable to sort its rows by that column (again: the other way).
// Cells with data-v sort as numbers, others as text. Inline so the report stays one file.
constexpr const char* kSortScript =
    "<script>document.querySelectorAll('table.sortable').forEach(function(t){"
    "var hs=t.querySelectorAll('th');hs.forEach(function(th,i){th.addEventListener('click',"
    "function(){var up=th.getAttribute('data-dir')!=='asc';hs.forEach(function(h){"
    "h.removeAttribute('data-dir');});th.setAttribute('data-dir',up?'asc':'desc');"
    "var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows);rows.sort(function(x,y){"
    "var a=x.cells[i],c=y.cells[i],va=a.getAttribute('data-v'),vc=c.getAttribute('data-v');"
    "var r=va!==null&&vc!==null?Number(va)-Number(vc):a.textContent.localeCompare(c.textContent);"
    "return up?r:-r;});rows.forEach(function(r){b.appendChild(r);});});});});</script>\n";

std::string PgoSection(const ReportData& d) {
  std::string out = Section("pgo", "PGO convergence");
  if (d.pgo.passes.empty()) {
    return out + "<p>The trace has no SetBackgroundProcessingMode records (mode_changed) and no "
                 "background tasks, so it has no PGO passes.</p>\n";
  }
  if (d.pgo.boundary == PgoBoundary::kVariantApplied) {
    out += "<p>No SetBackgroundProcessingMode calls were recorded: passes are split where a "
           "specialised variant was applied (FurtherMeasurementsDesired unknown).</p>\n";
  }
  const BackgroundStats& b = d.background;
  out += fmt::format(
      "<p>Background tasks: {} queued, {} started, {} finished, {} cancelled, {} abandoned, at "
      "most {} at once; {} refused mode calls. {}</p>\n",
      b.tasks_queued, b.tasks_started, b.tasks_finished, b.tasks_cancelled, b.tasks_abandoned,
      b.max_concurrent, b.api_errors,
      b.converged ? fmt::format("Converged after {} passes ({}).", b.passes_to_converge,
                                FormatDuration(static_cast<double>(b.time_to_converge_ns)))
                  : std::string("Not converged in the trace."));
  std::vector<double> x;
  LineSeries packet{"mean packet time", kBusy, {}, false};
  LineSeries pgo_packet{"mean time of instrumented / variant packets", kPath, {}, false};
  LineSeries tasks{"background tasks queued", kWaiting, {}, true};
  for (size_t i = 0; i < d.pgo.passes.size(); ++i) {
    x.push_back(static_cast<double>(i));
    packet.values.push_back(d.pgo.passes[i].mean_packet_ns);
    pgo_packet.values.push_back(d.pgo.passes[i].mean_pgo_packet_ns);
    tasks.values.push_back(static_cast<double>(d.pgo.passes[i].tasks_queued));
  }
  out += SvgLineChart("PGO convergence per pass", x, "", {packet, pgo_packet, tasks}, "ns", "tasks");
  out += "<table><tr><th>pass</th><th>start</th><th>mode in force</th><th>action</th><th>further "
         "measurements desired</th><th>tasks queued</th><th>finished</th><th>cancelled</th>"
         "<th>packets</th><th>mean packet time</th><th>instrumented / variant packets</th>"
         "<th>their mean time</th><th>variants applied</th></tr>\n";
  const Bounded<PgoPass> passes = PgoPassRows(d);
  for (size_t i = 0; i < passes.shown.size(); ++i) {
    const PgoPass& p = *passes.shown[i];
    out += Row({std::to_string(i), Ms(p.start, d.recon.start_ns),
                ModeInForceText(p), std::string(MeasurementsActionName(p.action)),
                std::string(FurtherMeasurementsDesiredName(p)), std::to_string(p.tasks_queued),
                std::to_string(p.tasks_finished), std::to_string(p.tasks_cancelled),
                std::to_string(p.packets), FormatDuration(p.mean_packet_ns),
                std::to_string(p.pgo_packets), FormatDuration(p.mean_pgo_packet_ns),
                std::to_string(p.variants_applied)});
  }
  return out + "</table>\n" +
         MoreParagraph(MoreLine(passes.more, "pass", "passes") + " (the chart shows every pass)");
}

// seed 004: preemption latency (request -> preemption point + context save) per granularity in
// force at the request, and the TDRs.
std::string PreemptionSection(const ReportData& d) {
  std::string out = Section("preemption", "Preemption");
  const PreemptionStats& p = d.preemption;
  if (p.per_granularity.empty() && p.tdrs == 0) {
    return out + "<p>The trace has no preemption requests.</p>\n";
  }
  out += fmt::format("<p>{} requests, {} completed, {} packets preempted mid-packet, {} TDRs.</p>\n",
                     p.requests, p.completed, p.packets_preempted, p.tdrs);
  out += "<table><tr><th>granularity</th><th>requests</th><th>completed</th><th>latency p50</th>"
         "<th>p99</th><th>max</th></tr>\n";
  for (const GranularityLatency& g : p.per_granularity) {
    out += Row({std::string(PreemptionGranularityName(g.granularity)), std::to_string(g.requests),
                std::to_string(g.latency.count), FormatDuration(static_cast<double>(g.latency.p50)),
                FormatDuration(static_cast<double>(g.latency.p99)),
                FormatDuration(static_cast<double>(g.latency.max))});
  }
  out += "</table>\n";
  if (d.recon.tdrs.empty()) return out;
  out += "<table><tr><th>TDR at</th><th>queue</th><th>packets lost</th><th>contexts lost</th></tr>\n";
  const size_t tdrs = std::min(d.recon.tdrs.size(), kTableRows);
  for (size_t i = 0; i < tdrs; ++i) {
    const TdrMarker& t = d.recon.tdrs[i];
    out += Row({Ms(t.ts, d.recon.start_ns), d.QueueName(t.queue), std::to_string(t.packets_lost),
                std::to_string(t.contexts_lost)});
  }
  return out + "</table>\n" + MoreParagraph(MoreLine(d.recon.tdrs.size() - tdrs, "TDR", "TDRs"));
}

std::string FindingsSection(const ReportData& d) {
  std::vector<Finding> findings = CollectFindings(d);
  std::string out = Section("findings", "Findings");
  if (findings.empty()) return out + "<p>No never-unblocked waits, cycles, overruns, hazards or rewinds.</p>\n";
  const Bounded<Finding> rows = FindingRows(findings);
  out += fmt::format("<p>{} findings{}.</p>\n<table><tr><th>kind</th><th>at</th><th>until</th>"
                     "<th>what</th></tr>\n",
                     Thousands(findings.size()), rows.more ? ", the first in time order" : "");
  for (const Finding* f : rows.shown) {
    out += Row({f->kind, Ms(f->ts, d.recon.start_ns), Ms(f->end, d.recon.start_ns), f->message});
  }
  std::string more = MoreLine(rows.more, "finding", "findings");
  if (rows.more) {
    more += fmt::format(" (the JSON report's findings.list has the first {})",
                        Thousands(std::min(findings.size(), kMaxListedFindings)));
  }
  return out + "</table>\n" + MoreParagraph(more);
}

// The lines of the lead (lead.h), each with a link to the section that shows its figures.
std::string LeadSection(const std::vector<LeadLine>& lines) {
  static const std::pair<const char*, const char*> kTo[] = {
      {"timeline", "timeline overview"},
      {"gaps", "idle-gap attribution"},
      {"longest-waits", "longest waits"},
      {"critical-path", "critical path"}};
  std::string out = Section("lead", "What held the GPU back") + "<ul class=\"lead\">\n";
  for (const LeadLine& line : lines) {
    std::string label = line.section;
    for (auto [id, title] : kTo) {
      if (line.section == id) label = title;
    }
    out += fmt::format("<li>{} <a href=\"#{}\">&rarr;&nbsp;{}</a></li>\n", XmlEscape(line.text),
                       line.section, label);
  }
  return out + "</ul>\n";
}

std::string ProblemsSection(const ReportData& d) {
  std::string out = Section("reconstruction", "What could not be linked");
  if (d.recon.problems.empty()) return out + "<p>Every record was paired and linked.</p>\n";
  out += "<table><tr><th>counter</th><th>count</th><th>first at</th><th>meaning</th></tr>\n";
  const Bounded<LinkProblem> rows = LinkProblemRows(d);
  for (const LinkProblem* p : rows.shown) {
    out += Row({p->name, std::to_string(p->count), Ms(p->first_ts, d.recon.start_ns),
                p->description});
  }
  return out + "</table>\n" + MoreParagraph(MoreLine(rows.more, "counter", "counters"));
}

}  // namespace

std::string ReportHtml(const ReportData& d) {
  Json stats = StatsJson(d);
  const ReportSections sections = SectionsOf(d);
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<title>fencescope report</title>\n<style>"
      "body{font-family:sans-serif;margin:24px;max-width:1000px;color:#222}"
      "h1{overflow-wrap:anywhere}"
      "table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:3px 8px;"
      "font-size:13px;text-align:left}th{background:#f2f2f2}svg{display:block;margin:8px 0}"
      "nav a{margin-right:12px}table.sortable th{cursor:pointer}"
      // CUDA kernel names run to hundreds of characters: wrap them, keep numbers on one line
      "td.name{max-width:480px;overflow-wrap:anywhere}td[data-v],td.nowrap{white-space:nowrap}"
      "th[data-dir=asc]::after{content:' \\25B2'}th[data-dir=desc]::after{content:' \\25BC'}"
      "p.more,p.caption{color:#555;font-size:13px}p.more{margin-top:-8px;font-style:italic}"
      "ul.lead li{margin:6px 0}svg.zoomable{cursor:ew-resize}"
      "</style></head><body>\n";
  out += fmt::format("<h1>fencescope report: {}</h1>\n", XmlEscape(d.store->path.filename().string()));
  // Sections for record families the trace has none of are left out (report_sections.h).
  const bool gpu = HasGpuWork(d);
  const Lead lead = ComputeLead(d);
  const std::vector<LeadLine> lines = gpu ? LeadLines(d, lead) : std::vector<LeadLine>{};
  std::vector<std::pair<const char*, const char*>> nav;
  if (!lines.empty()) nav.emplace_back("lead", "what held the GPU back");
  if (gpu) nav.emplace_back("timeline", "timeline");
  const std::string opportunities = OpportunitiesHtml(d);
  if (!opportunities.empty()) nav.emplace_back("opportunities", "what would pay");
  nav.emplace_back("summary", "summary");
  if (gpu) nav.insert(nav.end(), {{"queues", "queues"}, {"packets", "packets"}});
  if (sections.interrupts) nav.emplace_back("interrupts", "interrupts");
  if (gpu) {
    nav.insert(nav.end(), {{"latency", "latency"},
                           {"longest-waits", "longest waits"},
                           {"critical-path", "critical path"}});
  }
  if (sections.background) nav.emplace_back("pgo", "PGO");
  if (sections.preemption) nav.emplace_back("preemption", "preemption");
  if (gpu) nav.emplace_back("launch", "launches");
  nav.emplace_back("findings", "findings");
  nav.emplace_back("import", "import");
  out += "<nav>";
  for (auto [id, label] : nav) out += fmt::format("<a href=\"#{}\">{}</a>", id, label);
  out += "</nav>\n";
  // The answer first: what held the GPU back, then the picture, then the figures.
  if (!lines.empty()) out += LeadSection(lines);
  if (gpu) {
    out += Section("timeline", "Per-queue timeline overview") +
           TimelineOverview(d, sections, lead.active);
  }
  out += opportunities;
  out += SummarySection(d, stats, sections);
  if (gpu) {
    out += QueueSection(d);
    out += PacketStatsSection(d);
  } else {
    out += "<p>" + XmlEscape(NoGpuWorkSentence(d)) + "</p>\n";
  }
  if (sections.interrupts) out += InterruptSection(d);
  if (gpu) {
    out += LatencySection(d);
    out += LongestWaitsSection(d);
    out += LaunchSection(d);
    out += PathSection(d);
  }
  if (sections.background) out += PgoSection(d);
  if (sections.preemption) out += PreemptionSection(d);
  out += FindingsSection(d);
  out += ImportProblemsHtml(d);
  out += ProblemsSection(d);
  out += kSortScript;
  if (gpu) out += kZoomScript;
  out += "</body></html>\n";
  return out;
}

}  // namespace core::report
