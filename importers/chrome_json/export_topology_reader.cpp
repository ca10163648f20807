#include "importers/chrome_json/export_topology_reader.h"

#include <fmt/format.h>
#include <simdjson.h>

#include "core/model/error.h"
#include "core/store/topology_tables.h"

namespace importers::chrome_json {
namespace {

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

// One row, a member per column of its table (core/store/topology_tables.h), in column order.
template <typename Row, size_t N>
Row ReadRow(const Fields& f, const core::store::TopologyTable<Row, N>& table) {
  Row row;
  for (const auto& column : table.columns) {
    const std::string key(core::store::TopologyKey(column.sql));
    if (column.text) row.*column.text = f.String(key.c_str());
    else column.set(row, f.Int(key.c_str()));
  }
  return row;
}

}  // namespace

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
  using namespace core::store;  // NOLINT
  each("adapters", [&](const Fields& f) { t.adapters.push_back(ReadRow(f, kAdapterTable)); });
  each("engines", [&](const Fields& f) { t.engines.push_back(ReadRow(f, kEngineTable)); });
  each("processes", [&](const Fields& f) {
    t.processes.push_back(ReadRow(f, kProcessTable));
    t.process_track_pids.push_back(f.Int("track_pid"));
  });
  each("queues", [&](const Fields& f) {
    t.queues.push_back(ReadRow(f, kQueueTable));
    t.queue_tracks.push_back(f.Track());
  });
  each("contexts", [&](const Fields& f) { t.contexts.push_back(ReadRow(f, kContextTable)); });
  each("threads", [&](const Fields& f) {
    t.threads.push_back(ReadRow(f, kThreadTable));
    t.thread_tracks.push_back(f.Track());
  });
  each("fences", [&](const Fields& f) { t.fences.push_back(ReadRow(f, kFenceTable)); });
  return t;
}

}  // namespace importers::chrome_json
