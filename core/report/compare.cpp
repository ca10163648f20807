#include "core/report/compare.h"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/report/svg_chart.h"

namespace core::report {
namespace {

using Flat = std::vector<std::pair<std::string, double>>;

// Identity of an array element, or "" when it has none.
std::string Identity(const Json& item) {
  if (item.type() != Json::Type::kObject) return "";
  if (const Json* id = item.Find("identity")) return id->String();  // queues
  const Json* kind = item.Find("kind");
  // Critical-path steps carry a packet name too, but a name does not identify a step (many
  // steps share one): steps keep being identified by kind and fence as before.
  if (const Json* n = item.Find("name"); n && !kind) {
    // packet_stats rows: one per (name, queue)
    if (const Json* q = item.Find("queue"); q && q->type() == Json::Type::kString) {
      return n->String() + " on " + q->String();
    }
    return n->String();
  }
  std::string prefix = kind && kind->type() == Json::Type::kString ? kind->String() + " " : "";
  if (const Json* f = item.Find("fence")) {
    if (const Json* from = item.Find("from")) return prefix + f->String() + " from " + from->String();
    return prefix + f->String();
  }
  const Json* from = item.Find("from");
  const Json* to = item.Find("to");
  if (from && to) return prefix + from->String() + " -> " + to->String();
  const Json* waiting = item.Find("waiting");
  const Json* signalling = item.Find("signalling");
  if (waiting && signalling) return waiting->String() + " <- " + signalling->String();
  if (const Json* adapter = item.Find("adapter")) return adapter->String();  // per adapter
  return "";
}

void Flatten(const Json& j, const std::string& path, Flat& out) {
  switch (j.type()) {
    case Json::Type::kBool:
    case Json::Type::kInt:
    case Json::Type::kDouble:
      out.emplace_back(path, j.Number());
      break;
    case Json::Type::kObject:
      for (const auto& [key, value] : j.members()) {
        Flatten(value, path.empty() ? key : path + "." + key, out);
      }
      break;
    case Json::Type::kArray:
      for (const Json& item : j.items()) {
        std::string id = Identity(item);
        if (!id.empty()) Flatten(item, fmt::format("{}[\"{}\"]", path, id), out);
      }
      break;
    default:
      break;
  }
}

std::vector<MetricDiff> Diff(const Flat& a, const Flat& b) {
  std::vector<MetricDiff> out;
  std::map<std::string, size_t> index;
  for (const auto& [key, v] : a) {
    if (index.count(key)) continue;
    index[key] = out.size();
    out.push_back({key, v, 0, true, false});
  }
  for (const auto& [key, v] : b) {
    auto it = index.find(key);
    if (it == index.end()) {
      index[key] = out.size();
      out.push_back({key, 0, v, false, true});
    } else {
      out[it->second].b = v;
      out[it->second].in_b = true;
    }
  }
  return out;
}

Flat QueueMetrics(const Json* queue) {
  Flat out;
  if (queue) Flatten(*queue, "", out);
  return out;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.rfind(prefix, 0) == 0;
}
bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

enum class SpanTotal { kNone, kTime, kCount };

// Which figures add up over the trace span (so that two spans of different lengths compare as
// rates): per-queue times and packets; queue-pair and idle-gap times; counts of records.
// Latencies, ratios, time points, object counts and settings are not.
SpanTotal SpanTotals(const std::string& key, bool per_queue) {
  if (per_queue) {
    if (EndsWith(key, "_ns")) return SpanTotal::kTime;
    // packets_running_at_end is a state at the end of the span, not a total over it
    for (const char* count : {"packets", "packets_submitted", "packets_started",
                              "packets_completed", "signals_executed", "waits_unblocked"}) {
      if (key == count) return SpanTotal::kCount;
    }
    return SpanTotal::kNone;
  }
  if (StartsWith(key, "queue_pairs[") || StartsWith(key, "idle_gaps[")) {
    if (EndsWith(key, "_ns") || EndsWith(key, ".ns")) return SpanTotal::kTime;
    return EndsWith(key, ".waits") ? SpanTotal::kCount : SpanTotal::kNone;
  }
  if (key == "events" || StartsWith(key, "log_buffers.") || StartsWith(key, "reconstruction.") ||
      StartsWith(key, "interrupt_rate.per_fence[")) {
    return SpanTotal::kCount;
  }
  if (StartsWith(key, "interrupt_rate.per_adapter[")) {
    return EndsWith(key, "_per_ms") ? SpanTotal::kNone : SpanTotal::kCount;
  }
  if (StartsWith(key, "fences.")) {
    return key == "fences.objects" ? SpanTotal::kNone : SpanTotal::kCount;
  }
  for (const char* count :
       {"interrupts.total", "interrupts.with_waiters_released", "interrupts.spurious",
        "interrupts.optimized", "interrupts.scan_all", "preemption.requests",
        "preemption.completed", "preemption.packets_preempted", "preemption.tdrs"}) {
    if (key == count) return SpanTotal::kCount;
  }
  return SpanTotal::kNone;
}

// The totals of `flat` as rates over a span of `span_ns`: a time as its share of the span
// ("x_ns" -> "x_share", "x.ns" -> "x.share"), a count per second ("x" -> "x_per_s").
Flat AsRates(const Flat& flat, double span_ns, bool per_queue) {
  Flat out;
  for (const auto& [key, v] : flat) {
    switch (SpanTotals(key, per_queue)) {
      case SpanTotal::kTime:
        out.emplace_back(key.substr(0, key.size() - 2) + "share", v / span_ns);
        break;
      case SpanTotal::kCount:
        out.emplace_back(key + "_per_s", v * 1e9 / span_ns);
        break;
      case SpanTotal::kNone:
        out.emplace_back(key, v);
        break;
    }
  }
  return out;
}

int64_t SpanOf(const Json& report) {
  const Json* d = report.Find("duration_ns");
  return d ? d->Int() : 0;
}

std::string Number(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<int64_t>(v));
  return fmt::format("{:.4g}", v);
}

std::string Value(const MetricDiff& m, bool a) {
  if (a ? !m.in_a : !m.in_b) return "-";
  return Number(a ? m.a : m.b);
}

std::string Change(const MetricDiff& m) {
  if (!m.in_a || !m.in_b) return "only in " + std::string(m.in_a ? "A" : "B");
  if (m.a == m.b) return "=";
  std::string rel = m.a != 0 ? fmt::format(" ({:+.1f}%)", 100 * m.Relative()) : "";
  return fmt::format("{}{}{}", m.Delta() > 0 ? "+" : "", Number(m.Delta()), rel);
}

}  // namespace

