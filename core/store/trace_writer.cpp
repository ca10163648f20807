#include "core/store/trace_writer.h"

#include <cstdio>

#include "core/model/error.h"
#include "core/store/output_file.h"
#include "core/store/schema_sql.h"
#include "core/store/sqlite_db.h"
#include "core/store/topology_tables.h"

namespace core::store {
namespace {
// Rows per transaction: bounds the dirty pages SQLite keeps before writing them out.
constexpr uint64_t kRowsPerTransaction = 1u << 20;

// The rowid is left to SQLite: in a table that only ever grows by appends it is the last rowid
// plus one, which is the writer's own count (FlushPendingEvents checks), and SQLite then skips
// the search for an existing row with that rowid that an explicit rowid costs on every insert.
std::string EventInsertSql(size_t rows) {
  std::string sql =
      "INSERT INTO events(ts_ns, kind, queue_id, thread_id, fence_id, value, op_id, arg0, "
      "arg1, arg2, flags) VALUES ";
  for (size_t r = 0; r < rows; ++r) {
    if (r) sql += ',';
    sql += "(?,?,?,?,?,?,?,?,?,?,?)";
  }
  return sql;
}

enum IdSlot {
  kAdapterSlot, kEngineSlot, kQueueSlot, kProcessSlot, kContextSlot, kThreadSlot, kFenceSlot,
  kPsoSlot, kResourceSlot, kCounterSlot
};
}  // namespace

struct TraceWriter::Statements {
  Statement string, adapter, engine, queue, process, context, thread, fence, pso, resource,
      counter_series, event, counter_sample, flow, arg, block, event_batch;
};

TraceWriter::TraceWriter(std::filesystem::path target, std::string_view source)
    : m_target(ResolveOutputTarget(target)), m_temp(PrepareTemporaryFor(m_target)) {
  m_db = std::make_unique<Database>(m_temp.string(), Database::Mode::kCreate);
  // Safe only because the file is discarded on failure and synced once before the rename.
  m_db->Exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-65536;"
             "PRAGMA page_size=8192; PRAGMA temp_store=MEMORY;");
  m_db->Exec(TraceSchemaSql());
  m_db->Exec(EventKindsSql());
  m_db->Exec("BEGIN");
  auto& db = *m_db;
  m_statements = std::make_unique<Statements>(Statements{
      db.Prepare("INSERT INTO strings(id, value) VALUES (?1, ?2)"),
      db.Prepare(TopologyInsertSql(kAdapterTable)),
      db.Prepare(TopologyInsertSql(kEngineTable)),
      db.Prepare(TopologyInsertSql(kQueueTable)),
      db.Prepare(TopologyInsertSql(kProcessTable)),
      db.Prepare(TopologyInsertSql(kContextTable)),
      db.Prepare(TopologyInsertSql(kThreadTable)),
      db.Prepare(TopologyInsertSql(kFenceTable)),
      db.Prepare(TopologyInsertSql(kPsoTable)),
      db.Prepare(TopologyInsertSql(kResourceTable)),
      db.Prepare(TopologyInsertSql(kCounterSeriesTable)),
      db.Prepare(EventInsertSql(1)),
      db.Prepare("INSERT INTO counter_samples(series_id, ts_ns, value) VALUES (?1,?2,?3)"),
      db.Prepare("INSERT INTO flows(from_event, to_event, kind, name_sid) VALUES (?1,?2,?3,?4)"),
      db.Prepare("INSERT INTO event_args(event_rowid, key_sid, int_value, real_value, text_sid) "
                 "VALUES (?1,?2,?3,?4,?5)"),
      db.Prepare("INSERT INTO event_blocks(track_kind, track_id, start_ns, end_ns, first_rowid, "
                 "last_rowid, events) VALUES (?1,?2,?3,?4,?5,?6,?7)"),
      db.Prepare(EventInsertSql(kEventsPerInsert)),
  });
  m_pending.reserve(kEventsPerInsert);
  m_all_blocks.resize(1);
  m_meta["format"] = std::string(kFormatMarker);
  m_meta["schema_version"] = std::to_string(kSchemaVersion);
  m_meta["source"] = std::string(source);
  m_meta["created_by"] = "fencescope";
  m_meta["clock"] = "ns";
}

TraceWriter::~TraceWriter() {
  if (m_committed) return;
  m_statements.reset();
  if (m_db) m_db->Close();
  std::error_code ignored;
  std::filesystem::remove(m_temp, ignored);
}

void TraceWriter::MaybeCycleTransaction() {
  if (++m_rows_in_transaction >= kRowsPerTransaction) {
    m_db->Exec("COMMIT; BEGIN");
    m_rows_in_transaction = 0;
  }
}

StringId TraceWriter::Intern(std::string_view text) {
  auto it = m_strings.find(std::string(text));
  if (it != m_strings.end()) return it->second;
  StringId id = static_cast<StringId>(m_strings.size() + 1);
  m_strings.emplace(std::string(text), id);
  auto& s = m_statements->string;
  s.BindInt(1, id);
  s.BindText(2, text);
  s.Run();
  return id;
}

