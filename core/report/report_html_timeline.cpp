#include "core/report/report_html_timeline.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/analysis/intervals.h"
#include "core/analysis/queue_time.h"
#include "core/analysis/wait_cover.h"
#include "core/report/html_parts.h"
#include "core/report/lead.h"
#include "core/report/svg_chart.h"

namespace core::report {
namespace {

using namespace core::analysis;  // NOLINT

constexpr int kWidth = 960, kLabel = 170, kPlot = kWidth - kLabel - 10, kRowH = 26;
// Intervals closer than 1 / kDetail pixel are merged: each row draws at most about
// kPlot * kDetail pieces, so a row still shows some detail when zoomed in twice.
constexpr double kDetail = 2;

// Where times go on the plot: [t0, t1] onto [kLabel, kLabel + kPlot].
struct Scale {
  TimeNs t0 = 0, t1 = 1;
  double ns_per_px = 1;
  double X(TimeNs t) const { return kLabel + static_cast<double>(t - t0) / ns_per_px; }
};

// One <path> of a rectangle per merged run of intervals (a few bytes each; a row of a dense
// trace holds thousands), clipped to the plotted span.
std::string Pieces(const std::vector<Interval>& intervals, const Scale& s, int y, int h,
                   const char* colour) {
  std::string d;
  double cur0 = -1, cur1 = -1;
  auto flush = [&] {
    if (cur1 < 0) return;
    d += fmt::format("M{:.1f} {}h{:.1f}v{}h{:.1f}z", cur0, y, std::max(0.5, cur1 - cur0), h,
                     -std::max(0.5, cur1 - cur0));
  };
  for (const Interval& i : Clip(intervals, s.t0, s.t1)) {
    const double x0 = s.X(i.start), x1 = s.X(i.end);
    if (cur1 >= 0 && x0 <= cur1 + 1 / kDetail) {
      cur1 = std::max(cur1, x1);
    } else {
      flush();
      cur0 = x0;
      cur1 = x1;
    }
  }
  flush();
  return d.empty() ? d : fmt::format("<path fill=\"{}\" d=\"{}\"/>", colour, d);
}

// seed 004: a queue's preemption requests (orange ticks above its row) and TDRs (a red bar
// across it), with the latency or the loss as a tooltip.
std::string PreemptionMarks(const ReportData& d, QueueId q, const Scale& s, int y) {
  std::string out;
  auto inside = [&](TimeNs t) { return t >= s.t0 && t <= s.t1; };
  for (uint32_t x : d.recon.queues[q].preemptions) {
    const PreemptionMarker& m = d.recon.preemptions[x];
    if (m.Begin() == kUnknownTime || !inside(m.Begin())) continue;
    const std::string what =
        m.completed != kUnknownTime
            ? "preemption, " + FormatDuration(static_cast<double>(m.latency_ns))
            : std::string("preemption, never completed");
    out += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{}\" width=\"2\" height=\"4\" fill=\"#e67e00\">"
        "<title>{}</title></rect>",
        s.X(m.Begin()), y - 4, what);
  }
  for (uint32_t x : d.recon.queues[q].tdrs) {
    const TdrMarker& t = d.recon.tdrs[x];
    if (!inside(t.ts)) continue;
    out += fmt::format(
        "<rect x=\"{:.1f}\" y=\"{}\" width=\"3\" height=\"16\" fill=\"#c00000\">"
        "<title>TDR: {} packets, {} contexts lost</title></rect>",
        s.X(t.ts), y, t.packets_lost, t.contexts_lost);
  }
  return out;
}

// A row's name (left of the plot) and its grey background (in the zoomed group).
std::string RowLabel(const std::string& name, int y) {
  return fmt::format("<text x=\"4\" y=\"{}\" font-size=\"11\">{}</text>", y + 13, XmlEscape(name));
}
std::string RowBackground(int y) {
  return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"16\" fill=\"{}\"/>", kLabel, y,
                     kPlot, kIdle);
}

std::string Caption(const ReportData& d, const ActiveSpan& a) {
  auto ms = [](DurationNs ns) { return FormatDuration(static_cast<double>(ns)); };
  std::string out = "<p class=\"caption\">";
  if (a.any && (a.lead_in_ns > 0 || a.tail_ns > 0)) {
    out += fmt::format(
        "Drawn over the {} in which the queues were active, {} of the {} capture: nothing ran "
        "or waited on a queue {}. ",
        ms(a.active.Length()), ActiveFromTo(d, a), ms(d.recon.end_ns - d.recon.start_ns),
        IdleEnds(a));
  }
  return out +
         "Times from the start of the capture. Wheel over the chart to zoom, drag to pan, "
         "double-click to see it whole again.</p>\n";
}

}  // namespace

