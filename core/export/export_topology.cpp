#include "core/export/export_topology.h"

#include "core/report/json.h"
#include "core/store/topology_tables.h"

namespace core::exporting {
namespace {

using core::report::Json;

Json TrackJson(ExportTrack track) {
  Json j = Json::Array();
  j.Push(track.pid);
  j.Push(track.tid);
  return j;
}

// One row as a JSON object, a member per column (core/store/topology_tables.h), then `extra`.
template <typename Row, size_t N>
Json RowJson(const core::store::TopologyTable<Row, N>& table, const Row& row,
             std::initializer_list<std::pair<const char*, Json>> extra = {}) {
  Json j = Json::Object();
  for (const auto& column : table.columns) {
    const std::string key(core::store::TopologyKey(column.sql));
    if (column.text) j.Set(key, row.*column.text);
    else j.Set(key, column.get(row));
  }
  for (const auto& [key, value] : extra) j.Set(key, value);
  return j;
}

// A JSON array with the rows of `table` in `store`, each with extra(row).
template <typename Row, size_t N, typename Extra>
Json Rows(const core::store::TraceStore& store, const core::store::TopologyTable<Row, N>& table,
          const Extra& extra) {
  Json list = Json::Array();
  for (const Row& row : store.*table.rows) list.Push(extra(row));
  return list;
}

}  // namespace

std::string ExportTopologyJson(
    const core::store::TraceStore& store,
    const std::function<int64_t(const core::store::Process&)>& pid_of,
    const std::function<ExportTrack(const core::store::Queue&)>& queue_track,
    const std::function<ExportTrack(const core::store::Thread&)>& thread_track) {
  using namespace core::store;  // NOLINT
  auto plain = [](const auto& table) {
    return [&table](const auto& row) { return RowJson(table, row); };
  };
  Json j = Json::Object();
  j.Set("start_ns", store.start_ns());
  j.Set("end_ns", store.end_ns());
  j.Set("adapters", Rows(store, kAdapterTable, plain(kAdapterTable)));
  j.Set("engines", Rows(store, kEngineTable, plain(kEngineTable)));
  j.Set("processes", Rows(store, kProcessTable, [&](const Process& p) {
    return RowJson(kProcessTable, p, {{"track_pid", pid_of(p)}});
  }));
  j.Set("queues", Rows(store, kQueueTable, [&](const Queue& q) {
    return RowJson(kQueueTable, q, {{"track", TrackJson(queue_track(q))}});
  }));
  j.Set("contexts", Rows(store, kContextTable, plain(kContextTable)));
  j.Set("threads", Rows(store, kThreadTable, [&](const Thread& t) {
    return RowJson(kThreadTable, t, {{"track", TrackJson(thread_track(t))}});
  }));
  // initial_value: the u64 bits as int64, as the schema stores it.
  j.Set("fences", Rows(store, kFenceTable, plain(kFenceTable)));
  return j.Dump(0);
}

}  // namespace core::exporting
