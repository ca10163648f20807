// LoadTrace: reads a validated trace file into a TraceStore.
//
// Events are read in rowid order with one sequential SELECT (no ORDER BY: SQLite would need an
// index or a sort). When meta.events_sorted says rowid order is time order (the simulator's
// case) the columns are used as read; otherwise a stable sort permutation on ts is applied.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <numeric>
#include <string>
#include <type_traits>

#include "core/cache/trace_cache.h"
#include "core/model/error.h"
#include "core/store/event_row.h"
#include "core/store/trace_file.h"
#include "core/store/topology_tables.h"
#include "core/store/trace_store.h"
#include "core/store/two_thread_sort.h"

namespace core::store {
namespace {

// The event columns as read, before sorting and packing.
struct ReadColumns {
  std::vector<TimeNs> ts;
  std::vector<EventKind> kind;
  std::vector<QueueId> queue;
  std::vector<ThreadId> thread;
  std::vector<FenceId> fence;
  std::vector<uint64_t> value;
  std::vector<int64_t> op, arg0, arg1, arg2;
  std::vector<uint32_t> flags;
  std::vector<EventRowId> rowid;
  void Reserve(size_t n) {
    ts.reserve(n);
    kind.reserve(n);
    queue.reserve(n);
    thread.reserve(n);
    fence.reserve(n);
    value.reserve(n);
    op.reserve(n);
    arg0.reserve(n);
    arg1.reserve(n);
    arg2.reserve(n);
    flags.reserve(n);
    rowid.reserve(n);
  }
};

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

void LoadTopology(Database& db, TraceStore& store) {
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
    Statement samples = db.Prepare(
        "SELECT series_id, ts_ns, value FROM counter_samples ORDER BY series_id, ts_ns");
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
      store.problems.push_back(ImportProblem{s.ColumnText(0),
                                             static_cast<Severity>(s.ColumnInt(1)),
                                             static_cast<uint64_t>(s.ColumnInt(2)),
                                             s.ColumnText(3), s.ColumnText(4)});
    }
  }
}

// The rows of one rowid range, read on a connection of its own.
struct RangeRead {
  ReadColumns ev;
  cache::EventsHash hash;
  bool sorted = true;  // ts never decreases in rowid order
  bool dense = true;   // rowids are first, first + 1, ...
};

// Reads the rows with rowid in [first, last] in rowid order into `out`, adding to `read` as it
// goes and calling `report` (may be empty) now and then. `out.ev` is reserved by the caller.
void ReadRange(Database& db, EventRowId first, EventRowId last, RangeRead& out,
               std::atomic<int64_t>& read, const std::function<void()>& report) {
  Statement s = db.Prepare(std::string("SELECT ") + kEventRowColumns +
                           " FROM events WHERE rowid BETWEEN ?1 AND ?2");
  s.BindInt(1, first);
  s.BindInt(2, last);
  sqlite3_stmt* h = s.handle();
  ReadColumns& ev = out.ev;
  TimeNs last_ts = INT64_MIN;
  EventRowId expected = first;
  int64_t since_report = 0;
  while (s.Step()) {
    const EventRowId rowid = EventRowIdOf(h);
    const EventRecord r = EventRecordOf(h);
    if (r.ts < last_ts) out.sorted = false;
    last_ts = r.ts;
    if (rowid != expected++) out.dense = false;
    out.hash.AddRow(rowid, r.ts, r.kind, r.queue, r.thread, r.fence, r.value, r.op, r.arg0,
                    r.arg1, r.arg2, r.flags);
    ev.rowid.push_back(rowid);
    ev.ts.push_back(r.ts);
    ev.kind.push_back(r.kind);
    ev.queue.push_back(r.queue);
    ev.thread.push_back(r.thread);
    ev.fence.push_back(r.fence);
    ev.value.push_back(r.value);
    ev.op.push_back(r.op);
    ev.arg0.push_back(r.arg0);
    ev.arg1.push_back(r.arg1);
    ev.arg2.push_back(r.arg2);
    ev.flags.push_back(r.flags);
    if (++since_report == 0x10000) {
      read += since_report;
      since_report = 0;
      if (report) report();
    }
  }
  read += since_report;
}

