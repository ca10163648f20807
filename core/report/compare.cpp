#include "core/report/compare.h"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/report/svg_chart.h"

namespace core::report {
namespace {

// Identity of an array element, or "" when it has none.
std::string Identity(const Json& item) {
  if (item.type() != Json::Type::kObject) return "";
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
  return "";
}

void Flatten(const Json& j, const std::string& path, std::vector<std::pair<std::string, double>>& out) {
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

std::vector<MetricDiff> Diff(const std::vector<std::pair<std::string, double>>& a,
                             const std::vector<std::pair<std::string, double>>& b) {
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

std::vector<std::pair<std::string, double>> QueueMetrics(const Json* queue) {
  std::vector<std::pair<std::string, double>> out;
  if (queue) Flatten(*queue, "", out);
  return out;
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
  std::vector<std::pair<std::string, double>> fa, fb;
  for (const auto& [key, value] : a.members()) {
    if (key != "queues") Flatten(value, key, fa);
  }
  for (const auto& [key, value] : b.members()) {
    if (key != "queues") Flatten(value, key, fb);
  }
  c.metrics = Diff(fa, fb);
  std::vector<std::string> names;
  std::map<std::string, std::pair<const Json*, const Json*>> queues;
  auto collect = [&](const Json& report, bool first) {
    const Json* list = report.Find("queues");
    if (!list) return;
    for (const Json& q : list->items()) {
      std::string name = Identity(q);
      if (!queues.count(name)) names.push_back(name);
      (first ? queues[name].first : queues[name].second) = &q;
    }
  };
  collect(a, true);
  collect(b, false);
  for (const std::string& name : names) {
    c.queues.push_back({name, Diff(QueueMetrics(queues[name].first), QueueMetrics(queues[name].second))});
  }
  return c;
}

std::string CompareText(const Comparison& c, bool only_changed) {
  std::string out = fmt::format("A: {}\nB: {}\n\nper queue\n", c.a_name, c.b_name);
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
  Json queues = Json::Array();
  for (const QueueDiff& q : c.queues) {
    Json qj = Json::Object();
    qj.Set("name", q.queue);
    Json metrics = Json::Array();
    for (const MetricDiff& m : q.metrics) metrics.Push(MetricJson(m));
    qj.Set("metrics", std::move(metrics));
    queues.Push(std::move(qj));
  }
  j.Set("queues", std::move(queues));
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
  out += "<h2 id=\"queues\">Per queue</h2>\n";
  for (const char* metric : {"busy_ns", "waiting_ns", "idle_ns"}) {
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
    out += SvgBarChart(fmt::format("{} per queue, A vs B", metric), categories, {a, b}, "ns");
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
