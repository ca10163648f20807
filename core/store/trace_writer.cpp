#include "core/store/trace_writer.h"

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "core/model/error.h"
#include "core/store/event_row_packer.h"
#include "core/store/memory_rows_table.h"
#include "core/store/output_file.h"
#include "core/store/schema_sql.h"
#include "core/store/sqlite_db.h"
#include "core/store/topology_tables.h"

namespace core::store {
namespace {
// Rows per transaction: bounds the dirty pages SQLite keeps before writing them out.
constexpr uint64_t kRowsPerTransaction = 1u << 20;

// Events are inserted a chunk at a time by one statement that reads the chunk's records through
// an eponymous virtual table (memory_rows_table.h): no parameter binding per value, one statement
// step per chunk. The rowid is left to SQLite: in a table that only ever grows by appends it is
// the last rowid plus one, which is the writer's own count (InsertDirect checks).
constexpr const char* kEventRowsModule = "fencescope_event_rows";
constexpr const char* kInsertEventRowsSql =
    "INSERT INTO main.events(ts_ns, kind, queue_id, thread_id, fence_id, value, op_id, arg0, "
    "arg1, arg2, flags) SELECT * FROM fencescope_event_rows";

struct EventColumns {
  using Row = EventRecord;
  static constexpr const char* kDeclaration =
      "CREATE TABLE x(ts_ns, kind, queue_id, thread_id, fence_id, value, op_id, arg0, arg1, "
      "arg2, flags)";
  static void Column(const EventRecord& e, int column, sqlite3_context* context) {
    switch (column) {
      case 0: sqlite3_result_int64(context, e.ts); break;
      case 1: sqlite3_result_int64(context, static_cast<int>(e.kind)); break;
      case 2: ResultIdOrNull(context, e.queue); break;
      case 3: ResultIdOrNull(context, e.thread); break;
      case 4: ResultIdOrNull(context, e.fence); break;
      case 5: sqlite3_result_int64(context, static_cast<int64_t>(e.value)); break;
      case 6: sqlite3_result_int64(context, e.op); break;
      case 7: sqlite3_result_int64(context, e.arg0); break;
      case 8: sqlite3_result_int64(context, e.arg1); break;
      case 9: sqlite3_result_int64(context, e.arg2); break;
      default: sqlite3_result_int64(context, e.flags); break;
    }
  }
};
using EventRows = RowSpan<EventRecord>;

// Makes fencescope_event_rows read `source` on `db`; returns the insert statement.
Statement PrepareEventRowsInsert(sqlite3* db, EventRows* source, const std::string& label) {
  return PrepareMemoryRowsInsert<EventColumns>(db, kEventRowsModule, kInsertEventRowsSql, source,
                                               label);
}

// Event arguments are inserted the same way, a batch at a time: a bound INSERT per argument
// cost an importer that keeps several arguments per packet as much as its events.
constexpr const char* kArgRowsModule = "fencescope_arg_rows";
constexpr const char* kInsertArgRowsSql =
    "INSERT INTO main.event_args(event_rowid, key_sid, int_value, real_value, text_sid) "
    "SELECT * FROM fencescope_arg_rows";

struct ArgColumns {
  using Row = PendingEventArg;
  static constexpr const char* kDeclaration =
      "CREATE TABLE x(event_rowid, key_sid, int_value, real_value, text_sid)";
  static void Column(const Row& a, int column, sqlite3_context* context) {
    using Type = PendingEventArg::Type;
    switch (column) {
      case 0: sqlite3_result_int64(context, static_cast<int64_t>(a.event)); break;
      case 1: sqlite3_result_int64(context, a.key); break;
      case 2:
        if (a.type == Type::kInt) sqlite3_result_int64(context, a.int_value);
        else sqlite3_result_null(context);
        break;
      case 3:
        if (a.type == Type::kReal) sqlite3_result_double(context, a.real_value);
        else sqlite3_result_null(context);
        break;
      default:
        if (a.type == Type::kText) sqlite3_result_int64(context, a.text);
        else sqlite3_result_null(context);
        break;
    }
  }
};

std::string FlowInsertSql(size_t rows) {
  std::string sql = "INSERT INTO flows(from_event, to_event, kind, name_sid) VALUES ";
  for (size_t r = 0; r < rows; ++r) {
    if (r) sql += ',';
    sql += "(?,?,?,?)";
  }
  return sql;
}

std::atomic<bool> g_lane_fault{false};

enum IdSlot {
  kAdapterSlot, kEngineSlot, kQueueSlot, kProcessSlot, kContextSlot, kThreadSlot, kFenceSlot,
  kPsoSlot, kResourceSlot, kCounterSlot
};
}  // namespace

void InjectHelperLaneFaultForTesting() { g_lane_fault = true; }

struct TraceWriter::Statements {
  Statement string, adapter, engine, queue, process, context, thread, fence, pso, resource,
      counter_series, counter_sample, flow, block, flow_batch, meta, problem;
  EventRows event_rows;    // what event_insert reads
  Statement event_insert;  // PrepareEventRowsInsert
  RowSpan<PendingEventArg> arg_rows;  // what arg_insert reads
  Statement arg_insert;               // kInsertArgRowsSql