// Appends `from`'s columns to `to`'s and frees them.
void AppendColumns(ReadColumns& to, ReadColumns& from) {
  auto append = [](auto& a, auto& b) {
    a.insert(a.end(), b.begin(), b.end());
    std::remove_reference_t<decltype(b)>().swap(b);
  };
  append(to.ts, from.ts);
  append(to.kind, from.kind);
  append(to.queue, from.queue);
  append(to.thread, from.thread);
  append(to.fence, from.fence);
  append(to.value, from.value);
  append(to.op, from.op);
  append(to.arg0, from.arg0);
  append(to.arg1, from.arg1);
  append(to.arg2, from.arg2);
  append(to.flags, from.flags);
  append(to.rowid, from.rowid);
}

// The two halves of a column as one (the first half's rows, then the second's), read in place.
template <typename T>
struct Halves {
  std::vector<T>& first;
  std::vector<T>& second;
  size_t size() const { return first.size() + second.size(); }
  T operator[](size_t i) const {
    return i < first.size() ? first[i] : second[i - first.size()];
  }
  void Free() {
    std::vector<T>().swap(first);
    std::vector<T>().swap(second);
  }
};

// Packs `column` into `out` in the order `order` (as read when `order` is empty), a block at a
// time, and frees both halves.
template <typename T>
void PackHalves(Halves<T> column, const std::vector<uint32_t>& order, PackedColumn<T>& out) {
  constexpr size_t kBlock = PackedColumn<T>::kBlock;
  const size_t n = column.size();
  T block[kBlock];
  out.Clear();
  out.Reserve(n);
  for (size_t begin = 0; begin < n; begin += kBlock) {
    const size_t count = std::min(kBlock, n - begin);
    if (!order.empty()) {
      for (size_t k = 0; k < count; ++k) block[k] = column[order[begin + k]];
      out.AppendBlock(block, count);
    } else if (begin + count <= column.first.size()) {
      out.AppendBlock(column.first.data() + begin, count);
    } else if (begin >= column.first.size()) {
      out.AppendBlock(column.second.data() + (begin - column.first.size()), count);
    } else {
      for (size_t k = 0; k < count; ++k) block[k] = column[begin + k];
      out.AppendBlock(block, count);
    }
  }
  out.Finish();
  column.Free();
}

// Rows are read on two connections at once (the first and second half of the rowid range; the
// second half on a thread of its own), then hashed, ordered and packed, again two at a time.
// Below this many rows one connection does it all.
constexpr int64_t kSplitRows = 200000;

