// TraceWriter: the only way anything (the simulator, every importer) writes a fencescope trace.
//
// Atomic replace: rows go to a temporary file beside the target (`<target>.tmp-<pid>`), which is
// renamed over the target only by Commit(). A writer destroyed without Commit() (an exception, a
// failed import) deletes its temporary file, and a killed process leaves only the temporary file:
// the target is either the old good file or the new complete one, never half of either.
//
// Because the temporary file is thrown away on any failure, it is written with SQLite's journal
// and fsync turned off; Commit() syncs the file once before the rename.
//
// Ids returned by Add*/Intern are the SQL row ids (1, 2, ...). Append() returns the event's rowid,
// which later records may reference (e.g. cpu_wait_released.interrupt_event = the interrupt's
// rowid). Not thread-safe: one writer, one thread.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/model/event_kind.h"
#include "core/model/event_record.h"
#include "core/model/event_types.h"
#include "core/model/topology.h"
#include "core/model/types.h"
#include "core/store/string_hash.h"
#include "core/store/trace_sink.h"

namespace core::store {

using namespace core::model;  // NOLINT: value types are the vocabulary of this header

class EventRowPacker;

// An event argument the writer holds until it inserts a batch of them (event_args).
struct PendingEventArg {
  enum class Type : uint8_t { kInt, kReal, kText };
  EventRowId event = 0;
  StringId key = 0;
  Type type = Type::kInt;
  StringId text = 0;  // kText
  union {
    int64_t int_value = 0;  // kInt
    double real_value;      // kReal
  };
};

class TraceWriter : public TraceSink {
 public:
  // `source` goes to meta.source ('simulator', 'chrome-json', 'etl', ...). Throws core::Error
  // when the temporary file cannot be created.
  TraceWriter(std::filesystem::path target, std::string_view source);
  // A writer whose database lives in memory only (an SQLite ":memory:" database): nothing is
  // written to disk. Every Add and Append inserts its rows as for a file, and Commit() inserts
  // the pending events, flows, meta, problems and block index; then the rows are rolled back
  // (no index is built, nothing renamed), the trace going with the writer. The database and its
  // schema are made once per thread and kept for the next in-memory writer of the thread (a
  // second one alive at once gets its own). Events are inserted on the caller's thread. For the
  // importers' fuzz harnesses, which import millions of inputs and must not touch the disk.
  struct InMemory {};
  TraceWriter(InMemory, std::string_view source);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  StringId Intern(std::string_view text) override;

  AdapterId AddAdapter(const Adapter& row) override;
  EngineId AddEngine(const Engine& row) override;
  QueueId AddQueue(const Queue& row) override;
  ProcessId AddProcess(const Process& row) override;
  ContextId AddContext(const Context& row) override;
  ThreadId AddThread(const Thread& row) override;
  FenceId AddFence(const Fence& row) override;
  PsoId AddPso(const Pso& row) override;
  ResourceId AddResource(const Resource& row) override;
  CounterSeriesId AddCounterSeries(const CounterSeries& row);

  // Appends one event; returns its rowid (1-based, in append order). A helper thread builds part
  // of the rows (unless WriteOnOneThread); what fails there is thrown from a later Append or from
  // Commit as core::Error.
  EventRowId Append(const EventRecord& event) override;
  template <events::TypedEvent Typed>
  EventRowId Append(const Typed& event) {
    return Append(event.Record());
  }
  void AddCounterSample(CounterSeriesId series, TimeNs ts, double value);
  void AddFlow(EventRowId from, EventRowId to, FlowKind kind, std::string_view name = {});
  void AddEventArg(EventRowId event, std::string_view key, int64_t value) override;
  void AddEventArg(EventRowId event, std::string_view key, double value);
  void AddEventArg(EventRowId event, std::string_view key, std::string_view text);

  // Inserts every event on the caller's thread, starting no helper. For a writer among others
  // that keep every core busy (the workers of a fleet): the helper's chunks cost more CPU time in
  // all than inserting them here (each is built, then copied), which pays only on an idle core.
  // Call before the first Append.
  void WriteOnOneThread();
  // Whether a helper thread has built rows (for tests).
  bool started_helper_thread() const { return m_lane != nullptr; }

  // From now on every appended event is also packed in memory, as the loader packs the rows it
  // reads (EventRowPacker), so that the trace can be analysed once committed without reading
  // its rows back: LoadTraceWithEvents(target(), TakeKeptEvents()). Costs about 20 bytes an
  // event. Call before the first Append.
  void KeepEvents();
  // The events kept since KeepEvents (all of them, packed); empty when KeepEvents was not called.
  EventRowPacker TakeKeptEvents();