  static std::unique_ptr<Statements> Prepare(Database& db, const std::string& label);
  // Every statement reset (one a failure left half run included), bindings kept.
  void ResetAll() {
    for (Statement* s : {&string, &adapter, &engine, &queue, &process, &context, &thread, &fence,
                         &pso, &resource, &counter_series, &counter_sample, &flow, &block,
                         &flow_batch, &meta, &problem, &event_insert, &arg_insert}) {
      s->Reset();
    }
    event_rows = EventRows{};
  }
};

std::unique_ptr<TraceWriter::Statements> TraceWriter::Statements::Prepare(
    Database& db, const std::string& label) {
  auto statements = std::make_unique<Statements>(Statements{
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
      db.Prepare("INSERT INTO counter_samples(series_id, ts_ns, value) VALUES (?1,?2,?3)"),
      db.Prepare("INSERT INTO flows(from_event, to_event, kind, name_sid) VALUES (?1,?2,?3,?4)"),
      db.Prepare("INSERT INTO event_blocks(track_kind, track_id, start_ns, end_ns, first_rowid, "
                 "last_rowid, events) VALUES (?1,?2,?3,?4,?5,?6,?7)"),
      db.Prepare(FlowInsertSql(kFlowsPerInsert)),
      db.Prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)"),
      db.Prepare("INSERT INTO import_problems(name, severity, count, description, first_place) "
                 "VALUES (?1,?2,?3,?4,?5)"),
      {},  // event_rows, event_insert, arg_rows, arg_insert: below, once the statements above
      {},  // exist
      {},
      {},
  });
  statements->event_insert = PrepareEventRowsInsert(db.handle(), &statements->event_rows, label);
  statements->arg_insert = PrepareMemoryRowsInsert<ArgColumns>(
      db.handle(), kArgRowsModule, kInsertArgRowsSql, &statements->arg_rows, label);
  return statements;
}

// The database of this thread's in-memory writers, kept with its prepared statements (taken by
// the writer that uses them, given back when it goes): making the schema and preparing the
// statements is most of a small import's time (SQLite parses the whole schema again for each
// CREATE), so it is done once per thread and each writer's rows are rolled back instead.
struct TraceWriter::InMemoryCache {
  std::shared_ptr<Database> db;
  std::unique_ptr<Statements> statements;

  static InMemoryCache& OfThisThread() {
    thread_local InMemoryCache cache;
    return cache;
  }
};

// A chunk of events for the helper thread, and once built, the in-memory database holding them
// as table `events` (same definition as the trace's, so that SQLite copies its rows into the
// trace as stored: INSERT INTO events SELECT * FROM <chunk>.events).
struct TraceWriter::LaneChunk {
  std::vector<EventRecord> records;
  uint64_t rows = 0;
  sqlite3* db = nullptr;
  unsigned char* image = nullptr;  // the database's bytes, owned by `db`
  sqlite3_int64 image_size = 0;
  std::exception_ptr error;
  bool done = false;

  LaneChunk() = default;
  LaneChunk(const LaneChunk&) = delete;
  LaneChunk& operator=(const LaneChunk&) = delete;
  ~LaneChunk() {
    if (db) sqlite3_close_v2(db);
  }

