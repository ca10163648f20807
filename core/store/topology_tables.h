// The topology tables of a trace file (schemas/trace_schema.sql), each described once: its SQL
// name, its columns in order, and for each column the member of the core/model/topology.h struct
// it holds and how it is stored. TraceWriter::Add* inserts rows through these descriptions and
// LoadTrace reads them back through the same ones, so a column is named in one place.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/model/topology.h"
#include "core/store/sqlite_db.h"
#include "core/store/trace_store.h"

namespace core::store {

enum class TopologyColumnKind {
  kId,            // the row's id
  kReference,     // an id of another table; 0 is stored as NULL
  kInt,           // an integer, a flag or an enumeration
  kName,          // a string, stored as its strings.id
  kOptionalName,  // the same, with "" stored as NULL
};

template <typename Row>
struct TopologyColumn {
  const char* sql;
  TopologyColumnKind kind;
  int64_t (*get)(const Row&) = nullptr;  // integer kinds
  void (*set)(Row&, int64_t) = nullptr;  // integer kinds
  std::string Row::*text = nullptr;      // name kinds
};

template <auto Member>
struct MemberOf;
template <typename R, typename T, T R::*Member>
struct MemberOf<Member> {
  using Row = R;
  using Type = T;
};

template <auto Member, TopologyColumnKind Kind = TopologyColumnKind::kInt>
constexpr TopologyColumn<typename MemberOf<Member>::Row> IntColumn(const char* sql) {
  using Row = typename MemberOf<Member>::Row;
  using Type = typename MemberOf<Member>::Type;
  return {sql, Kind, [](const Row& row) { return static_cast<int64_t>(row.*Member); },
          [](Row& row, int64_t value) { row.*Member = static_cast<Type>(value); }};
}
template <auto Member>
constexpr auto IdColumn() {
  return IntColumn<Member, TopologyColumnKind::kId>("id");
}
template <auto Member>
constexpr auto ReferenceColumn(const char* sql) {
  return IntColumn<Member, TopologyColumnKind::kReference>(sql);
}
template <auto Member, TopologyColumnKind Kind = TopologyColumnKind::kName>
constexpr TopologyColumn<typename MemberOf<Member>::Row> NameColumn(const char* sql) {
  return {sql, Kind, nullptr, nullptr, Member};
}

template <typename Row, size_t N>
struct TopologyTable {
  const char* sql;
  std::array<TopologyColumn<Row>, N> columns;
  std::vector<Row> TraceStore::*rows;  // where LoadTrace puts them
};
template <typename Row, typename... Columns>
constexpr auto MakeTopologyTable(const char* sql, std::vector<Row> TraceStore::*rows,
                                 Columns... columns) {
  return TopologyTable<Row, sizeof...(Columns)>{sql, {columns...}, rows};
}

inline constexpr auto kAdapterTable = MakeTopologyTable<Adapter>(
    "adapters", &TraceStore::adapters, IdColumn<&Adapter::id>(),
    NameColumn<&Adapter::name>("name_sid"), IntColumn<&Adapter::luid>("luid"),
    IntColumn<&Adapter::native_fences>("native_fences"),
    IntColumn<&Adapter::optimized_interrupts>("optimized_interrupts"),
    IntColumn<&Adapter::preemption_graphics>("preemption_graphics"),
    IntColumn<&Adapter::preemption_compute>("preemption_compute"));

inline constexpr auto kEngineTable = MakeTopologyTable<Engine>(
    "engines", &TraceStore::engines, IdColumn<&Engine::id>(),
    ReferenceColumn<&Engine::adapter>("adapter_id"), IntColumn<&Engine::type>("type"),
    IntColumn<&Engine::ordinal>("ordinal"), NameColumn<&Engine::name>("name_sid"));

inline constexpr auto kQueueTable = MakeTopologyTable<Queue>(
    "queues", &TraceStore::queues, IdColumn<&Queue::id>(),
    ReferenceColumn<&Queue::engine>("engine_id"), ReferenceColumn<&Queue::adapter>("adapter_id"),
    IntColumn<&Queue::type>("type"), IntColumn<&Queue::priority>("priority"),
    ReferenceColumn<&Queue::process>("process_id"), NameColumn<&Queue::name>("name_sid"),
    IntColumn<&Queue::sort_index>("sort_index"));

inline constexpr auto kProcessTable = MakeTopologyTable<Process>(
    "processes", &TraceStore::processes, IdColumn<&Process::id>(),
    IntColumn<&Process::pid>("pid"), NameColumn<&Process::name>("name_sid"));

inline constexpr auto kContextTable = MakeTopologyTable<Context>(
    "contexts", &TraceStore::contexts, IdColumn<&Context::id>(),
    ReferenceColumn<&Context::process>("process_id"),
    ReferenceColumn<&Context::queue>("queue_id"), IntColumn<&Context::handle>("handle"),
    NameColumn<&Context::name>("name_sid"));

inline constexpr auto kThreadTable = MakeTopologyTable<Thread>(
    "threads", &TraceStore::threads, IdColumn<&Thread::id>(),
    ReferenceColumn<&Thread::process>("process_id"), IntColumn<&Thread::tid>("tid"),
    IntColumn<&Thread::kind>("kind"), NameColumn<&Thread::name>("name_sid"),
    IntColumn<&Thread::sort_index>("sort_index"));

inline constexpr auto kFenceTable = MakeTopologyTable<Fence>(
    "fences", &TraceStore::fences, IdColumn<&Fence::id>(), NameColumn<&Fence::name>("name_sid"),
    IntColumn<&Fence::kind>("kind"), IntColumn<&Fence::shared>("shared"),
    ReferenceColumn<&Fence::owner_adapter>("owner_adapter_id"),
    IntColumn<&Fence::adapter_mask>("adapter_mask"),
    IntColumn<&Fence::initial_value>("initial_value"), IntColumn<&Fence::handle>("handle"));

inline constexpr auto kPsoTable = MakeTopologyTable<Pso>(
    "psos", &TraceStore::psos, IdColumn<&Pso::id>(), NameColumn<&Pso::name>("name_sid"),
    IntColumn<&Pso::shaders>("shaders"));

inline constexpr auto kResourceTable = MakeTopologyTable<Resource>(
    "resources", &TraceStore::resources, IdColumn<&Resource::id>(),
    NameColumn<&Resource::name>("name_sid"), IntColumn<&Resource::size_bytes>("size_bytes"));

inline constexpr auto kCounterSeriesTable = MakeTopologyTable<CounterSeries>(
    "counter_series", &TraceStore::counters, IdColumn<&CounterSeries::id>(),
    NameColumn<&CounterSeries::name>("name_sid"),
    ReferenceColumn<&CounterSeries::process>("process_id"),
    NameColumn<&CounterSeries::unit, TopologyColumnKind::kOptionalName>("unit_sid"));

// Every topology table, for code that handles them all alike (the loader).
inline constexpr auto kTopologyTables =
    std::tie(kAdapterTable, kEngineTable, kQueueTable, kProcessTable, kContextTable, kThreadTable,
             kFenceTable, kPsoTable, kResourceTable, kCounterSeriesTable);

// The column's name without its storage suffix ("name_sid" -> "name", "adapter_id" ->
// "adapter", "id" stays): the key a topology row has in fencescope's JSON export.
inline std::string_view TopologyKey(std::string_view sql) {
  for (std::string_view suffix : {std::string_view("_sid"), std::string_view("_id")}) {
    if (sql.size() > suffix.size() && sql.substr(sql.size() - suffix.size()) == suffix) {
      return sql.substr(0, sql.size() - suffix.size());
    }
  }
  return sql;
}

// "INSERT INTO <table>(<columns>) VALUES (?1, ...)".
template <typename Row, size_t N>
std::string TopologyInsertSql(const TopologyTable<Row, N>& table) {
  std::string columns;
  std::string values;
  for (size_t i = 0; i < N; ++i) {
    if (i) {
      columns += ", ";
      values += ',';
    }
    columns += table.columns[i].sql;
    values += '?' + std::to_string(i + 1);
  }
  return "INSERT INTO " + std::string(table.sql) + "(" + columns + ") VALUES (" + values + ")";
}

// "SELECT <columns> FROM <table> ORDER BY id".
template <typename Row, size_t N>
std::string TopologySelectSql(const TopologyTable<Row, N>& table) {
  std::string sql = "SELECT ";
  for (size_t i = 0; i < N; ++i) {
    if (i) sql += ", ";
    sql += table.columns[i].sql;
  }
  return sql + " FROM " + table.sql + " ORDER BY id";
}

// Binds `row` with id `id` to an insert made by TopologyInsertSql; `intern(text)` gives a
// string's id. Strings are interned in column order.
template <typename Row, size_t N, typename Intern>
void BindTopologyRow(Statement& s, const TopologyTable<Row, N>& table, uint32_t id,
                     const Row& row, Intern&& intern) {
  for (size_t i = 0; i < N; ++i) {
    const TopologyColumn<Row>& column = table.columns[i];
    const int index = static_cast<int>(i + 1);
    switch (column.kind) {
      case TopologyColumnKind::kId: s.BindInt(index, id); break;
      case TopologyColumnKind::kReference:
        s.BindIdOrNull(index, static_cast<uint32_t>(column.get(row)));
        break;
      case TopologyColumnKind::kInt: s.BindInt(index, column.get(row)); break;
      case TopologyColumnKind::kName: s.BindInt(index, intern(row.*column.text)); break;
      case TopologyColumnKind::kOptionalName:
        if ((row.*column.text).empty()) s.BindNull(index);
        else s.BindInt(index, intern(row.*column.text));
        break;
    }
  }
}

// Reads the current row of a select made by TopologySelectSql; `name(sid)` gives a string.
template <typename Row, size_t N, typename Name>
Row ReadTopologyRow(const Statement& s, const TopologyTable<Row, N>& table, Name&& name) {
  Row row;
  for (size_t i = 0; i < N; ++i) {
    const TopologyColumn<Row>& column = table.columns[i];
    const int index = static_cast<int>(i);
    switch (column.kind) {
      case TopologyColumnKind::kId:
      case TopologyColumnKind::kReference:
        column.set(row, s.ColumnIsNull(index) ? 0 : static_cast<uint32_t>(s.ColumnInt(index)));
        break;
      case TopologyColumnKind::kInt: column.set(row, s.ColumnInt(index)); break;
      case TopologyColumnKind::kName: row.*column.text = name(s.ColumnInt(index)); break;
      case TopologyColumnKind::kOptionalName:
        row.*column.text = s.ColumnIsNull(index) ? "" : name(s.ColumnInt(index));
        break;
    }
  }
  return row;
}

}  // namespace core::store