double MetricDiff::Relative() const { return a != 0 ? (b - a) / std::fabs(a) : 0; }

Comparison CompareReports(const std::string& a_name, const Json& a, const std::string& b_name,
                          const Json& b) {
  Comparison c;
  c.a_name = a_name;
  c.b_name = b_name;
  c.a_span_ns = SpanOf(a);
  c.b_span_ns = SpanOf(b);
  c.rates = c.a_span_ns != c.b_span_ns && c.a_span_ns > 0 && c.b_span_ns > 0;
  auto figures = [&](Flat flat, int64_t span, bool per_queue) {
    return c.rates ? AsRates(flat, static_cast<double>(span), per_queue) : flat;
  };
  Flat fa, fb;
  for (const auto& [key, value] : a.members()) {
    if (key != "queues") Flatten(value, key, fa);
  }
  for (const auto& [key, value] : b.members()) {
    if (key != "queues") Flatten(value, key, fb);
  }
  c.metrics = Diff(figures(fa, c.a_span_ns, false), figures(fb, c.b_span_ns, false));
  std::vector<std::string> identities;
  std::map<std::string, std::pair<const Json*, const Json*>> queues;
  auto collect = [&](const Json& report, bool first) {
    const Json* list = report.Find("queues");
    if (!list) return;
    for (const Json& q : list->items()) {
      std::string identity = Identity(q);
      if (!queues.count(identity)) identities.push_back(identity);
      (first ? queues[identity].first : queues[identity].second) = &q;
    }
  };
  collect(a, true);
  collect(b, false);
  std::map<std::string, int> uses_of_name;
  for (const std::string& identity : identities) {
    const auto [qa, qb] = queues[identity];
    const Json* name = (qa ? qa : qb)->Find("name");
    QueueDiff q;
    q.queue = name ? name->String() : identity;
    q.identity = identity;
    q.metrics = Diff(figures(QueueMetrics(qa), c.a_span_ns, true),
                     figures(QueueMetrics(qb), c.b_span_ns, true));
    ++uses_of_name[q.queue];
    c.queues.push_back(std::move(q));
  }
  for (QueueDiff& q : c.queues) {
    if (uses_of_name[q.queue] > 1) q.queue = q.identity;
  }
  return c;
}

namespace {

std::string RatesNote(const Comparison& c) {
  return fmt::format(
      "the spans differ (A {} ns, B {} ns): totals over the span are compared per duration "
      "(*_share: share of the span, *_per_s: per second)",
      c.a_span_ns, c.b_span_ns);
}

}  // namespace