  // Runs on the helper thread.
  void Build(const std::string& events_sql, const std::string& label) {
    if (sqlite3_open_v2("chunk", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        "memdb") != SQLITE_OK) {
      throw Error(label + ": cannot open an in-memory database: " +
                  (db ? sqlite3_errmsg(db) : "out of memory"));
    }
    sqlite3_extended_result_codes(db, 1);
    if (g_lane_fault.exchange(false)) {
      sqlite3_int64 limit = 64 * 1024;
      sqlite3_file_control(db, "main", SQLITE_FCNTL_SIZE_LIMIT, &limit);
    }
    auto exec = [&](const std::string& sql) {
      char* message = nullptr;
      if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message ? message : sqlite3_errmsg(db);
        sqlite3_free(message);
        throw Error(label + ": SQL error: " + text);
      }
    };
    exec("PRAGMA page_size=8192; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;");
    exec(events_sql);
    exec("BEGIN");
    {
      EventRows source;
      Statement insert = PrepareEventRowsInsert(db, &source, label);
      InsertMemoryRows(insert, source, records);
    }
    exec("COMMIT");
    image = sqlite3_serialize(db, "main", &image_size, SQLITE_SERIALIZE_NOCOPY);
    if (!image) throw Error(label + ": cannot read back an in-memory database");
    std::vector<EventRecord>().swap(records);  // (assigning {} would keep the storage)
  }
};

// The helper thread: builds the chunks handed to it, oldest first. At most kMaxChunks are in
// its hands at once (one building, one waiting), which bounds the memory it holds.
class TraceWriter::HelperLane {
 public:
  static constexpr size_t kMaxChunks = 2;

  HelperLane(std::string events_sql, std::string label)
      : m_events_sql(std::move(events_sql)), m_label(std::move(label)),
        m_thread([this] { Run(); }) {}
  ~HelperLane() {
    {
      std::lock_guard lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
  }

  size_t in_flight() const { return m_chunks.size(); }

  // Hands over a chunk (the caller takes the oldest before handing over more than kMaxChunks).
  // Only the caller's thread calls Submit and TakeOldest.
  void Submit(std::vector<EventRecord> records) {
    auto chunk = std::make_unique<LaneChunk>();
    chunk->records = std::move(records);
    chunk->rows = chunk->records.size();
    std::unique_lock lock(m_mutex);
    if (m_chunks.size() >= kMaxChunks) {
      throw Error(m_label + ": internal error: helper lane over its bound");
    }
    m_chunks.push_back(std::move(chunk));
    lock.unlock();
    m_wake.notify_one();
  }

  // Waits for the oldest chunk and returns it built, or throws what building it threw.
  std::unique_ptr<LaneChunk> TakeOldest() {
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [&] { return m_chunks.front()->done; });
    std::unique_ptr<LaneChunk> chunk = std::move(m_chunks.front());
    m_chunks.pop_front();
    --m_next;
    lock.unlock();
    if (chunk->error) std::rethrow_exception(chunk->error);
    return chunk;
  }

 private:
  void Run() {
    std::unique_lock lock(m_mutex);
    for (;;) {
      m_wake.wait(lock, [&] { return m_stop || m_next < m_chunks.size(); });
      if (m_stop) return;
      LaneChunk* chunk = m_chunks[m_next].get();
      ++m_next;
      lock.unlock();
      try {
        chunk->Build(m_events_sql, m_label);
      } catch (...) {
        chunk->error = std::current_exception();
      }
      lock.lock();
      chunk->done = true;
      m_done.notify_all();
    }
  }

  const std::string m_events_sql;
  const std::string m_label;
  std::mutex m_mutex;
  std::condition_variable m_wake;  // a chunk was handed over, or stop
  std::condition_variable m_done;  // a chunk was built
  std::deque<std::unique_ptr<LaneChunk>> m_chunks;
  size_t m_next = 0;  // m_chunks[m_next] is the next to build
  bool m_stop = false;
  std::thread m_thread;
};

TraceWriter::TraceWriter(std::filesystem::path target, std::string_view source)
    : TraceWriter(ResolveOutputTarget(target), std::nullopt, source) {}

// SQLite's ":memory:" database: private to this connection, gone when it closes.
TraceWriter::TraceWriter(InMemory, std::string_view source)
    : TraceWriter(std::filesystem::path(":memory:"), std::filesystem::path(), source) {}

