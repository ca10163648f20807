// TraceStore: a trace loaded into memory as plain, columnar, time-sorted arrays. This is what the
// analysis, the reports and the UI read; nothing scans SQLite after loading. A process that keeps
// a trace open may release the bulk event columns (EventColumns::ReleaseBulkColumns) and read the
// few records it shows by rowid (record_reader.h), the way Perfetto's UI asks its trace processor.
//
// Layout
//   * Topology tables are vectors indexed by id - 1 (ids start at 1; 0 means none). Use the
//     accessors (Queue(id), ...) to index by id.
//   * `events` holds one entry per row of the `events` table, sorted by (ts_ns, rowid). Because
//     the sort is stable on rowid, events that share a timestamp keep the order they were written.
//   * The event columns are bit-packed (about 20 bytes per event instead of 90): a trace of
//     tens of millions of events fits in memory next to its reconstruction.
//
// A loaded store is read-only; it is safe to read from several threads at once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/event_kind.h"
#include "core/model/event_record.h"
#include "core/model/topology.h"
#include "core/model/types.h"
#include "core/store/packed_column.h"

namespace core::store {

using namespace core::model;  // NOLINT

struct Flow {
  EventRowId from = 0;
  EventRowId to = 0;
  FlowKind kind = FlowKind::kGeneric;
  StringId name = 0;
};

struct ImportProblem {
  std::string name;
  Severity severity = Severity::kInfo;
  uint64_t count = 0;
  std::string description;
  std::string first_place;
};

// The `events` table, column by column, sorted by (ts, rowid). Index i is "event i". Columns
// are bit-packed (packed_column.h): read them with [i] or iterate them; they are built once by
// the loader and never change.
struct EventColumns {
  PackedColumn<TimeNs> ts;
  PackedColumn<EventKind> kind;
  PackedColumn<QueueId> queue;
  PackedColumn<ThreadId> thread;
  PackedColumn<FenceId> fence;
  PackedColumn<uint64_t> value;
  PackedColumn<int64_t> op;
  PackedColumn<int64_t> arg0;
  PackedColumn<int64_t> arg1;
  PackedColumn<int64_t> arg2;
  PackedColumn<uint32_t> flags;
  // rowid of event i. Empty when rowid order was already time order (then rowid = i + 1).
  PackedColumn<EventRowId> rowid;
  // Set by ReleaseBulkColumns(): from then on only ts, kind and rowid are valid.
  bool bulk_released = false;

  size_t size() const { return ts.size(); }
  // Column `column` of event i as SQL stores it (value's 64 bits read as signed), for code that
  // walks the columns or a kind's fields (core/model/event_fields.h) without naming them.
  int64_t ColumnValue(EventColumn column, size_t i) const;
  // Frees queue, thread, fence, value, op, arg0, arg1, arg2 and flags (about three quarters of
  // the columns' memory). Afterwards only ts, kind and rowid (and TraceStore::index_of_rowid)
  // are valid; the other fields of a record are read from the trace file with RecordReader
  // (record_reader.h). For a process that keeps a trace open (the window) once everything that
  // needs whole columns (reconstruction, models, analyses) has been built. Not reversible.
  void ReleaseBulkColumns();
  EventRowId RowIdOf(size_t index) const {
    return rowid.empty() ? static_cast<EventRowId>(index + 1) : rowid[index];
  }
  size_t HeapBytes() const;
};

struct TraceStore {
  std::filesystem::path path;
  std::map<std::string, std::string> meta;
  std::vector<std::string> strings;  // index = StringId; [0] is ""
  std::vector<Adapter> adapters;
  std::vector<Engine> engines;
  std::vector<Queue> queues;
  std::vector<Process> processes;
  std::vector<Context> contexts;
  std::vector<Thread> threads;
  std::vector<Fence> fences;
  std::vector<Pso> psos;
  std::vector<Resource> resources;
  std::vector<CounterSeries> counters;
  std::vector<Flow> flows;
  std::vector<ImportProblem> problems;
  EventColumns events;
  // rowid -> event index (UINT32_MAX for a rowid with no row); empty when rowid order is time
  // order (index = rowid - 1).
  PackedColumn<uint32_t> index_of_rowid;
  // Event indices in rowid order, searched by IndexOfRowId where the rowids lie too far apart for
  // index_of_rowid (a table as long as the largest rowid) or below 1: a damaged or edited trace
  // (the rowids of a trace fencescope writes run 1, 2, ...). Empty otherwise.
  PackedColumn<uint32_t> events_by_rowid;
  // Hash of the `events` rows' content in rowid order, computed as they are read
  // (core/cache/trace_cache.h keeps it with the packed cache made from them).
  uint64_t events_hash = 0;

  const std::string& String(StringId id) const;
  const Queue* FindQueue(QueueId id) const { return Find(queues, id); }
  const Thread* FindThread(ThreadId id) const { return Find(threads, id); }
  const Fence* FindFence(FenceId id) const { return Find(fences, id); }
  const Adapter* FindAdapter(AdapterId id) const { return Find(adapters, id); }
  const Engine* FindEngine(EngineId id) const { return Find(engines, id); }
  const Context* FindContext(ContextId id) const { return Find(contexts, id); }
  const Process* FindProcess(ProcessId id) const { return Find(processes, id); }
  const Pso* FindPso(PsoId id) const { return Find(psos, id); }
  // Event index of a rowid, or SIZE_MAX when out of range.
  size_t IndexOfRowId(EventRowId rowid) const;

  TimeNs start_ns() const;
  TimeNs end_ns() const;
  std::string MetaOr(const std::string& key, const std::string& fallback) const;

 private:
  template <typename T>
  static const T* Find(const std::vector<T>& table, uint32_t id) {
    return id >= 1 && id <= table.size() ? &table[id - 1] : nullptr;
  }
};

// Progress callback: fraction in [0, 1]. May be empty.
using LoadProgress = std::function<void(double fraction)>;

// Loads a trace file (validated by OpenTrace). Throws core::Error.
TraceStore LoadTrace(const std::filesystem::path& path, const LoadProgress& progress = {});

// The same for a trace file's bytes held in memory (`label` names it in messages and is the
// store's path): nothing touches the disk. For the trace loader's fuzz harness.
TraceStore LoadTraceImage(std::string_view image, const std::string& label);

class EventRowPacker;
// Loads a trace file that was just written with TraceWriter::KeepEvents, taking its events from
// what the writer kept (`written`, emptied) instead of reading them back: the same store as
// LoadTrace gives, for a fraction of the time. Throws core::Error when the file does not hold
// as many events as were kept.
TraceStore LoadTraceWithEvents(const std::filesystem::path& path, EventRowPacker&& written);

// Sets store.events (and events_hash, index_of_rowid) from rows packed as written, rowids
// 1..written.rows (MemoryTrace).
void SetEventsFromPacked(TraceStore& store, EventRowPacker&& written);

}  // namespace core::store
