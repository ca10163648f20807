#include "importers/chrome_json/export_topology.h"

#include <fmt/format.h>
#include <simdjson.h>

#include "core/model/error.h"
#include "core/report/json.h"

namespace importers::chrome_json {
namespace {

using core::report::Json;

Json TrackJson(ExportTrack track) {
  Json j = Json::Array();
  j.Push(track.pid);
  j.Push(track.tid);
  return j;
}

Json Object(std::initializer_list<std::pair<const char*, Json>> members) {
  Json j = Json::Object();
  for (const auto& [key, value] : members) j.Set(key, value);
  return j;
}

// A JSON array with row(item) for each item.
template <typename Items, typename Row>
Json List(const Items& items, const Row& row) {
  Json list = Json::Array();
  for (const auto& item : items) list.Push(row(item));
  return list;
}

// One object of a topology list, read field by field; a missing or mistyped field throws.
class Fields {
 public:
  Fields(simdjson::dom::element element, std::string_view list) : m_list(list) {
    if (element.get(m_object)) Fail("", "is not an object");
  }
  int64_t Int(const char* key) const {
    int64_t v = 0;
    if (Member(key).get(v)) Fail(key, "is not an integer");
    return v;
  }
  uint32_t Id(const char* key) const { return static_cast<uint32_t>(Int(key)); }
  std::string String(const char* key) const {
    std::string_view v;
    if (Member(key).get(v)) Fail(key, "is not a string");
    return std::string(v);
  }
  ExportTrack Track() const {
    simdjson::dom::array pair;
    int64_t pid = 0, tid = 0;
    if (Member("track").get(pair) || pair.size() != 2 || pair.at(0).get(pid) ||
        pair.at(1).get(tid)) {
      Fail("track", "is not [pid, tid]");
    }
    return {pid, tid};
  }

 private:
  simdjson::dom::element Member(const char* key) const {
    simdjson::dom::element v;
    if (m_object[key].get(v)) Fail(key, "is missing");
    return v;
  }
  [[noreturn]] void Fail(std::string_view key, std::string_view what) const {
    throw core::Error(
        fmt::format("fencescopeTopology: {}{}{} {}", m_list, key.empty() ? "" : ".", key, what));
  }