TraceWriter::TraceWriter(std::filesystem::path target,
                         std::optional<std::filesystem::path> temporary, std::string_view source)
    : m_target(std::move(target)),
      m_temp(temporary ? std::move(*temporary) : PrepareTemporaryFor(m_target)) {
  if (m_temp.empty()) {
    OpenInMemory();
  } else {
    m_db = std::make_shared<Database>(m_temp.string(), Database::Mode::kCreate);
    CreateSchema(*m_db, false);
    m_db->Exec("BEGIN");
    m_statements = Statements::Prepare(*m_db, m_temp.string());
    Statement events_sql = m_db->Prepare("SELECT sql FROM sqlite_master WHERE name = 'events'");
    if (events_sql.Step()) m_events_sql = events_sql.ColumnText(0);
  }
  // m_pending grows to its first chunk as events come: a small trace (a test's, a fuzz input's)
  // never holds a whole chunk's room.
  m_all_blocks.resize(1);
  m_meta["format"] = std::string(kFormatMarker);
  m_meta["schema_version"] = std::to_string(kSchemaVersion);
  m_meta["source"] = std::string(source);
  m_meta["created_by"] = "fencescope";
  m_meta["clock"] = "ns";
}

TraceWriter::~TraceWriter() {
  m_lane.reset();  // stops the helper thread
  if (m_committed) return;
  if (m_temp.empty()) {  // in memory: nothing on disk; the rows go, the schema stays
    CloseInMemory();
    return;
  }
  m_statements.reset();
  if (m_db) m_db->Close();
  m_attached.reset();
  std::error_code ignored;
  std::filesystem::remove(m_temp, ignored);
}

void TraceWriter::OpenInMemory() {
  m_one_thread = true;  // the helper's chunks are copied in by COMMIT and BEGIN
  InMemoryCache& cache = InMemoryCache::OfThisThread();
  if (cache.db && cache.db.use_count() == 1 && cache.statements) {
    m_db = cache.db;
    m_statements = std::move(cache.statements);
  } else {  // the first on this thread, or another in-memory writer holds the kept database
    m_db = std::make_shared<Database>(":memory:", Database::Mode::kCreate);
    CreateSchema(*m_db, true);
    m_statements = Statements::Prepare(*m_db, m_target.string());
    if (!cache.db) cache.db = m_db;
  }
  m_db->Exec("BEGIN");
}

void TraceWriter::CloseInMemory() {
  InMemoryCache& cache = InMemoryCache::OfThisThread();
  m_statements->ResetAll();
  try {
    m_db->Exec("ROLLBACK");
    if (cache.db == m_db) cache.statements = std::move(m_statements);
  } catch (const Error&) {
    // Rows might be left behind: the next writer on this thread makes a database of its own.
    if (cache.db == m_db) cache = {};
  }
  m_statements.reset();
  m_db.reset();
}

void TraceWriter::CreateSchema(Database& db, bool in_memory) {
  // No journal: safe only because the file is discarded on failure and synced once before the
  // rename. In memory the journal is what ROLLBACK undoes each writer's rows with (with none,
  // ROLLBACK leaves them in place).
  db.Exec(in_memory ? "PRAGMA journal_mode=MEMORY;" : "PRAGMA journal_mode=OFF;");
  db.Exec("PRAGMA synchronous=OFF; PRAGMA cache_size=-65536; PRAGMA page_size=8192;"
          "PRAGMA temp_store=MEMORY;");
  db.Exec(TraceSchemaSql());
  db.Exec(EventKindsSql());
}

void TraceWriter::MaybeCycleTransaction() {
  ++m_rows_in_transaction;
  EndLongTransaction();
}

// After kRowsPerTransaction rows, COMMIT and BEGIN again. In memory the one transaction is
// rolled back at the end: nothing is committed before.
void TraceWriter::EndLongTransaction() {
  if (m_rows_in_transaction < kRowsPerTransaction || m_temp.empty()) return;
  m_db->Exec("COMMIT; BEGIN");
  m_rows_in_transaction = 0;
}

StringId TraceWriter::Intern(std::string_view text) {
  auto it = m_strings.find(text);
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
  if (m_pending.size() == (m_held.empty() ? kDirectChunk : kLaneChunk)) ChunkFull();
  if (m_events == 1) {
    m_min_ts = m_max_ts = e.ts;
  } else {
    if (e.ts < m_last_ts) m_sorted = false;
    if (e.ts < m_min_ts) m_min_ts = e.ts;
    if (e.ts > m_max_ts) m_max_ts = e.ts;
  }
  m_last_ts = e.ts;
  if (m_kept) m_kept->Add(rowid, e);
  AddToBlock(m_all_blocks, 2, 0, e.ts, rowid);
  if (e.queue) AddToBlock(m_queue_blocks, 0, e.queue, e.ts, rowid);
  if (e.thread) AddToBlock(m_thread_blocks, 1, e.thread, e.ts, rowid);
  return rowid;
}

