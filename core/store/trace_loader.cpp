// LoadTrace: reads a validated trace file into a TraceStore.
//
// Events are read in rowid order (no ORDER BY: SQLite would need an index or a sort), the two
// halves of the rowid range on two connections at once, and packed into the bit-packed columns
// as they are read (LoadEvents below). When rowid order turns out to be time order (as the
// simulator and the importers that sort their records write) the columns are used as read;
// otherwise they are put in the order a stable sort on ts gives.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <numeric>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "core/cache/trace_cache.h"
#include "core/model/error.h"
#include "core/store/event_row.h"
#include "core/store/event_row_packer.h"
#include "core/store/topology_tables.h"
#include "core/store/trace_file.h"
#include "core/store/trace_store.h"
#include "core/store/two_thread_sort.h"

namespace core::store {
namespace {

uint32_t NullableId(const Statement& s, int index) {
  return s.ColumnIsNull(index) ? 0u : static_cast<uint32_t>(s.ColumnInt(index));
}

template <typename Row, size_t N, typename Name>
void LoadTopologyTable(Database& db, const TopologyTable<Row, N>& table, const Name& name,
                       TraceStore& store) {
  Statement s = db.Prepare(TopologySelectSql(table));
  std::vector<Row>& rows = store.*table.rows;
  while (s.Step()) rows.push_back(ReadTopologyRow(s, table, name));
}

// The strings table is indexed by id (a std::string an id up to the largest), so its ids must
// stay near its row count, as the events' rowids must (LargestRowIdForATable): 0 and up, the
// largest at most twice the rows and a million. fencescope writes 1, 2, 3...; a damaged or
// hostile file with one string at id 2^40 asked for 35 TB, one at 5e7 for 3 GB and 18 s (found
// by fuzz_trace_db), one below 0 failed with a bare "vector::_M_default_append".
// The largest id a table indexed by id may hold for `rows` rows (twice the rows and a million):
// the table then stays near the size of the rows themselves.
int64_t LargestIdForRows(int64_t rows) { return 2 * rows + (int64_t{1} << 20); }

void CheckStringIds(Database& db) {
  Statement s = db.Prepare("SELECT count(*), min(id), max(id) FROM strings");
  if (!s.Step() || s.ColumnInt(0) == 0) return;
  const int64_t rows = s.ColumnInt(0), least = s.ColumnInt(1), largest = s.ColumnInt(2);
  const int64_t limit = LargestIdForRows(rows);
  if (least >= 0 && largest <= limit) return;
  throw Error(fmt::format(
      "{}: strings table, row id {}: a string id lies between 0 and {} in a table of {} rows "
      "(twice the rows and a million); the trace is damaged",
      db.path(), least < 0 ? least : largest, limit, rows));
}

void LoadTopology(Database& db, TraceStore& store) {
  CheckStringIds(db);
  {
    Statement s = db.Prepare("SELECT id, value FROM strings ORDER BY id");
    store.strings.assign(1, std::string());
    while (s.Step()) {
      auto id = static_cast<size_t>(s.ColumnInt(0));
      if (store.strings.size() <= id) store.strings.resize(id + 1);
      store.strings[id] = s.ColumnText(1);
    }
  }
  auto name = [&](int64_t sid) -> std::string {
    return sid > 0 && static_cast<size_t>(sid) < store.strings.size() ? store.strings[sid] : "";
  };
  std::apply([&](const auto&... table) { (LoadTopologyTable(db, table, name, store), ...); },
             kTopologyTables);
  {
    Statement samples =
        db.Prepare("SELECT series_id, ts_ns, value FROM counter_samples ORDER BY series_id, ts_ns");
    while (samples.Step()) {
      auto id = static_cast<uint32_t>(samples.ColumnInt(0));
      if (id == 0 || id > store.counters.size()) continue;
      store.counters[id - 1].ts.push_back(samples.ColumnInt(1));
      store.counters[id - 1].values.push_back(samples.ColumnDouble(2));
    }
  }
  {
    Statement s = db.Prepare("SELECT from_event, to_event, kind, name_sid FROM flows");
    while (s.Step()) {
      store.flows.push_back(Flow{s.ColumnInt(0), s.ColumnInt(1),
                                 static_cast<FlowKind>(s.ColumnInt(2)), NullableId(s, 3)});
    }
  }
  {
    Statement s = db.Prepare(
        "SELECT name, severity, count, description, first_place FROM import_problems "
        "ORDER BY name");
    while (s.Step()) {
      store.problems.push_back(ImportProblem{s.ColumnText(0), static_cast<Severity>(s.ColumnInt(1)),
                                             static_cast<uint64_t>(s.ColumnInt(2)), s.ColumnText(3),
                                             s.ColumnText(4)});
    }
  }
}

// Everything of the trace file `db` (at `path`) but its events.
TraceStore LoadAllButEvents(Database& db, const std::filesystem::path& path) {
  TraceStore store;
  store.path = path;
  store.meta = ReadMeta(db);
  LoadTopology(db, store);
  return store;
}

// Calls f(a's column, b's column) for each column, rowid included: queue, thread, fence, value,
// op, flags and arg0 on a second thread, the others on this one, followed by `then` (may be
// empty) here.
template <typename F>
void ForColumnPairsOnTwoThreads(EventColumns& a, EventColumns& b, F f,
                                const std::function<void()>& then) {
  // A future of std::async waits for its task when it goes, an exception here included.
  std::future<void> other = std::async(std::launch::async, [&] {
    f(a.queue, b.queue);
    f(a.thread, b.thread);
    f(a.fence, b.fence);
    f(a.value, b.value);
    f(a.op, b.op);
    f(a.flags, b.flags);
    f(a.arg0, b.arg0);
  });
  f(a.kind, b.kind);
  f(a.arg1, b.arg1);
  f(a.arg2, b.arg2);
  f(a.ts, b.ts);
  f(a.rowid, b.rowid);
  if (then) then();
  other.get();
}

// Reads the rows with rowid in [first, last] in rowid order into `out`, adding to `read` as it
// goes and calling `report` (may be empty) now and then.
void ReadRange(Database& db, EventRowId first, EventRowId last, int64_t expected_rows,
               EventRowPacker& out, std::atomic<int64_t>& read,
               const std::function<void()>& report) {
  Statement s = db.Prepare(std::string("SELECT ") + kEventRowColumns +
                           " FROM events WHERE rowid BETWEEN ?1 AND ?2");
  s.BindInt(1, first);
  s.BindInt(2, last);
  sqlite3_stmt* h = s.handle();
  out.Reserve(static_cast<size_t>(std::max<int64_t>(expected_rows, 0)));
  int64_t since_report = 0;
  while (s.Step()) {
    out.Add(EventRowIdOf(h), EventRecordOf(h));
    if (++since_report == 0x10000) {
      read += since_report;
      since_report = 0;
      if (report) report();
    }
  }
  out.Flush();
  read += since_report;
}

// `in` packed again in the order `order` (in[order[0]], in[order[1]], ...) into `out`.
template <typename T>
void GatherPacked(const PackedColumn<T>& in, const std::vector<uint32_t>& order,
                  PackedColumn<T>& out) {
  constexpr size_t kBlock = PackedColumn<T>::kBlock;
  T block[kBlock];
  out.Clear();
  out.Reserve(order.size());
  for (size_t begin = 0; begin < order.size(); begin += kBlock) {
    const size_t count = std::min(kBlock, order.size() - begin);
    for (size_t k = 0; k < count; ++k) block[k] = in[order[begin + k]];
    out.AppendBlock(block, count);
  }
  out.Finish();
}

void FinishEvents(TraceStore& store, EventRowPacker& first, EventRowPacker& second, EventRowId mid,
                  const LoadProgress& progress);

// Rows are read on two connections at once (the first and second half of the rowid range; the
// second half on a thread of its own), each packing its rows as they come; the second half's
// columns are then appended to the first's. Below this many rows one connection does it all.
constexpr int64_t kSplitRows = 200000;

void LoadEvents(Database& db, TraceStore& store, const LoadProgress& progress) {
  const int64_t total = db.QueryInt("SELECT count(*) FROM events");
  const EventRowId max_rowid = db.QueryInt("SELECT coalesce(max(rowid), 0) FROM events");
  // Rowids below 1 exist only in a damaged or edited trace; they are read with the first half.
  const EventRowId min_rowid = std::min<EventRowId>(
      1, db.QueryInt("SELECT coalesce(min(rowid), 1) FROM events"));
  // The first half ends on a whole number of blocks when rowids are dense (1, 2, ...), so that
  // the second half's packed blocks follow the first's as they are.
  constexpr EventRowId kBlock = PackedColumn<TimeNs>::kBlock;
  // An in-memory image has no file a second connection could open: one reads it all.
  const EventRowId mid = total >= kSplitRows && !db.in_memory()
                             ? max_rowid / 2 / kBlock * kBlock
                             : max_rowid;
  EventRowPacker first(1), second(mid + 1);
  std::atomic<int64_t> read{0};
  auto report = [&] {
    if (progress && total > 0) {
      progress(0.9 * static_cast<double>(read) / static_cast<double>(total));
    }
  };
  // A future of std::async waits for its task when it goes, an exception leaving here included.
  std::future<void> second_half;
  if (mid < max_rowid) {
    second_half = std::async(std::launch::async, [&] {
      Database other(db.path(), Database::Mode::kReadOnly);
      ReadRange(other, mid + 1, max_rowid, total - mid, second, read, {});
    });
  }
  // The caller's thread reads the first half and reports the progress of both.
  ReadRange(db, min_rowid, mid, std::min<int64_t>(mid, total), first, read, report);
  if (second_half.valid()) {
    while (second_half.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      report();
    }
    second_half.get();  // rethrows what failed there
  }
  report();
  FinishEvents(store, first, second, mid, progress);
}

// The largest rowid, where a table indexed by rowid (4 bytes a rowid up to the largest) stays
// near the size of the rows themselves: rowids of 0 and up, the largest at most twice the row
// count and a million; nullopt otherwise. Rows deleted from a trace leave gaps; a damaged or
// edited one can hold a rowid of 2^34 (found by fuzz_trace_db: a 91 GB table for 132 rows) or
// below 0.
std::optional<EventRowId> LargestRowIdForATable(const std::vector<EventRowId>& rowids) {
  const EventRowId limit = LargestIdForRows(static_cast<int64_t>(rowids.size()));
  EventRowId largest = 0;
  for (EventRowId r : rowids) {
    if (r < 0 || r > limit) return std::nullopt;
    largest = std::max(largest, r);
  }
  return largest;
}

// The store's events from the rows of rowids 1..mid packed in `first` and those after mid in
// `second`: the columns joined, put in time order when they are not, and the event index of each
// rowid kept when the rowids are not simply index + 1.
void FinishEvents(TraceStore& store, EventRowPacker& first, EventRowPacker& second, EventRowId mid,
                  const LoadProgress& progress) {
  const bool sorted = first.sorted && second.sorted &&
                      (first.rows == 0 || second.rows == 0 || first.last_ts <= second.first_ts);
  const bool dense = first.dense && second.dense && static_cast<EventRowId>(first.rows) == mid;
  first.hash.Add(second.hash);
  store.events_hash = first.hash.value();
  // One column: the first half's followed by the second's.
  EventColumns& joined = first.columns;
  ForColumnPairsOnTwoThreads(joined, second.columns,
                             [](auto& a, auto& b) {
                               b.Finish();
                               a.AppendColumn(b);
                               b = {};  // frees it
                               a.Finish();
                             },
                             {});
  EventColumns& out = store.events;
  if (sorted && dense) {
    // Rows already in time order, rowid = index + 1: the columns as read; no rowid column.
    joined.rowid = {};
    out = std::move(joined);
    if (progress) progress(1.0);
    return;
  }

  std::vector<uint32_t> order;  // empty: rows are already in time order
  if (!sorted) {
    std::vector<TimeNs> ts(joined.size());
    joined.ts.Decode(0, ts.size(), ts.data());
    order.resize(ts.size());
    std::iota(order.begin(), order.end(), 0u);
    // By time, then read order: what a stable sort gives, on both cores.
    SortOnTwoThreads(order, [&ts](uint32_t x, uint32_t y) {
      return ts[x] < ts[y] || (ts[x] == ts[y] && x < y);
    });
  }
  // Each column in time order (freed as it goes); then the event index of each rowid.
  ForColumnPairsOnTwoThreads(
      joined, out,
      [&](auto& in, auto& to) {
        if (order.empty()) {
          to = std::move(in);
        } else {
          GatherPacked(in, order, to);
        }
        in = {};  // frees it
      },
      [&] {
        std::vector<EventRowId> rowids(out.rowid.size());
        out.rowid.Decode(0, rowids.size(), rowids.data());
        if (const std::optional<EventRowId> largest = LargestRowIdForATable(rowids)) {
          std::vector<uint32_t> index_of_rowid(static_cast<size_t>(*largest) + 1, UINT32_MAX);
          for (size_t i = 0; i < rowids.size(); ++i) {
            index_of_rowid[static_cast<size_t>(rowids[i])] = static_cast<uint32_t>(i);
          }
          store.index_of_rowid.Assign(index_of_rowid);
        } else {
          std::vector<uint32_t> by_rowid(rowids.size());
          std::iota(by_rowid.begin(), by_rowid.end(), 0u);
          std::sort(by_rowid.begin(), by_rowid.end(),
                    [&](uint32_t x, uint32_t y) { return rowids[x] < rowids[y]; });
          store.events_by_rowid.Assign(by_rowid);
        }
      });
  if (progress) progress(1.0);
}

}  // namespace

int64_t EventColumns::ColumnValue(EventColumn column, size_t i) const {
  switch (column) {
    case EventColumn::kQueue:
      return queue[i];
    case EventColumn::kThread:
      return thread[i];
    case EventColumn::kFence:
      return fence[i];
    case EventColumn::kValue:
      return static_cast<int64_t>(value[i]);
    case EventColumn::kOp:
      return op[i];
    case EventColumn::kArg0:
      return arg0[i];
    case EventColumn::kArg1:
      return arg1[i];
    case EventColumn::kArg2:
      return arg2[i];
    case EventColumn::kFlags:
      return flags[i];
  }
  return 0;
}

size_t EventColumns::HeapBytes() const {
  return ts.HeapBytes() + kind.HeapBytes() + queue.HeapBytes() + thread.HeapBytes() +
         fence.HeapBytes() + value.HeapBytes() + op.HeapBytes() + arg0.HeapBytes() +
         arg1.HeapBytes() + arg2.HeapBytes() + flags.HeapBytes() + rowid.HeapBytes();
}

void EventColumns::ReleaseBulkColumns() {
  queue = {};
  thread = {};
  fence = {};
  value = {};
  op = {};
  arg0 = {};
  arg1 = {};
  arg2 = {};
  flags = {};
  bulk_released = true;
}

const std::string& TraceStore::String(StringId id) const {
  static const std::string kEmpty;
  return id < strings.size() ? strings[id] : kEmpty;
}

size_t TraceStore::IndexOfRowId(EventRowId rowid) const {
  if (!events_by_rowid.empty()) {
    // (an index past the events, which only a damaged cache section could hold, finds nothing)
    auto rowid_at = [&](size_t position) {
      const uint32_t index = events_by_rowid[position];
      return index < events.size() ? events.RowIdOf(index) : INT64_MAX;
    };
    size_t low = 0, high = events_by_rowid.size();  // the first at or past `rowid`
    while (low < high) {
      const size_t mid = low + (high - low) / 2;
      if (rowid_at(mid) < rowid) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low < events_by_rowid.size() && rowid_at(low) == rowid ? events_by_rowid[low]
                                                                   : SIZE_MAX;
  }
  if (index_of_rowid.empty()) {
    return rowid >= 1 && static_cast<size_t>(rowid) <= events.size()
               ? static_cast<size_t>(rowid - 1)
               : SIZE_MAX;
  }
  if (rowid < 0 || static_cast<size_t>(rowid) >= index_of_rowid.size()) return SIZE_MAX;
  uint32_t index = index_of_rowid[static_cast<size_t>(rowid)];
  return index < events.size() ? index : SIZE_MAX;
}

std::string TraceStore::MetaOr(const std::string& key, const std::string& fallback) const {
  auto it = meta.find(key);
  return it == meta.end() ? fallback : it->second;
}

TimeNs TraceStore::start_ns() const {
  auto it = meta.find("start_ns");
  if (it != meta.end()) return std::stoll(it->second);
  return events.size() ? events.ts.front() : 0;
}

TimeNs TraceStore::end_ns() const {
  auto it = meta.find("end_ns");
  if (it != meta.end()) return std::stoll(it->second);
  return events.size() ? events.ts.back() : 0;
}

TraceStore LoadTrace(const std::filesystem::path& path, const LoadProgress& progress) {
  Database db = OpenTrace(path);
  TraceStore store = LoadAllButEvents(db, path);
  LoadEvents(db, store, progress);
  return store;
}

TraceStore LoadTraceImage(std::string_view image, const std::string& label) {
  Database db = OpenTraceImage(image, label);
  TraceStore store = LoadAllButEvents(db, label);
  LoadEvents(db, store, {});
  return store;
}

TraceStore LoadTraceWithEvents(const std::filesystem::path& path, EventRowPacker&& written) {
  Database db = OpenTrace(path);
  TraceStore store = LoadAllButEvents(db, path);
  const auto events = store.meta.find("events");
  if (events == store.meta.end() || events->second != std::to_string(written.rows)) {
    throw Error(fmt::format("{}: holds {} events, not the {} written into it", path.string(),
                            events == store.meta.end() ? "no count of" : events->second,
                            written.rows));
  }
  written.Flush();
  EventRowPacker none(static_cast<EventRowId>(written.rows) + 1);
  FinishEvents(store, written, none, static_cast<EventRowId>(written.rows), {});
  written = EventRowPacker();
  return store;
}

void SetEventsFromPacked(TraceStore& store, EventRowPacker&& written) {
  written.Flush();
  EventRowPacker none(static_cast<EventRowId>(written.rows) + 1);
  FinishEvents(store, written, none, static_cast<EventRowId>(written.rows), {});
  written = EventRowPacker();
}

}  // namespace core::store