void LoadEvents(Database& db, TraceStore& store, const LoadProgress& progress) {
  const int64_t total = db.QueryInt("SELECT count(*) FROM events");
  const EventRowId max_rowid = db.QueryInt("SELECT coalesce(max(rowid), 0) FROM events");
  const EventRowId mid = total >= kSplitRows ? max_rowid / 2 : max_rowid;
  RangeRead first, second;
  first.ev.Reserve(static_cast<size_t>(total));
  std::atomic<int64_t> read{0};
  auto report = [&] {
    if (progress && total > 0) {
      progress(0.9 * static_cast<double>(read) / static_cast<double>(total));
    }
  };
  // A future of std::async waits for its task when it goes, an exception leaving here included.
  std::future<void> second_half;
  if (mid < max_rowid) {
    second.ev.Reserve(static_cast<size_t>(std::max<int64_t>(0, total - mid)));
    second_half = std::async(std::launch::async, [&] {
      Database other(db.path(), Database::Mode::kReadOnly);
      ReadRange(other, mid + 1, max_rowid, second, read, {});
    });
  }
  // The caller's thread reads the first half and reports the progress of both.
  ReadRange(db, 1, mid, first, read, report);
  if (second_half.valid()) {
    while (second_half.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      report();
    }
    second_half.get();  // rethrows what failed there
  }
  report();

  const size_t first_count = first.ev.ts.size();
  const bool sorted = first.sorted && second.sorted &&
                      (first_count == 0 || second.ev.ts.empty() ||
                       first.ev.ts.back() <= second.ev.ts.front());
  const bool dense = first.dense && second.dense &&
                     static_cast<EventRowId>(first_count) == mid;
  first.hash.Add(second.hash);
  store.events_hash = first.hash.value();
  ReadColumns& a = first.ev;
  ReadColumns& b = second.ev;
  // Rows out of time order are gathered through a permutation, at random: from one array, not
  // two (a branch per row that the processor cannot foresee). Rows in order are packed from both
  // halves as they are.
  if (!sorted) AppendColumns(a, b);
  const Halves<TimeNs> ts{a.ts, b.ts};
  const Halves<EventRowId> rowid{a.rowid, b.rowid};

  std::vector<uint32_t> order;  // empty: rows are already in time order
  if (!sorted) {
    order.resize(ts.size());
    std::iota(order.begin(), order.end(), 0u);
    // By time, then read order: what a stable sort gives, on both cores.
    const std::vector<TimeNs>& by = a.ts;  // every row (the halves were joined above)
    SortOnTwoThreads(order, [&by](uint32_t x, uint32_t y) {
      return by[x] < by[y] || (by[x] == by[y] && x < y);
    });
  }
  EventColumns& out = store.events;
  if (!sorted || !dense) {
    EventRowId largest = 0;
    for (size_t i = 0; i < rowid.size(); ++i) largest = std::max(largest, rowid[i]);
    std::vector<uint32_t> index_of_rowid(static_cast<size_t>(largest) + 1, UINT32_MAX);
    for (size_t i = 0; i < rowid.size(); ++i) {
      size_t row = order.empty() ? i : order[i];
      index_of_rowid[static_cast<size_t>(rowid[row])] = static_cast<uint32_t>(i);
    }
    store.index_of_rowid.Assign(index_of_rowid);
  }
  // Packing frees each column as it goes: half of them on a second thread.
  std::future<void> packing = std::async(std::launch::async, [&] {
    PackHalves<QueueId>({a.queue, b.queue}, order, out.queue);
    PackHalves<ThreadId>({a.thread, b.thread}, order, out.thread);
    PackHalves<FenceId>({a.fence, b.fence}, order, out.fence);
    PackHalves<uint64_t>({a.value, b.value}, order, out.value);
    PackHalves<int64_t>({a.op, b.op}, order, out.op);
    PackHalves<uint32_t>({a.flags, b.flags}, order, out.flags);
  });
  PackHalves<EventKind>({a.kind, b.kind}, order, out.kind);
  PackHalves<int64_t>({a.arg0, b.arg0}, order, out.arg0);
  PackHalves<int64_t>({a.arg1, b.arg1}, order, out.arg1);
  PackHalves<int64_t>({a.arg2, b.arg2}, order, out.arg2);
  // ts and rowid last: the order and the rowid index read them.
  if (!sorted || !dense) {
    PackHalves<EventRowId>({a.rowid, b.rowid}, order, out.rowid);
  }
  PackHalves<TimeNs>({a.ts, b.ts}, order, out.ts);
  packing.get();
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
  if (index_of_rowid.empty()) {
    return rowid >= 1 && static_cast<size_t>(rowid) <= events.size()
               ? static_cast<size_t>(rowid - 1)
               : SIZE_MAX;
  }
  if (rowid < 0 || static_cast<size_t>(rowid) >= index_of_rowid.size()) return SIZE_MAX;
  uint32_t index = index_of_rowid[static_cast<size_t>(rowid)];
  return index == UINT32_MAX ? SIZE_MAX : index;
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
  TraceStore store;
  store.path = path;
  store.meta = ReadMeta(db);
  LoadTopology(db, store);
  LoadEvents(db, store, progress);
  return store;
}

}  // namespace core::store