std::string CompareText(const Comparison& c, bool only_changed) {
  std::string out = fmt::format("A: {}\nB: {}\n", c.a_name, c.b_name);
  if (c.rates) out += RatesNote(c) + "\n";
  out += "\nper queue\n";
  for (const QueueDiff& q : c.queues) {
    out += fmt::format("  {}\n", q.queue);
    for (const MetricDiff& m : q.metrics) {
      if (only_changed && m.in_a && m.in_b && m.a == m.b) continue;
      out += fmt::format("    {:<22} {:>16} {:>16}  {}\n", m.key, Value(m, true), Value(m, false), Change(m));
    }
  }
  out += "\nmetrics\n";
  for (const MetricDiff& m : c.metrics) {
    if (only_changed && m.in_a && m.in_b && m.a == m.b) continue;
    out += fmt::format("  {:<52} {:>16} {:>16}  {}\n", m.key, Value(m, true), Value(m, false), Change(m));
  }
  return out;
}

namespace {

Json MetricJson(const MetricDiff& m) {
  Json j = Json::Object();
  j.Set("key", m.key);
  j.Set("a", m.in_a ? Json(m.a) : Json());
  j.Set("b", m.in_b ? Json(m.b) : Json());
  j.Set("delta", m.in_a && m.in_b ? Json(m.Delta()) : Json());
  j.Set("relative", m.in_a && m.in_b && m.a != 0 ? Json(m.Relative()) : Json());
  return j;
}

}  // namespace

Json CompareJson(const Comparison& c) {
  Json j = Json::Object();
  j.Set("a", c.a_name);
  j.Set("b", c.b_name);
  j.Set("a_duration_ns", c.a_span_ns);
  j.Set("b_duration_ns", c.b_span_ns);
  j.Set("rates", c.rates);
  j.Set("queues", ObjectArray(c.queues, [](Json& qj, const QueueDiff& q) {
          qj.Set("name", q.queue);
          qj.Set("identity", q.identity);
          Json metrics = Json::Array();
          for (const MetricDiff& m : q.metrics) metrics.Push(MetricJson(m));
          qj.Set("metrics", std::move(metrics));
        }));
  Json metrics = Json::Array();
  for (const MetricDiff& m : c.metrics) metrics.Push(MetricJson(m));
  j.Set("metrics", std::move(metrics));
  return j;
}

std::string CompareHtml(const Comparison& c) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>fencescope "
      "compare</title><style>body{font-family:sans-serif;margin:24px;max-width:1000px}"
      "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}"
      "th{background:#f2f2f2}.up{color:#b03020}.down{color:#207030}</style></head><body>\n";
  out += fmt::format("<h1>fencescope compare</h1><p>A: {}<br>B: {}</p>\n", XmlEscape(c.a_name),
                     XmlEscape(c.b_name));
  if (c.rates) out += fmt::format("<p>{}</p>\n", XmlEscape(RatesNote(c)));
  out += "<h2 id=\"queues\">Per queue</h2>\n";
  for (const char* split : {"busy", "waiting", "idle"}) {
    const std::string metric = std::string(split) + (c.rates ? "_share" : "_ns");
    std::vector<std::string> categories;
    BarSeries a{"A", "#3b7dd8", {}}, b{"B", "#f0a030", {}};
    for (const QueueDiff& q : c.queues) {
      categories.push_back(q.queue);
      double va = 0, vb = 0;
      for (const MetricDiff& m : q.metrics) {
        if (m.key == metric) {
          va = m.a;
          vb = m.b;
        }
      }
      a.values.push_back(va);
      b.values.push_back(vb);
    }
    out += SvgBarChart(fmt::format("{} per queue, A vs B", metric), categories, {a, b},
                       c.rates ? "share of the span" : "ns");
  }
  auto table = [&](const std::vector<MetricDiff>& metrics) {
    std::string t = "<table><tr><th>metric</th><th>A</th><th>B</th><th>change</th></tr>\n";
    for (const MetricDiff& m : metrics) {
      const char* cls = m.in_a && m.in_b && m.b > m.a ? "up" : m.in_a && m.in_b && m.b < m.a ? "down" : "";
      t += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"{}\">{}</td></tr>\n",
                       XmlEscape(m.key), Value(m, true), Value(m, false), cls, XmlEscape(Change(m)));
    }
    return t + "</table>\n";
  };
  for (const QueueDiff& q : c.queues) {
    out += fmt::format("<h3>{}</h3>\n", XmlEscape(q.queue));
    out += table(q.metrics);
  }
  out += "<h2 id=\"metrics\">Metrics</h2>\n";
  out += table(c.metrics);
  return out + "</body></html>\n";
}

}  // namespace core::report