namespace {
// Inserts one topology row with id `id`, its strings interned through `writer`.
template <typename Row, size_t N>
uint32_t InsertTopologyRow(TraceWriter& writer, Statement& s, const TopologyTable<Row, N>& table,
                           uint32_t id, const Row& row) {
  BindTopologyRow(s, table, id, row, [&](std::string_view text) { return writer.Intern(text); });
  s.Run();
  return id;
}
}  // namespace

AdapterId TraceWriter::AddAdapter(const Adapter& row) {
  return InsertTopologyRow(*this, m_statements->adapter, kAdapterTable, m_next_id[kAdapterSlot]++, row);
}

EngineId TraceWriter::AddEngine(const Engine& row) {
  return InsertTopologyRow(*this, m_statements->engine, kEngineTable, m_next_id[kEngineSlot]++, row);
}

QueueId TraceWriter::AddQueue(const Queue& row) {
  return InsertTopologyRow(*this, m_statements->queue, kQueueTable, m_next_id[kQueueSlot]++, row);
}

ProcessId TraceWriter::AddProcess(const Process& row) {
  return InsertTopologyRow(*this, m_statements->process, kProcessTable, m_next_id[kProcessSlot]++, row);
}

ContextId TraceWriter::AddContext(const Context& row) {
  return InsertTopologyRow(*this, m_statements->context, kContextTable, m_next_id[kContextSlot]++, row);
}

ThreadId TraceWriter::AddThread(const Thread& row) {
  return InsertTopologyRow(*this, m_statements->thread, kThreadTable, m_next_id[kThreadSlot]++, row);
}

FenceId TraceWriter::AddFence(const Fence& row) {
  return InsertTopologyRow(*this, m_statements->fence, kFenceTable, m_next_id[kFenceSlot]++, row);
}

PsoId TraceWriter::AddPso(const Pso& row) {
  return InsertTopologyRow(*this, m_statements->pso, kPsoTable, m_next_id[kPsoSlot]++, row);
}

ResourceId TraceWriter::AddResource(const Resource& row) {
  return InsertTopologyRow(*this, m_statements->resource, kResourceTable, m_next_id[kResourceSlot]++, row);
}

CounterSeriesId TraceWriter::AddCounterSeries(const CounterSeries& row) {
  return InsertTopologyRow(*this, m_statements->counter_series, kCounterSeriesTable, m_next_id[kCounterSlot]++, row);
}

EventRowId TraceWriter::Append(const EventRecord& e) {
  EventRowId rowid = static_cast<EventRowId>(++m_events);
  m_pending.push_back(e);
  if (m_pending.size() == kEventsPerInsert) FlushPendingEvents();
  if (m_events == 1) {
    m_min_ts = m_max_ts = e.ts;
  } else {
    if (e.ts < m_last_ts) m_sorted = false;
    if (e.ts < m_min_ts) m_min_ts = e.ts;
    if (e.ts > m_max_ts) m_max_ts = e.ts;
  }
  m_last_ts = e.ts;
  AddToBlock(m_all_blocks, 2, 0, e.ts, rowid);
  if (e.queue) AddToBlock(m_queue_blocks, 0, e.queue, e.ts, rowid);
  if (e.thread) AddToBlock(m_thread_blocks, 1, e.thread, e.ts, rowid);
  return rowid;
}

// Rows are inserted kEventsPerInsert at a time through one multi-row INSERT: one statement step
// per batch instead of per row is most of what makes bulk inserts fast in SQLite.
void TraceWriter::FlushPendingEvents() {
  if (m_pending.empty()) return;
  const bool full = m_pending.size() == kEventsPerInsert;
  Statement& s = full ? m_statements->event_batch : m_statements->event;
  int column = 1;
  for (const EventRecord& e : m_pending) {
    s.BindInt(column++, e.ts);
    s.BindInt(column++, static_cast<int>(e.kind));
    s.BindIdOrNull(column++, e.queue);
    s.BindIdOrNull(column++, e.thread);
    s.BindIdOrNull(column++, e.fence);
    s.BindInt(column++, static_cast<int64_t>(e.value));
    s.BindInt(column++, e.op);
    s.BindInt(column++, e.arg0);
    s.BindInt(column++, e.arg1);
    s.BindInt(column++, e.arg2);
    s.BindInt(column++, e.flags);
    if (!full) {
      s.Run();
      column = 1;
    }
  }
  if (full) s.Run();
  // The rowids Append handed out must be the ones SQLite assigned.
  if (sqlite3_last_insert_rowid(m_db->handle()) != static_cast<sqlite3_int64>(m_events)) {
    throw Error(m_target.string() + ": internal error: event rowids out of step");
  }
  m_rows_in_transaction += m_pending.size();
  m_pending.clear();
  if (m_rows_in_transaction >= kRowsPerTransaction) {
    m_db->Exec("COMMIT; BEGIN");
    m_rows_in_transaction = 0;
  }
}