  simdjson::dom::object m_object;
  std::string_view m_list;
};

}  // namespace

std::string ExportTopologyJson(
    const core::store::TraceStore& store,
    const std::function<int64_t(const core::store::Process&)>& pid_of,
    const std::function<ExportTrack(const core::store::Queue&)>& queue_track,
    const std::function<ExportTrack(const core::store::Thread&)>& thread_track) {
  using namespace core::store;  // NOLINT
  auto number = [](auto enum_value) { return static_cast<int64_t>(enum_value); };
  Json j = Json::Object();
  j.Set("start_ns", store.start_ns());
  j.Set("end_ns", store.end_ns());
  j.Set("adapters", List(store.adapters, [&](const Adapter& a) {
    return Object({{"id", a.id}, {"name", a.name}, {"luid", a.luid},
                   {"native_fences", number(a.native_fences)},
                   {"optimized_interrupts", number(a.optimized_interrupts)},
                   {"preemption_graphics", number(a.preemption_graphics)},
                   {"preemption_compute", number(a.preemption_compute)}});
  }));
  j.Set("engines", List(store.engines, [&](const Engine& e) {
    return Object({{"id", e.id}, {"adapter", e.adapter}, {"type", number(e.type)},
                   {"ordinal", e.ordinal}, {"name", e.name}});
  }));
  j.Set("processes", List(store.processes, [&](const Process& p) {
    return Object({{"id", p.id}, {"pid", p.pid}, {"name", p.name}, {"track_pid", pid_of(p)}});
  }));
  j.Set("queues", List(store.queues, [&](const Queue& q) {
    return Object({{"id", q.id}, {"engine", q.engine}, {"adapter", q.adapter},
                   {"type", number(q.type)}, {"priority", q.priority}, {"process", q.process},
                   {"name", q.name}, {"sort_index", q.sort_index},
                   {"track", TrackJson(queue_track(q))}});
  }));
  j.Set("contexts", List(store.contexts, [&](const Context& c) {
    return Object({{"id", c.id}, {"process", c.process}, {"queue", c.queue},
                   {"handle", c.handle}, {"name", c.name}});
  }));
  j.Set("threads", List(store.threads, [&](const Thread& t) {
    return Object({{"id", t.id}, {"process", t.process}, {"tid", t.tid},
                   {"kind", number(t.kind)}, {"name", t.name}, {"sort_index", t.sort_index},
                   {"track", TrackJson(thread_track(t))}});
  }));
  // initial_value: the u64 bits as int64, as the schema stores it.
  j.Set("fences", List(store.fences, [&](const Fence& f) {
    return Object({{"id", f.id}, {"name", f.name}, {"kind", number(f.kind)},
                   {"shared", number(f.shared)}, {"owner_adapter", f.owner_adapter},
                   {"adapter_mask", f.adapter_mask}, {"initial_value", f.initial_value},
                   {"handle", f.handle}});
  }));
  return j.Dump(0);
}

ExportTopology ReadExportTopology(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(json.data(), json.size()).get(root)) {
    throw core::Error("fencescopeTopology: not valid JSON");
  }
  ExportTopology t;
  const Fields top(root, "");
  t.start_ns = top.Int("start_ns");
  t.end_ns = top.Int("end_ns");
  auto each = [&](const char* list, const auto& read) {
    simdjson::dom::array items;
    if (root[list].get(items)) {
      throw core::Error(fmt::format("fencescopeTopology: {} is not an array", list));
    }
    for (simdjson::dom::element item : items) read(Fields(item, list));
  };
  using namespace core::model;  // NOLINT
  each("adapters", [&](const Fields& f) {
    t.adapters.push_back({f.String("name"), f.Int("luid"), f.Int("native_fences") != 0,
                          f.Int("optimized_interrupts") != 0,
                          static_cast<PreemptionGranularity>(f.Int("preemption_graphics")),
                          static_cast<PreemptionGranularity>(f.Int("preemption_compute")),
                          f.Id("id")});
  });
  each("engines", [&](const Fields& f) {
    t.engines.push_back({f.Id("adapter"), static_cast<EngineType>(f.Int("type")), f.Id("ordinal"),
                         f.String("name"), f.Id("id")});
  });
  each("processes", [&](const Fields& f) {
    t.processes.push_back({f.Int("pid"), f.String("name"), f.Id("id")});
    t.process_track_pids.push_back(f.Int("track_pid"));
  });
  each("queues", [&](const Fields& f) {
    t.queues.push_back({f.Id("engine"), f.Id("adapter"), static_cast<QueueType>(f.Int("type")),
                        static_cast<int32_t>(f.Int("priority")), f.Id("process"), f.String("name"),
                        static_cast<int32_t>(f.Int("sort_index")), f.Id("id")});
    t.queue_tracks.push_back(f.Track());
  });
  each("contexts", [&](const Fields& f) {
    t.contexts.push_back(
        {f.Id("process"), f.Id("queue"), f.Int("handle"), f.String("name"), f.Id("id")});
  });
  each("threads", [&](const Fields& f) {
    t.threads.push_back({f.Id("process"), f.Int("tid"), static_cast<ThreadKind>(f.Int("kind")),
                         f.String("name"), static_cast<int32_t>(f.Int("sort_index")),
                         f.Id("id")});
    t.thread_tracks.push_back(f.Track());
  });
  each("fences", [&](const Fields& f) {
    t.fences.push_back({f.String("name"), static_cast<FenceKind>(f.Int("kind")),
                        f.Int("shared") != 0, f.Id("owner_adapter"), f.Id("adapter_mask"),
                        static_cast<FenceValue>(f.Int("initial_value")), f.Int("handle"),
                        f.Id("id")});
  });
  return t;
}

}  // namespace importers::chrome_json
