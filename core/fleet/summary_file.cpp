#include "core/fleet/summary_file.h"

#include <fstream>

#include <fmt/format.h>
#include <simdjson.h>

#include "core/model/error.h"
#include "core/store/output_file.h"

namespace core::fleet {
namespace {

using core::report::Json;
using core::report::ObjectArray;

constexpr std::string_view kFirstLinePrefix = "{\"fleet\": ";

// Reading: every key is required; a missing or mistyped one names the file and the key.
class Reader {
 public:
  explicit Reader(const std::string& label) : m_label(label) {}

  int64_t Int(simdjson::dom::object o, std::string_view key) const {
    int64_t v = 0;
    if (o[key].get_int64().get(v) != simdjson::SUCCESS) Fail(key, "an integer");
    return v;
  }
  std::string String(simdjson::dom::object o, std::string_view key) const {
    std::string_view v;
    if (o[key].get_string().get(v) != simdjson::SUCCESS) Fail(key, "a string");
    return std::string(v);
  }
  simdjson::dom::array Array(simdjson::dom::object o, std::string_view key) const {
    simdjson::dom::array a;
    if (o[key].get_array().get(a) != simdjson::SUCCESS) Fail(key, "an array");
    return a;
  }
  simdjson::dom::object Object(simdjson::dom::element e, std::string_view what) const {
    simdjson::dom::object o;
    if (e.get_object().get(o) != simdjson::SUCCESS) Fail(what, "an object");
    return o;
  }
  std::vector<QueueStepTime> Queues(simdjson::dom::array queues) const {
    std::vector<QueueStepTime> out;
    for (simdjson::dom::element q : queues) {
      simdjson::dom::object qo = Object(q, "queues[]");
      out.push_back(
          {String(qo, "name"), Int(qo, "busy_ns"), Int(qo, "waiting_ns"), Int(qo, "idle_ns")});
    }
    return out;
  }
  [[noreturn]] void Fail(std::string_view key, std::string_view type) const {
    throw core::Error(fmt::format("{}: not a fleet summary: \"{}\" is missing or not {}",
                                  m_label, key, type));
  }