void TraceWriter::WriteOnOneThread() {
  if (m_events != 0)
    throw Error(m_target.string() + ": internal error: WriteOnOneThread after Append");
  m_one_thread = true;
}

// Chunks go: direct, lane, direct, lane, ... A full direct chunk is held until the lane chunk
// after it is full; then the lane chunk is handed to the helper thread and the direct chunk is
// inserted on this thread while the helper builds. A lane chunk is copied into the trace before
// the next direct chunk is inserted, so rows reach the table in append order.
void TraceWriter::ChunkFull() {
  if (m_one_thread) {
    InsertDirect(m_pending);
    m_pending.clear();
    return;
  }
  if (m_held.empty()) {
    m_held.swap(m_pending);
    m_pending.clear();
    m_pending.reserve(kLaneChunk);
    return;
  }
  if (!m_lane) m_lane = std::make_unique<HelperLane>(m_events_sql, m_target.string());
  m_lane->Submit(std::move(m_pending));
  m_pending = {};
  while (m_lane->in_flight() > 1) TransferOldestLaneChunk();
  InsertDirect(m_held);
  m_held.clear();
  m_pending.swap(m_held);  // reuses the held chunk's storage
  m_pending.reserve(kDirectChunk);
}

// One statement step inserts the whole chunk (kInsertEventRowsSql).
void TraceWriter::InsertDirect(const std::vector<EventRecord>& records) {
  if (records.empty()) return;
  InsertMemoryRows(m_statements->event_insert, m_statements->event_rows, records);
  m_rows_written += records.size();
  // The rowids Append handed out must be the ones SQLite assigned.
  if (sqlite3_last_insert_rowid(m_db->handle()) != static_cast<sqlite3_int64>(m_rows_written)) {
    throw Error(m_target.string() + ": internal error: event rowids out of step");
  }
  m_rows_in_transaction += records.size();
  EndLongTransaction();
}

// Copies the rows of the oldest lane chunk into the trace as SQLite stored them. The chunk's
// database is attached read-only over its bytes; detaching needs the transaction ended.
void TraceWriter::TransferOldestLaneChunk() {
  m_attached = m_lane->TakeOldest();
  m_db->Exec("ATTACH ':memory:' AS lane");
  if (sqlite3_deserialize(m_db->handle(), "lane", m_attached->image, m_attached->image_size,
                          m_attached->image_size, SQLITE_DESERIALIZE_READONLY) != SQLITE_OK) {
    throw Error(m_target.string() + ": cannot attach an in-memory database: " +
                sqlite3_errmsg(m_db->handle()));
  }
  m_db->Exec("INSERT INTO main.events SELECT * FROM lane.events; COMMIT; DETACH lane; BEGIN");
  m_rows_in_transaction = 0;
  m_rows_written += m_attached->rows;
  m_attached.reset();
}