  // Adds `count` to the named problem counter (created on first use with its severity,
  // description and the place it was first seen).
  void CountProblem(std::string_view name, Severity severity, std::string_view description,
                    uint64_t count = 1, std::string_view place = {});

  // Trace-wide facts; later calls replace earlier values of the same key.
  void SetMeta(std::string_view key, std::string_view value) override;

  // Writes meta (time span, counts), builds indexes, syncs, and renames the temporary file over
  // the target. After Commit() the writer accepts nothing more. Throws core::Error on failure
  // (the target is then untouched).
  void Commit();

  uint64_t events_written() const override { return m_events; }
  const std::filesystem::path& target() const { return m_target; }
  const std::filesystem::path& temporary_path() const { return m_temp; }  // empty in memory

 private:
  // `temporary` nullopt: PrepareTemporaryFor(target); empty: the database is `target` itself
  // (":memory:").
  TraceWriter(std::filesystem::path target, std::optional<std::filesystem::path> temporary,
              std::string_view source);
  struct InMemoryCache;
  static void CreateSchema(class Database& db, bool in_memory);
  // In memory: takes the thread's kept database and statements (or makes its own) and begins;
  // rolls back and gives them back.
  void OpenInMemory();
  void CloseInMemory();
  struct Statements;
  class HelperLane;
  struct LaneChunk;
  // One open run of the block range index (schemas/trace_schema.sql, event_blocks).
  struct Block {
    TimeNs start = 0;
    TimeNs end = 0;
    EventRowId first = 0;
    EventRowId last = 0;
    uint32_t events = 0;
  };
  // Events are inserted in chunks that alternate between the caller's thread (a direct chunk,
  // inserted into the trace) and a helper thread (a lane chunk, built as a table of its own in
  // memory and copied into the trace as stored rows, which costs a fraction of an insert).
  static constexpr size_t kDirectChunk = 4096;
  static constexpr size_t kLaneChunk = 10240;
  static constexpr size_t kFlowsPerInsert = 64;
  static constexpr size_t kArgsPerInsert = 4096;
  void MaybeCycleTransaction();
  void EndLongTransaction();
  void ChunkFull();
  void InsertDirect(const std::vector<EventRecord>& records);
  void TransferOldestLaneChunk();
  void FlushAllEvents();
  void FlushPendingFlows();
  void FlushPendingArgs();
  void AddToBlock(std::vector<Block>& blocks, int track_kind, uint32_t track_id, TimeNs ts,
                  EventRowId rowid);
  void FlushBlock(int track_kind, uint32_t track_id, Block& block);

  struct PendingFlow {
    EventRowId from;
    EventRowId to;
    int kind;
    StringId name;  // 0: no name
  };

  std::filesystem::path m_target;
  std::filesystem::path m_temp;
  std::unique_ptr<HelperLane> m_lane;         // started by the first lane chunk
  std::unique_ptr<LaneChunk> m_attached;      // lane chunk being copied (outlives its ATTACH)
  std::shared_ptr<class Database> m_db;       // shared with later in-memory writers
  std::unique_ptr<Statements> m_statements;
  std::unique_ptr<EventRowPacker> m_kept;     // KeepEvents
  std::string m_events_sql;                   // CREATE TABLE events, for the lane's tables
  std::unordered_map<std::string, StringId, TransparentStringHash, std::equal_to<>> m_strings;
  std::unordered_map<std::string, std::string> m_meta;
  struct Problem {
    int severity;
    uint64_t count;
    std::string description;
    std::string place;
  };
  std::unordered_map<std::string, Problem> m_problems;
  std::vector<EventRecord> m_pending;  // appended, not yet inserted nor handed to the lane
  std::vector<EventRecord> m_held;     // a full direct chunk, inserted when the lane chunk
                                       // after it is handed over
  std::vector<PendingFlow> m_pending_flows;
  std::vector<PendingEventArg> m_pending_args;
  std::vector<Block> m_queue_blocks;   // [queue id]
  std::vector<Block> m_thread_blocks;  // [thread id]
  std::vector<Block> m_all_blocks;     // [0]
  uint32_t m_next_id[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  uint64_t m_events = 0;
  uint64_t m_rows_written = 0;  // events in the table (the rest are pending, held or in the lane)
  uint64_t m_rows_in_transaction = 0;
  TimeNs m_min_ts = 0;
  TimeNs m_max_ts = 0;
  uint64_t m_counter_samples = 0;
  TimeNs m_counter_min_ts = 0;
  TimeNs m_counter_max_ts = 0;
  TimeNs m_last_ts = 0;
  bool m_sorted = true;
  bool m_one_thread = false;  // WriteOnOneThread
  bool m_committed = false;
};

// For tests: the next chunk of events built on a writer's helper thread fails as on a full disk.
void InjectHelperLaneFaultForTesting();

}  // namespace core::store