std::string TimelineOverview(const ReportData& d, const ReportSections& sections,
                             const ActiveSpan& active) {
  const auto& store = *d.store;
  Scale s;
  s.t0 = active.active.start;
  s.t1 = std::max(active.active.end, s.t0 + 1);
  s.ns_per_px = static_cast<double>(s.t1 - s.t0) / kPlot;
  // CPU threads that waited on fences, ran background tasks or are on the critical path get a
  // row below the queues; queues that did nothing in the capture get none (the sentence under
  // the queue table names them)
  std::vector<std::vector<Interval>> thread_path(d.recon.threads.size());
  for (const PathStep& p : d.critical_path.steps) {
    if (p.thread && p.thread < thread_path.size())
      thread_path[p.thread].push_back({p.start, p.end});
  }
  std::vector<ThreadId> threads;
  for (const ThreadTrack& t : d.recon.threads) {
    if (t.id != 0 && (!t.cpu_waits.empty() || !t.tasks.empty() || !thread_path[t.id].empty())) {
      threads.push_back(t.id);
    }
  }
  std::vector<const core::model::Queue*> queues;
  for (const auto& q : store.queues) {
    if (!d.IsQuietQueue(q.id)) queues.push_back(&q);
  }
  const size_t rows = queues.size() + threads.size();
  const int height = 40 + static_cast<int>(rows) * kRowH + 30;
  // data-*: what the zoom script needs (the plot's place and the times at its two ends)
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"zoomable\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" role=\"img\" data-x=\"{2}\" "
      "data-w=\"{3}\" data-t0=\"{4}\" data-t1=\"{5}\"><title>Per-queue timeline overview</title>"
      "<text x=\"4\" y=\"16\" font-size=\"13\" font-weight=\"bold\">Per-queue timeline overview"
      "</text><clipPath id=\"overview-plot\"><rect x=\"{2}\" y=\"0\" width=\"{3}\" height=\"{1}\"/>"
      "</clipPath>",
      kWidth, height, kLabel, kPlot, s.t0 - d.recon.start_ns, s.t1 - d.recon.start_ns);
  std::string labels, plot;
  // path steps per queue, drawn as a thin bar under the row
  std::vector<std::vector<Interval>> path(d.recon.queues.size());
  for (const PathStep& p : d.critical_path.steps) {
    if (p.queue && p.queue < path.size()) path[p.queue].push_back({p.start, p.end});
  }
  for (size_t i = 0; i < queues.size(); ++i) {
    const QueueId q = queues[i]->id;
    const int y = 30 + static_cast<int>(i) * kRowH;
    labels += RowLabel(queues[i]->name, y);
    plot += RowBackground(y);
    std::vector<Interval> waiting;
    for (const WaitPiece& p : WaitCover(d.recon, q)) waiting.push_back({p.start, p.end});
    plot += Pieces(UnionOf(waiting), s, y, 16, kWaiting);
    plot += Pieces(BusyIntervals(d.recon, q), s, y, 16, kBusy);
    if (q < d.recon.queues.size()) {
      std::vector<Interval> missing;
      for (const MissingWindow& w : d.recon.queues[q].missing) missing.push_back({w.start, w.end});
      plot += Pieces(UnionOf(missing), s, y, 5, kMissing);
      plot += Pieces(UnionOf(path[q]), s, y + 17, 3, kPath);
      plot += PreemptionMarks(d, q, s, y);
    }
  }
  for (size_t i = 0; i < threads.size(); ++i) {
    const ThreadTrack& t = d.recon.threads[threads[i]];
    const int y = 30 + static_cast<int>(queues.size() + i) * kRowH;
    labels += RowLabel(d.TrackName(0, t.id), y);
    plot += RowBackground(y);
    std::vector<Interval> blocked, tasks;
    for (uint32_t w : t.cpu_waits) {
      const CpuWait& box = d.recon.cpu_waits[w];
      const TimeNs end = box.released != kUnknownTime    ? box.released
                         : box.withdrawn != kUnknownTime ? box.withdrawn
                                                         : d.recon.end_ns;
      if (box.begin != kUnknownTime) blocked.push_back({box.begin, end});
    }
    for (uint32_t k : t.tasks) {
      const BackgroundTask& task = d.recon.tasks[k];
      if (task.started != kUnknownTime) {
        tasks.push_back({task.started, task.ended != kUnknownTime ? task.ended : d.recon.end_ns});
      }
    }
    plot += Pieces(UnionOf(blocked), s, y, 16, kWaiting);
    plot += Pieces(UnionOf(tasks), s, y, 16, kBusy);
    plot += Pieces(UnionOf(thread_path[t.id]), s, y + 17, 3, kPath);
  }
  out += labels + "<g clip-path=\"url(#overview-plot)\"><g class=\"zoom\">" + plot + "</g></g>";
  const int axis_y = 30 + static_cast<int>(rows) * kRowH + 10;
  for (int i = 0; i <= 4; ++i) {
    const double f = i / 4.0;
    out += fmt::format(
        "<text class=\"tick\" data-f=\"{}\" x=\"{:.1f}\" y=\"{}\" font-size=\"10\" "
        "text-anchor=\"{}\">{}</text>",
        f, kLabel + kPlot * f, axis_y,
        i == 0   ? "start"
        : i == 4 ? "end"
                 : "middle",
        XmlEscape(FormatTimeAt(static_cast<double>(s.t0 - d.recon.start_ns) +
                                   static_cast<double>(s.t1 - s.t0) * f,
                               static_cast<double>(s.t1 - s.t0) / 4)));
  }
  int lx = kLabel;
  std::vector<std::pair<const char*, const char*>> legend = {
      {"busy", kBusy}, {"waiting on a fence", kWaiting}, {"idle", kIdle}};
  if (sections.log_buffers) legend.emplace_back("data missing (overrun)", kMissing);
  legend.emplace_back("critical path", kPath);
  for (auto [label, colour] : legend) {
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{}\" "
        "y=\"{}\" font-size=\"11\">{}</text>",
        lx, axis_y + 8, colour, lx + 14, axis_y + 17, label);
    lx += 30 + static_cast<int>(std::char_traits<char>::length(label)) * 6;
  }
  return out + "</svg>\n" + Caption(d, active);
}