void TraceWriter::AddToBlock(std::vector<Block>& blocks, int track_kind, uint32_t track_id,
                             TimeNs ts, EventRowId rowid) {
  constexpr uint32_t kEventsPerBlock = 256;
  if (blocks.size() <= track_id) blocks.resize(track_id + 1);
  Block& b = blocks[track_id];
  if (b.events == 0) {
    b = Block{ts, ts, rowid, rowid, 1};
  } else {
    if (ts < b.start) b.start = ts;
    if (ts > b.end) b.end = ts;
    b.last = rowid;
    ++b.events;
  }
  if (b.events == kEventsPerBlock) FlushBlock(track_kind, track_id, b);
}

void TraceWriter::FlushBlock(int track_kind, uint32_t track_id, Block& block) {
  if (block.events == 0) return;
  auto& s = m_statements->block;
  s.BindInt(1, track_kind);
  s.BindInt(2, track_id);
  s.BindInt(3, block.start);
  s.BindInt(4, block.end);
  s.BindInt(5, block.first);
  s.BindInt(6, block.last);
  s.BindInt(7, block.events);
  s.Run();
  block.events = 0;
}

void TraceWriter::AddCounterSample(CounterSeriesId series, TimeNs ts, double value) {
  auto& s = m_statements->counter_sample;
  s.BindInt(1, series);
  s.BindInt(2, ts);
  s.BindDouble(3, value);
  s.Run();
  MaybeCycleTransaction();
}

void TraceWriter::AddFlow(EventRowId from, EventRowId to, FlowKind kind, std::string_view name) {
  auto& s = m_statements->flow;
  s.BindInt(1, from);
  s.BindInt(2, to);
  s.BindInt(3, static_cast<int>(kind));
  if (name.empty()) s.BindNull(4);
  else s.BindInt(4, Intern(name));
  s.Run();
  MaybeCycleTransaction();
}

void TraceWriter::AddEventArg(EventRowId event, std::string_view key, int64_t value) {
  auto& s = m_statements->arg;
  s.BindInt(1, event);
  s.BindInt(2, Intern(key));
  s.BindInt(3, value);
  s.BindNull(4);
  s.BindNull(5);
  s.Run();
}

void TraceWriter::AddEventArg(EventRowId event, std::string_view key, double value) {
  auto& s = m_statements->arg;
  s.BindInt(1, event);
  s.BindInt(2, Intern(key));
  s.BindNull(3);
  s.BindDouble(4, value);
  s.BindNull(5);
  s.Run();
}

void TraceWriter::AddEventArg(EventRowId event, std::string_view key, std::string_view text) {
  StringId text_id = Intern(text);
  auto& s = m_statements->arg;
  s.BindInt(1, event);
  s.BindInt(2, Intern(key));
  s.BindNull(3);
  s.BindNull(4);
  s.BindInt(5, text_id);
  s.Run();
}

void TraceWriter::CountProblem(std::string_view name, Severity severity,
                               std::string_view description, uint64_t count,
                               std::string_view place) {
  auto [it, inserted] = m_problems.try_emplace(std::string(name));
  if (inserted) {
    it->second = Problem{static_cast<int>(severity), 0, std::string(description),
                         std::string(place)};
  }
  it->second.count += count;
}

void TraceWriter::SetMeta(std::string_view key, std::string_view value) {
  m_meta[std::string(key)] = std::string(value);
}

void TraceWriter::Commit() {
  if (m_committed) throw Error(m_target.string() + ": trace already committed");
  FlushPendingEvents();
  m_meta["events"] = std::to_string(m_events);
  m_meta["events_sorted"] = m_sorted ? "1" : "0";
  if (!m_meta.count("start_ns")) m_meta["start_ns"] = std::to_string(m_min_ts);
  if (!m_meta.count("end_ns")) m_meta["end_ns"] = std::to_string(m_max_ts);

  Statement meta = m_db->Prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)");
  for (const auto& [key, value] : m_meta) {
    meta.BindText(1, key);
    meta.BindText(2, value);
    meta.Run();
  }
  Statement problem = m_db->Prepare(
      "INSERT INTO import_problems(name, severity, count, description, first_place) "
      "VALUES (?1,?2,?3,?4,?5)");
  for (const auto& [name, p] : m_problems) {
    problem.BindText(1, name);
    problem.BindInt(2, p.severity);
    problem.BindInt(3, static_cast<int64_t>(p.count));
    problem.BindText(4, p.description);
    problem.BindText(5, p.place);
    problem.Run();
  }
  for (uint32_t q = 0; q < m_queue_blocks.size(); ++q) FlushBlock(0, q, m_queue_blocks[q]);
  for (uint32_t t = 0; t < m_thread_blocks.size(); ++t) FlushBlock(1, t, m_thread_blocks[t]);
  FlushBlock(2, 0, m_all_blocks[0]);
  m_db->Exec("COMMIT");
  m_db->Exec(TraceIndexesSql());
  m_statements.reset();
  meta = Statement();
  problem = Statement();
  m_db->Close();
  m_db.reset();

  // One fsync of the complete file, then the atomic rename.
  CommitTemporary(m_temp, m_target);
  m_committed = true;
}

}  // namespace core::store