void TraceWriter::FlushAllEvents() {
  while (m_lane && m_lane->in_flight() > 0) TransferOldestLaneChunk();
  InsertDirect(m_held);
  m_held.clear();
  InsertDirect(m_pending);
  m_pending.clear();
  const int64_t last = m_db->QueryInt("SELECT max(rowid) FROM events");
  if (last != static_cast<int64_t>(m_events)) {
    throw Error(m_target.string() + ": internal error: event rowids out of step");
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
  // Counter samples are part of the trace's span (a capture of counters alone has one).
  if (m_counter_samples++ == 0) {
    m_counter_min_ts = m_counter_max_ts = ts;
  } else {
    m_counter_min_ts = std::min(m_counter_min_ts, ts);
    m_counter_max_ts = std::max(m_counter_max_ts, ts);
  }
}

void TraceWriter::AddFlow(EventRowId from, EventRowId to, FlowKind kind, std::string_view name) {
  m_pending_flows.push_back({from, to, static_cast<int>(kind), name.empty() ? 0 : Intern(name)});
  if (m_pending_flows.size() == kFlowsPerInsert) FlushPendingFlows();
}

void TraceWriter::FlushPendingFlows() {
  if (m_pending_flows.empty()) return;
  const bool full = m_pending_flows.size() == kFlowsPerInsert;
  Statement& s = full ? m_statements->flow_batch : m_statements->flow;
  int column = 1;
  for (const PendingFlow& f : m_pending_flows) {
    s.BindInt(column++, f.from);
    s.BindInt(column++, f.to);
    s.BindInt(column++, f.kind);
    s.BindIdOrNull(column++, f.name);
    if (!full) {
      s.Run();
      column = 1;
    }
  }
  if (full) s.Run();
  m_rows_in_transaction += m_pending_flows.size();
  m_pending_flows.clear();
  EndLongTransaction();
}

void TraceWriter::AddEventArg(EventRowId event, std::string_view key, int64_t value) {
  PendingEventArg& a = m_pending_args.emplace_back();
  a.event = event;
  a.key = Intern(key);
  a.type = PendingEventArg::Type::kInt;
  a.int_value = value;
  if (m_pending_args.size() == kArgsPerInsert) FlushPendingArgs();
}

void TraceWriter::AddEventArg(EventRowId event, std::string_view key, double value) {
  PendingEventArg& a = m_pending_args.emplace_back();
  a.event = event;
  a.key = Intern(key);
  a.type = PendingEventArg::Type::kReal;
  a.real_value = value;
  if (m_pending_args.size() == kArgsPerInsert) FlushPendingArgs();
}

void TraceWriter::AddEventArg(EventRowId event, std::string_view key, std::string_view text) {
  PendingEventArg& a = m_pending_args.emplace_back();
  a.event = event;
  a.key = Intern(key);
  a.type = PendingEventArg::Type::kText;
  a.text = Intern(text);
  if (m_pending_args.size() == kArgsPerInsert) FlushPendingArgs();
}

// One statement step inserts the batch (kInsertArgRowsSql).
void TraceWriter::FlushPendingArgs() {
  if (m_pending_args.empty()) return;
  InsertMemoryRows(m_statements->arg_insert, m_statements->arg_rows, m_pending_args);
  m_rows_in_transaction += m_pending_args.size();
  m_pending_args.clear();
  EndLongTransaction();
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

void TraceWriter::KeepEvents() {
  if (m_events > 0) throw Error(m_target.string() + ": KeepEvents after the first event");
  m_kept = std::make_unique<EventRowPacker>();
}

EventRowPacker TraceWriter::TakeKeptEvents() {
  if (!m_kept) return EventRowPacker();
  m_kept->Flush();
  EventRowPacker kept = std::move(*m_kept);
  m_kept.reset();
  return kept;
}

void TraceWriter::Commit() {
  if (m_committed) throw Error(m_target.string() + ": trace already committed");
  FlushAllEvents();
  m_lane.reset();
  FlushPendingFlows();
  FlushPendingArgs();
  m_meta["events"] = std::to_string(m_events);
  m_meta["events_sorted"] = m_sorted ? "1" : "0";
  TimeNs start = m_min_ts, end = m_max_ts;
  if (m_counter_samples > 0) {
    start = m_events > 0 ? std::min(start, m_counter_min_ts) : m_counter_min_ts;
    end = m_events > 0 ? std::max(end, m_counter_max_ts) : m_counter_max_ts;
  }
  if (!m_meta.count("start_ns")) m_meta["start_ns"] = std::to_string(start);
  if (!m_meta.count("end_ns")) m_meta["end_ns"] = std::to_string(end);

  Statement& meta = m_statements->meta;
  for (const auto& [key, value] : m_meta) {
    meta.BindText(1, key);
    meta.BindText(2, value);
    meta.Run();
  }
  Statement& problem = m_statements->problem;
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
  if (m_temp.empty()) {
    // In memory: every row is in; nothing keeps them (nor builds the indexes a file reader
    // wants), so that the next writer finds the database empty.
    CloseInMemory();
    m_committed = true;
    return;
  }
  m_db->Exec("COMMIT");
  m_db->Exec(TraceIndexesSql());
  m_statements.reset();
  m_db->Close();
  m_db.reset();

  // One fsync of the complete file, then the atomic rename.
  CommitTemporary(m_temp, m_target);
  m_committed = true;
}

}  // namespace core::store