// Wheel: zoom about the pointer; drag: pan; double-click: whole span. The plotted group is
// scaled horizontally (its rectangles were drawn at kDetail times the resolution of the whole
// span) and the axis labels rewritten from data-t0 / data-t1, in FormatTimeAt's form.
const char* const kZoomScript =
    "<script>document.querySelectorAll('svg.zoomable').forEach(function(s){"
    "var g=s.querySelector('g.zoom'),x=+s.dataset.x,w=+s.dataset.w,t0=+s.dataset.t0,"
    "t1=+s.dataset.t1,a=0,b=1,drag=null,ticks=s.querySelectorAll('text.tick');"
    "function fmt(ns,step){var v=Math.abs(ns),u=v>=1e9?[1e9,' s']:v>=1e6?[1e6,' ms']:v>=1e3?"
    "[1e3,' us']:[1,' ns'],x=ns/u[0],own=v?Math.max(0,2-Math.floor(Math.log10(v/u[0]))):9,"
    "n=Math.min(6,Math.max(0,1-Math.floor(Math.log10(step/u[0]))));"
    "return (n<=own?Number(x.toPrecision(3)):x.toFixed(n))+u[1];}"
    "function draw(){var k=1/(b-a);g.setAttribute('transform','translate('+(x-k*(x+a*w))+"
    "' 0) scale('+k+' 1)');ticks.forEach(function(t){"
    "t.textContent=fmt(t0+(t1-t0)*(a+(b-a)*t.dataset.f),(t1-t0)*(b-a)/4);});}"
    "function at(e){var r=s.getBoundingClientRect(),p=((e.clientX-r.left)*"
    "s.viewBox.baseVal.width/r.width-x)/w;return Math.min(1,Math.max(0,p));}"
    "function keep(){if(a<0){b-=a;a=0;}if(b>1){a-=b-1;b=1;}a=Math.max(0,a);draw();}"
    "s.addEventListener('wheel',function(e){e.preventDefault();var f=a+(b-a)*at(e),"
    "n=Math.min(1,Math.max(1e-6,(b-a)*(e.deltaY<0?0.8:1.25)));a=f-(f-a)*n/(b-a);b=a+n;keep();},"
    "{passive:false});"
    "s.addEventListener('mousedown',function(e){e.preventDefault();drag={f:at(e),a:a,b:b};});"
    "window.addEventListener('mousemove',function(e){if(!drag)return;"
    "var m=(at(e)-drag.f)*(drag.b-drag.a);a=drag.a-m;b=drag.b-m;keep();});"
    "window.addEventListener('mouseup',function(){drag=null;});"
    "s.addEventListener('dblclick',function(){a=0;b=1;draw();});});</script>\n";

}  // namespace core::report