 private:
  const std::string& m_label;
};

Json QueuesJson(const std::vector<QueueStepTime>& queues) {
  return ObjectArray(queues, [](Json& q, const QueueStepTime& t) {
    q.Set("name", t.queue);
    q.Set("busy_ns", t.busy_ns);
    q.Set("waiting_ns", t.waiting_ns);
    q.Set("idle_ns", t.idle_ns);
  });
}

}  // namespace

Json PathItemsJson(const std::vector<PathItem>& items) {
  return ObjectArray(items, [](Json& p, const PathItem& item) {
    p.Set("kind", item.kind);
    p.Set("track", item.track);
    p.Set("name", item.name);
    p.Set("ns", item.ns);
  });
}

Json RankSummaryJson(const RankSummary& s) {
  Json j = Json::Object();
  j.Set("input", s.input);
  j.Set("order", s.order);
  j.Set("metadata_rank", s.metadata_rank);
  j.Set("name_rank", s.name_rank);
  j.Set("start_ns", s.start_ns);
  j.Set("end_ns", s.end_ns);
  j.Set("steps_from", s.steps_from);
  if (s.queues_known) j.Set("queues", QueuesJson(s.queues));
  j.Set("steps_cut_off", core::report::ValueArray(s.steps_cut_off));
  j.Set("steps", ObjectArray(s.steps, [](Json& x, const StepSummary& step) {
          x.Set("id", step.id);
          x.Set("start_ns", step.start_ns);
          x.Set("end_ns", step.end_ns);
          x.Set("path_ns", step.path_ns);
          x.Set("queues", QueuesJson(step.queues));
          x.Set("collectives", ObjectArray(step.collectives, [](Json& c, const Collective& k) {
                  c.Set("name", k.name);
                  c.Set("queue", k.queue);
                  c.Set("start_ns", k.start_ns);
                  c.Set("end_ns", k.end_ns);
                }));
          x.Set("path", PathItemsJson(step.path));
        }));
  return j;
}

std::string SummaryLineHead(const RankSummary& summary) {
  return std::string(kFirstLinePrefix) + RankSummaryJson(summary).Dump(0);
}

void WriteSummaryFile(const std::filesystem::path& path, const RankSummary& summary,
                      const Json& report) {
  std::string text = SummaryLineHead(summary);
  const std::string rest = report.Dump(2);  // "{\n  \"schema_version\": ...}"
  if (rest.size() > 2) {
    text += ",";
    text.append(rest, 1);
  } else {
    text += "}\n";
  }
  core::store::WriteFileAtomically(path, text);
}

RankSummary ReadSummaryFile(const std::filesystem::path& path, bool step_paths) {
  std::ifstream in(path);
  if (!in) throw core::Error(fmt::format("{}: cannot read the summary", path.string()));
  std::string line;
  std::getline(in, line);
  return ParseSummaryLine(line, path.string(), step_paths);
}

RankSummary ParseSummaryLine(std::string line, const std::string& label, bool step_paths) {
  if (!line.starts_with(kFirstLinePrefix)) {
    throw core::Error(fmt::format("{}: line 1: not a fleet summary (it must begin with {})",
                                  label, kFirstLinePrefix));
  }
  // The first line is `{"fleet": {...},` when the report's keys follow, else the whole
  // document `{"fleet": {...}}`.
  if (line.ends_with(",")) line.back() = '}';
  // One parser per thread, kept: its buffers are reused from one summary to the next.
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto error = parser.parse(line).get(root)) {
    throw core::Error(fmt::format("{}: line 1: not a fleet summary: {}", label,
                                  simdjson::error_message(error)));
  }
  Reader r(label);
  simdjson::dom::object fleet = r.Object(root, "");
  simdjson::dom::element e;
  if (fleet["fleet"].get(e) != simdjson::SUCCESS) r.Fail("fleet", "an object");
  simdjson::dom::object f = r.Object(e, "fleet");
  RankSummary s;
  s.input = r.String(f, "input");
  s.order = r.Int(f, "order");
  s.metadata_rank = r.Int(f, "metadata_rank");
  s.name_rank = r.Int(f, "name_rank");
  s.start_ns = r.Int(f, "start_ns");
  s.end_ns = r.Int(f, "end_ns");
  // Summaries written before frames were steps have no "steps_from": their steps, if any, are
  // ProfilerStep slices.
  std::string_view from;
  if (f["steps_from"].get_string().get(from) == simdjson::SUCCESS) {
    s.steps_from = std::string(from);
  } else {
    s.steps_from = "";
  }
  // Summaries written before the whole trace's queues were kept have no "queues".
  simdjson::dom::element queues;
  s.queues_known = f["queues"].get(queues) == simdjson::SUCCESS;
  if (s.queues_known) s.queues = r.Queues(r.Array(f, "queues"));
  // ... nor "steps_cut_off" (none was left out then).
  simdjson::dom::element cut_off;
  if (f["steps_cut_off"].get(cut_off) == simdjson::SUCCESS) {
    for (simdjson::dom::element id : r.Array(f, "steps_cut_off")) {
      int64_t n = 0;
      if (id.get_int64().get(n) != simdjson::SUCCESS) r.Fail("steps_cut_off[]", "an integer");
      s.steps_cut_off.push_back(n);
    }
  }
  for (simdjson::dom::element step_e : r.Array(f, "steps")) {
    simdjson::dom::object so = r.Object(step_e, "steps[]");
    StepSummary step;
    step.id = r.Int(so, "id");
    step.start_ns = r.Int(so, "start_ns");
    step.end_ns = r.Int(so, "end_ns");
    step.path_ns = r.Int(so, "path_ns");
    step.queues = r.Queues(r.Array(so, "queues"));
    for (simdjson::dom::element c : r.Array(so, "collectives")) {
      simdjson::dom::object co = r.Object(c, "collectives[]");
      step.collectives.push_back({r.String(co, "name"), r.String(co, "queue"),
                                  r.Int(co, "start_ns"), r.Int(co, "end_ns")});
    }
    const simdjson::dom::array path = r.Array(so, "path");
    if (step_paths) {
      for (simdjson::dom::element p : path) {
        simdjson::dom::object po = r.Object(p, "path[]");
        step.path.push_back(
            {r.String(po, "kind"), r.String(po, "track"), r.String(po, "name"), r.Int(po, "ns")});
      }
    }
    s.steps.push_back(std::move(step));
  }
  if (s.steps_from.empty()) s.steps_from = s.steps.empty() ? "none" : "profiler_step";
  return s;
}

}  // namespace core::fleet
