// Store round trip, refusals (schema version, non-trace files), atomic replace, schema/enum sync.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <random>
#include <regex>
#include <set>

#include "core/model/error.h"
#include "core/store/event_row.h"
#include "core/store/event_row_packer.h"
#include "core/store/schema_sql.h"
#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

namespace events = core::model::events;

using namespace core::store;
using test_support::ReadFile;
using test_support::ScratchDir;

namespace {

// A small trace with one of everything, written in a shuffled time order.
void WriteSmallTrace(const std::filesystem::path& path) {
  TraceWriter w(path, "unit-test");
  AdapterId a = w.AddAdapter({"dGPU", 77, true, true, PreemptionGranularity::kPixel,
                              PreemptionGranularity::kThreadGroup});
  EngineId e = w.AddEngine({a, EngineType::kCompute, 1, "Compute0"});
  ProcessId p = w.AddProcess({1234, "game.exe"});
  QueueId q1 = w.AddQueue({e, a, QueueType::kCompute, 2, p, "compute queue", 0});
  QueueId q2 = w.AddQueue({e, a, QueueType::k3D, 0, p, "3d queue", 1});
  ThreadId t = w.AddThread({p, 99, ThreadKind::kApplication, "render thread", 0});
  FenceId f = w.AddFence({"frame fence", FenceKind::kCrossAdapter, true, a, 3, 5, 0});
  w.AddContext({p, q1, 0x10, "ctx"});
  w.AddPso({"pso", 2});
  w.AddResource({"buf", 4096});
  CounterSeriesId c = w.AddCounterSeries({"interrupts/s", p, "Hz", {}, {}});
  EventRowId r1 = w.Append(events::FenceSignalExecuted{.ts_ns = 300,
                                                       .queue_id = q1,
                                                       .fence_id = f,
                                                       .fence_value = UINT64_MAX,
                                                       .signal_id = 7,
                                                       .previous_value = 5});
  EventRowId r2 = w.Append(events::FenceSignalQueued{.ts_ns = 100,
                                                     .queue_id = q1,
                                                     .thread_id = t,
                                                     .fence_id = f,
                                                     .fence_value = UINT64_MAX,
                                                     .signal_id = 7});
  w.Append(events::FenceWaitQueued{
      .ts_ns = 200, .queue_id = q2, .thread_id = t, .fence_id = f, .fence_value = 6, .wait_id = 8});
  w.Append(events::FenceWaitUnblocked{.ts_ns = 300,
                                      .queue_id = q2,
                                      .fence_id = f,
                                      .fence_value = 6,
                                      .wait_id = 8,
                                      .observed_ns = 250,
                                      .released_by_signal_id = 7});
  w.AddCounterSample(c, 150, 2.5);
  w.AddCounterSample(c, 50, 1.0);
  w.AddFlow(r2, r1, FlowKind::kFence, "signal");
  w.AddEventArg(r1, "note", std::string_view("text"));
  w.CountProblem("json_unknown_phase", Severity::kInfo, "unknown phase letters", 2, "byte 17");
  w.CountProblem("json_unknown_phase", Severity::kInfo, "unknown phase letters", 3);
  w.SetMeta("scenario", "unit");
  w.Commit();
}

void SetUserVersion(const std::filesystem::path& path, int version) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string sql = "PRAGMA user_version=" + std::to_string(version);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

std::string RefusalMessage(const std::filesystem::path& path) {
  try {
    LoadTrace(path);
  } catch (const core::Error& e) {
    return e.what();
  }
  return "";
}

// The message LoadTrace refuses the small trace with once its schema version reads `version`.
std::string RefusalOfSchemaVersion(const std::filesystem::path& path, int version) {
  WriteSmallTrace(path);
  SetUserVersion(path, version);
  return RefusalMessage(path);
}

}  // namespace

TEST(TraceStore, RoundTripKeepsTopologyEventsAndProblems) {
  ScratchDir dir;
  auto path = dir / "t.db";
  WriteSmallTrace(path);
  TraceStore s = LoadTrace(path);

  ASSERT_EQ(s.adapters.size(), 1u);
  EXPECT_EQ(s.adapters[0].name, "dGPU");
  EXPECT_EQ(s.adapters[0].luid, 77);
  EXPECT_TRUE(s.adapters[0].optimized_interrupts);
  EXPECT_EQ(s.adapters[0].preemption_compute, PreemptionGranularity::kThreadGroup);
  ASSERT_EQ(s.queues.size(), 2u);
  EXPECT_EQ(s.queues[0].name, "compute queue");
  EXPECT_EQ(s.queues[0].priority, 2);
  EXPECT_EQ(s.queues[1].type, QueueType::k3D);
  ASSERT_EQ(s.fences.size(), 1u);
  EXPECT_EQ(s.fences[0].kind, FenceKind::kCrossAdapter);
  EXPECT_EQ(s.fences[0].adapter_mask, 3u);
  EXPECT_EQ(s.fences[0].initial_value, 5u);
  EXPECT_EQ(s.threads[0].tid, 99);
  EXPECT_EQ(s.contexts[0].handle, 0x10);
  EXPECT_EQ(s.psos[0].shaders, 2u);
  EXPECT_EQ(s.resources[0].size_bytes, 4096);
  EXPECT_EQ(s.MetaOr("scenario", ""), "unit");
  EXPECT_EQ(s.MetaOr("source", ""), "unit-test");
  // the span: events 100..300 and the counter samples at 50 and 150
  EXPECT_EQ(s.start_ns(), 50);
  EXPECT_EQ(s.end_ns(), 300);

  // Events come back sorted by time, ties in write order, with UINT64_MAX intact.
  ASSERT_EQ(s.events.size(), 4u);
  EXPECT_EQ(s.events.ts, (std::vector<TimeNs>{100, 200, 300, 300}));
  EXPECT_EQ(s.events.kind[0], EventKind::FenceSignalQueued);
  EXPECT_EQ(s.events.kind[2], EventKind::FenceSignalExecuted);
  EXPECT_EQ(s.events.kind[3], EventKind::FenceWaitUnblocked);
  EXPECT_EQ(s.events.value[0], UINT64_MAX);
  const auto unblocked = core::model::events::FenceWaitUnblocked::At(s.events, 3);
  EXPECT_EQ(unblocked.observed_ns, 250);
  EXPECT_EQ(unblocked.released_by_signal_id, 7);
  // Rowids survive the sort: the signal executed was written first.
  EXPECT_EQ(s.events.RowIdOf(2), 1);
  EXPECT_EQ(s.IndexOfRowId(1), 2u);
  EXPECT_EQ(s.IndexOfRowId(2), 0u);
  // Queue and thread columns follow the sort.
  EXPECT_EQ(s.events.queue, (PackedColumn<QueueId>(std::vector<QueueId>{1, 2, 1, 2})));
  EXPECT_EQ(s.events.thread[0], 1u);
  EXPECT_EQ(s.events.thread[1], 1u);

  ASSERT_EQ(s.counters.size(), 1u);
  EXPECT_EQ(s.counters[0].unit, "Hz");
  EXPECT_EQ(s.counters[0].ts, (std::vector<TimeNs>{50, 150}));
  ASSERT_EQ(s.flows.size(), 1u);
  EXPECT_EQ(s.flows[0].from, 2);
  EXPECT_EQ(s.flows[0].to, 1);
  ASSERT_EQ(s.problems.size(), 1u);
  EXPECT_EQ(s.problems[0].count, 5u);
  EXPECT_EQ(s.problems[0].first_place, "byte 17");
}

TEST(TraceStore, SortedTraceNeedsNoRowIdMap) {
  ScratchDir dir;
  auto path = dir / "sorted.db";
  {
    TraceWriter w(path, "unit-test");
    QueueId q = w.AddQueue({0, 0, QueueType::kCopy, 0, 0, "copy", 0});
    for (int i = 0; i < 1000; ++i)
      w.Append(events::PacketStarted{.ts_ns = i * 10, .queue_id = q, .packet_id = i});
    w.Commit();
  }
  TraceStore s = LoadTrace(path);
  EXPECT_EQ(s.MetaOr("events_sorted", ""), "1");
  EXPECT_TRUE(s.events.rowid.empty());
  EXPECT_EQ(s.IndexOfRowId(500), 499u);
  EXPECT_EQ(s.events.op[499], 499);
  EXPECT_EQ(s.events.queue[999], 1u);
}

// More rows than one connection reads alone (the loader reads the two halves of the rowid range
// at once), out of time order across the halves and with rowids missing in both: every row
// where SQL's ORDER BY ts, rowid puts it, and every rowid found again.
TEST(TraceStore, TwoHalvesReadAtOnceGiveTheRowsInTimeOrder) {
  ScratchDir dir;
  auto path = dir / "halves.db";
  constexpr int kRows = 300000;
  {
    TraceWriter w(path, "unit-test");
    QueueId q = w.AddQueue({0, 0, QueueType::kCopy, 0, 0, "copy", 0});
    for (int i = 0; i < kRows; ++i) {
      // The second half runs earlier than the first; ties within each half.
      const int64_t ts = i < kRows / 2 ? 1'000'000 + i / 3 : i - kRows / 2;
      w.Append(events::PacketStarted{.ts_ns = ts, .queue_id = q, .packet_id = i});
    }
    w.Commit();
  }
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DELETE FROM events WHERE rowid % 1000 = 7 OR rowid = 150000",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  TraceStore s = LoadTrace(path);
  // What SQL says, row by row.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT rowid, ts_ns, op_id FROM events ORDER BY ts_ns, rowid", -1,
                               &st, nullptr),
            SQLITE_OK);
  size_t i = 0, mismatches = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    const int64_t rowid = sqlite3_column_int64(st, 0);
    if (i >= s.events.size() || s.events.rowid[i] != rowid ||
        s.events.ts[i] != sqlite3_column_int64(st, 1) ||
        s.events.op[i] != sqlite3_column_int64(st, 2) || s.IndexOfRowId(rowid) != i) {
      ++mismatches;
    }
    ++i;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  EXPECT_EQ(i, s.events.size());
  EXPECT_EQ(i, static_cast<size_t>(kRows - kRows / 1000 - 1));
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(s.IndexOfRowId(150000), SIZE_MAX);
  EXPECT_EQ(s.IndexOfRowId(1007), SIZE_MAX);
}

// Rows whose columns take values of every size, 300K of them (more than one connection reads
// alone) in time order; `deleted` rowids are then removed with SQL. Every column of every row is
// compared with what SQL's ORDER BY ts_ns, rowid gives; returns the number of rows that differ.
// With `second_half_first`, the rows of the second half of the rowids run before the first's.
// With `kept_by_writer`, the writer keeps the events it writes and the store is made from them
// (LoadTraceWithEvents) instead of from the rows (`deleted` must then be "0").
size_t MismatchesWithSql(const std::filesystem::path& path, const char* deleted, TraceStore& loaded,
                         size_t& rows, bool second_half_first = false,
                         bool kept_by_writer = false) {
  EventRowPacker kept;
  {
    TraceWriter w(path, "unit-test");
    if (kept_by_writer) w.KeepEvents();
    QueueId q = w.AddQueue({0, 0, QueueType::kCopy, 0, 0, "copy", 0});
    ThreadId t = w.AddThread({0, 7, ThreadKind::kApplication, "app", 0});
    FenceId f = w.AddFence({"fence"});
    std::mt19937_64 random(11);
    for (int i = 0; i < 300000; ++i) {
      EventRecord r;
      r.ts = 1000 + i / 2;  // ties in twos
      if (second_half_first) r.ts += i < 150000 ? 150000 : -75000;
      r.kind = i % 3 == 0 ? EventKind::PacketStarted : EventKind::PacketCompleted;
      r.queue = i % 5 == 0 ? 0 : q;
      r.thread = i % 7 == 0 ? t : 0;
      r.fence = i % 11 == 0 ? f : 0;
      r.value = random() >> (i % 64);
      r.op = i;
      r.arg0 = static_cast<int64_t>(random());
      r.arg1 = -i;
      r.arg2 = static_cast<int64_t>(random() % 1000);
      r.flags = static_cast<uint32_t>(random());
      w.Append(r);
    }
    w.Commit();
    kept = w.TakeKeptEvents();
  }
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db, (std::string("DELETE FROM events WHERE ") + deleted).c_str(),
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  loaded = kept_by_writer ? LoadTraceWithEvents(path, std::move(kept)) : LoadTrace(path);
  sqlite3_stmt* st = nullptr;
  const std::string sql =
      std::string("SELECT ") + kEventRowColumns + " FROM events ORDER BY ts_ns, rowid";
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
  size_t mismatches = 0;
  rows = 0;
  const EventColumns& e = loaded.events;
  auto column = [&](int c) { return sqlite3_column_int64(st, c); };
  for (size_t i = 0; sqlite3_step(st) == SQLITE_ROW; ++i, ++rows) {
    const bool same =
        i < e.size() && e.RowIdOf(i) == column(0) && loaded.IndexOfRowId(column(0)) == i &&
        e.ts[i] == column(1) && static_cast<int64_t>(e.kind[i]) == column(2) &&
        e.queue[i] == column(3) && e.thread[i] == column(4) && e.fence[i] == column(5) &&
        static_cast<int64_t>(e.value[i]) == column(6) && e.op[i] == column(7) &&
        e.arg0[i] == column(8) && e.arg1[i] == column(9) && e.arg2[i] == column(10) &&
        static_cast<int64_t>(e.flags[i]) == column(11);
    if (!same) ++mismatches;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return mismatches;
}

// In time order and every rowid there: the two halves' packed columns are joined as read.
TEST(TraceStore, TwoHalvesInTimeOrderAreJoinedAsRead) {
  ScratchDir dir;
  TraceStore s;
  size_t rows = 0;
  EXPECT_EQ(MismatchesWithSql(dir / "t.db", "0", s, rows), 0u);
  EXPECT_EQ(rows, 300000u);
  EXPECT_EQ(s.events.size(), rows);
  EXPECT_TRUE(s.events.rowid.empty());  // rowid = index + 1
}

// Every rowid there but the second half's rows earlier than the first's: the joined columns are
// put in time order, ties in rowid order, and the rowids kept.
TEST(TraceStore, TwoHalvesOutOfOrderAreSortedWithEveryRowidKept) {
  ScratchDir dir;
  TraceStore s;
  size_t rows = 0;
  EXPECT_EQ(MismatchesWithSql(dir / "t.db", "0", s, rows, true), 0u);
  EXPECT_EQ(rows, 300000u);
  EXPECT_EQ(s.events.size(), rows);
  EXPECT_FALSE(s.events.rowid.empty());
  EXPECT_EQ(s.events.RowIdOf(0), 150001);  // the second half's first row runs first
}

// In time order with rowids missing (the first half then ends inside a block): the second
// half's values are packed again after the first's; rowids kept.
TEST(TraceStore, TwoHalvesWithRowidsMissingAreJoinedAndIndexed) {
  ScratchDir dir;
  TraceStore s;
  size_t rows = 0;
  EXPECT_EQ(MismatchesWithSql(dir / "t.db", "rowid % 997 = 3 OR rowid = 149952", s, rows), 0u);
  size_t deleted = 0;
  for (int64_t rowid = 1; rowid <= 300000; ++rowid) deleted += rowid % 997 == 3 || rowid == 149952;
  EXPECT_EQ(rows, 300000u - deleted);
  EXPECT_EQ(s.events.size(), rows);
  EXPECT_FALSE(s.events.rowid.empty());
  EXPECT_EQ(s.IndexOfRowId(149952), SIZE_MAX);
  EXPECT_EQ(s.IndexOfRowId(3), SIZE_MAX);
}

// The events a writer kept make the store the rows make: every column of every row as SQL
// gives it, the same events hash (the cache's key) and the same topology and meta.
TEST(TraceStore, EventsKeptByTheWriterAreTheRowsItWrote) {
  ScratchDir dir;
  TraceStore s;
  size_t rows = 0;
  EXPECT_EQ(MismatchesWithSql(dir / "t.db", "0", s, rows, false, /*kept_by_writer=*/true), 0u);
  EXPECT_EQ(rows, 300000u);
  EXPECT_EQ(s.events.size(), rows);
  EXPECT_TRUE(s.events.rowid.empty());  // rowid = index + 1
  const TraceStore from_rows = LoadTrace(dir / "t.db");
  EXPECT_EQ(s.events_hash, from_rows.events_hash);
  EXPECT_NE(s.events_hash, 0u);
  EXPECT_EQ(s.meta, from_rows.meta);
  EXPECT_EQ(s.strings, from_rows.strings);
  EXPECT_EQ(s.queues.size(), 1u);
  EXPECT_EQ(s.threads.size(), 1u);
  EXPECT_EQ(s.fences.size(), 1u);
}

// Written out of time order: the kept events are put in time order, rowids kept, as the rows
// would be.
TEST(TraceStore, EventsKeptByTheWriterOutOfOrderAreSortedWithEveryRowidKept) {
  ScratchDir dir;
  TraceStore s;
  size_t rows = 0;
  EXPECT_EQ(MismatchesWithSql(dir / "t.db", "0", s, rows, true, /*kept_by_writer=*/true), 0u);
  EXPECT_EQ(rows, 300000u);
  EXPECT_FALSE(s.events.rowid.empty());
  EXPECT_EQ(s.events.RowIdOf(0), 150001);
  EXPECT_EQ(s.events_hash, LoadTrace(dir / "t.db").events_hash);
}

// Events kept while writing one file do not stand for another file's rows.
TEST(TraceStore, EventsKeptForAnotherTraceAreRefusedNamingTheFile) {
  ScratchDir dir;
  auto write = [&](const std::filesystem::path& path, int events) {
    TraceWriter w(path, "unit-test");
    w.KeepEvents();
    QueueId q = w.AddQueue({0, 0, QueueType::kCopy, 0, 0, "copy", 0});
    for (int i = 0; i < events; ++i) {
      w.Append(events::PacketStarted{.ts_ns = i, .queue_id = q, .packet_id = i});
    }
    w.Commit();
    return w.TakeKeptEvents();
  };
  EventRowPacker ten = write(dir / "ten.db", 10);
  write(dir / "nine.db", 9);
  try {
    LoadTraceWithEvents(dir / "nine.db", std::move(ten));
    FAIL() << "no error";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("nine.db: holds 9 events, not the 10 written"),
              std::string::npos)
        << e.what();
  }
}

TEST(TraceStore, RefusesNewerSchemaVersionNamingFileAndVersion) {
  ScratchDir dir;
  const std::string message = RefusalOfSchemaVersion(dir / "future.db", 7);
  EXPECT_NE(message.find((dir / "future.db").string()), std::string::npos) << message;
  EXPECT_NE(message.find("version 7"), std::string::npos) << message;
  EXPECT_NE(message.find("newer"), std::string::npos) << message;
}

TEST(TraceStore, RefusesUnknownOlderSchemaVersion) {
  ScratchDir dir;
  const std::string message = RefusalOfSchemaVersion(dir / "old.db", 0);
  EXPECT_NE(message.find("version 0"), std::string::npos) << message;
}

TEST(TraceStore, RefusesSqliteDatabaseThatIsNotATrace) {
  ScratchDir dir;
  auto path = dir / "other.db";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_exec(db, "CREATE TABLE t(x); PRAGMA user_version=1;", nullptr, nullptr, nullptr);
  sqlite3_close(db);
  std::string message = RefusalMessage(path);
  EXPECT_NE(message.find(path.string()), std::string::npos) << message;
  EXPECT_NE(message.find("not a fencescope trace"), std::string::npos) << message;
}

TEST(TraceStore, RefusesNonDatabaseAndCorruptFiles) {
  ScratchDir dir;
  auto text = dir / "notes.txt";
  std::ofstream(text) << "hello, not a database\n";
  EXPECT_NE(RefusalMessage(text).find("not a fencescope trace"), std::string::npos);

  // A real trace with its pages overwritten after the header.
  auto corrupt = dir / "corrupt.db";
  WriteSmallTrace(corrupt);
  {
    std::fstream f(corrupt, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    std::string garbage(4096, '\xAB');
    f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  std::string message = RefusalMessage(corrupt);
  EXPECT_FALSE(message.empty());
  EXPECT_NE(message.find(corrupt.string()), std::string::npos) << message;

  EXPECT_NE(RefusalMessage(dir / "missing.db").find("no such file"), std::string::npos);
}

TEST(TraceWriter, FailedWriteLeavesOldFileByteIdentical) {
  ScratchDir dir;
  auto path = dir / "good.db";
  WriteSmallTrace(path);
  const std::string before = ReadFile(path);
  try {
    TraceWriter w(path, "unit-test");
    QueueId q = w.AddQueue({0, 0, QueueType::k3D, 0, 0, "q", 0});
    for (int i = 0; i < 10000; ++i) w.Append(events::PacketStarted{.ts_ns = i, .queue_id = q});
    throw std::runtime_error("import failed midway");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(ReadFile(path), before);
  // No temporary file is left behind either.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    (void)entry;
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST(TraceWriter, KilledWriterLeavesOldFileInPlace) {
  ScratchDir dir;
  auto path = dir / "good.db";
  WriteSmallTrace(path);
  const std::string before = ReadFile(path);
  pid_t child = fork();
  if (child == 0) {
    TraceWriter w(path, "unit-test");
    for (int i = 0; i < 5000; ++i) w.Append(events::PacketStarted{.ts_ns = i});
    _exit(3);  // dies without Commit() and without running destructors
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_EQ(ReadFile(path), before);
  EXPECT_NO_THROW(LoadTrace(path));
}

// Enough events that the writer hands some of them to its helper thread (several chunks each
// way, and a partial one at Commit): every row must come back as appended, rowid for rowid.
namespace {

// Writes 100,003 events (with or without the helper thread) and reads every row back.
void CheckManyEventsComeBackInAppendOrder(bool one_thread) {
  ScratchDir dir;
  auto path = dir / "many.db";
  constexpr int64_t kEvents = 100'003;
  auto event = [](int64_t i) {
    EventRecord e;
    e.ts = (i * 7919) % 100'000;  // out of time order: the writer must keep append order
    e.kind = static_cast<EventKind>(i % 5);
    e.queue = static_cast<QueueId>(i % 3);
    e.thread = static_cast<ThreadId>(i % 4 == 0 ? 1 : 0);
    e.fence = static_cast<FenceId>(i % 7 == 0 ? 0 : 1);
    e.value = i % 11 == 0 ? UINT64_MAX : static_cast<uint64_t>(i);
    e.op = -i;
    e.arg0 = i * 3;
    e.arg1 = i % 2;
    e.arg2 = INT64_MIN + i;
    e.flags = static_cast<uint32_t>(i % 13);
    return e;
  };
  {
    TraceWriter w(path, "unit-test");
    if (one_thread) w.WriteOnOneThread();
    w.AddQueue({0, 0, QueueType::k3D, 0, 0, "q1", 0});
    w.AddQueue({0, 0, QueueType::k3D, 0, 0, "q2", 0});
    w.AddThread({0, 1, ThreadKind::kApplication, "t", 0});
    w.AddFence({"f"});
    for (int64_t i = 0; i < kEvents; ++i) {
      ASSERT_EQ(w.Append(event(i)), i + 1);
      if (i % 1000 == 999) w.AddFlow(i, i + 1, FlowKind::kGeneric, i % 2000 == 999 ? "" : "x");
    }
    EXPECT_EQ(w.started_helper_thread(), !one_thread);
    w.Commit();
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT rowid, ts_ns, kind, queue_id, thread_id, fence_id, value, "
                               "op_id, arg0, arg1, arg2, flags FROM events ORDER BY rowid",
                               -1, &s, nullptr),
            SQLITE_OK);
  auto id_or_null = [&](int column) -> int64_t {
    return sqlite3_column_type(s, column) == SQLITE_NULL ? 0 : sqlite3_column_int64(s, column);
  };
  int64_t i = 0;
  int mismatches = 0;
  while (sqlite3_step(s) == SQLITE_ROW && mismatches < 5) {
    const EventRecord e = event(i);
    const bool same = sqlite3_column_int64(s, 0) == i + 1 && sqlite3_column_int64(s, 1) == e.ts &&
                      sqlite3_column_int64(s, 2) == static_cast<int64_t>(e.kind) &&
                      id_or_null(3) == e.queue && id_or_null(4) == e.thread &&
                      id_or_null(5) == e.fence &&
                      sqlite3_column_int64(s, 6) == static_cast<int64_t>(e.value) &&
                      sqlite3_column_int64(s, 7) == e.op && sqlite3_column_int64(s, 8) == e.arg0 &&
                      sqlite3_column_int64(s, 9) == e.arg1 && sqlite3_column_int64(s, 10) == e.arg2 &&
                      sqlite3_column_int64(s, 11) == e.flags;
    if (!same) {
      ADD_FAILURE() << "event " << i + 1 << " differs";
      ++mismatches;
    }
    ++i;
  }
  EXPECT_EQ(i, kEvents);
  sqlite3_finalize(s);
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT count(*), sum(from_event), count(name_sid) FROM flows", -1,
                               &s, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int64(s, 0), 100);
  EXPECT_EQ(sqlite3_column_int64(s, 1), 999 * 100 + 1000 * (99 * 100 / 2));
  EXPECT_EQ(sqlite3_column_int64(s, 2), 50);
  sqlite3_finalize(s);
  sqlite3_close(db);
  EXPECT_EQ(LoadTrace(path).events.size(), static_cast<size_t>(kEvents));
}

}  // namespace

TEST(TraceWriter, ManyEventsComeBackInAppendOrder) {
  CheckManyEventsComeBackInAppendOrder(false);
}

TEST(TraceWriter, ManyEventsWrittenOnOneThreadComeBackInAppendOrder) {
  CheckManyEventsComeBackInAppendOrder(true);
}

// A failure while the helper thread builds its rows (here a full in-memory disk) is thrown on
// the caller's thread as core::Error naming the trace, and nothing is left on disk.
TEST(TraceWriter, HelperThreadFailureIsThrownToTheCallerAndLeavesNoFile) {
  ScratchDir dir;
  auto path = dir / "failed.db";
  std::filesystem::path temp;
  std::string message;
  InjectHelperLaneFaultForTesting();
  try {
    TraceWriter w(path, "unit-test");
    temp = w.temporary_path();
    for (int64_t i = 0; i < 200'000; ++i) w.Append({i, EventKind::PacketStarted});
    w.Commit();
  } catch (const core::Error& e) {
    message = e.what();
  }
  ASSERT_FALSE(message.empty()) << "the helper thread's failure was not reported";
  EXPECT_NE(message.find(path.string()), std::string::npos) << message;
  EXPECT_NE(message.find("full"), std::string::npos) << message;
  EXPECT_FALSE(temp.empty());
  EXPECT_FALSE(std::filesystem::exists(temp));
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  // The next writer is not affected.
  {
    TraceWriter w(path, "unit-test");
    for (int64_t i = 0; i < 50'000; ++i) w.Append({i, EventKind::PacketStarted});
    w.Commit();
  }
  EXPECT_EQ(LoadTrace(path).events.size(), 50'000u);
}

TEST(TraceWriter, CommitReplacesOldFile) {
  ScratchDir dir;
  auto path = dir / "t.db";
  WriteSmallTrace(path);
  {
    TraceWriter w(path, "second");
    w.Commit();
  }
  EXPECT_EQ(LoadTrace(path).MetaOr("source", ""), "second");
}

TEST(Schema, EventKindsTableMatchesTheCppList) {
  std::string sql(EventKindsSql());
  std::regex insert(R"(INSERT INTO event_kinds\(id, name, columns\) VALUES \((\d+), '([a-z_0-9]+)')");
  std::set<std::pair<int, std::string>> from_sql;
  for (std::sregex_iterator it(sql.begin(), sql.end(), insert), end; it != end; ++it) {
    from_sql.insert({std::stoi((*it)[1]), (*it)[2]});
  }
  int count = 0;
  const EventKind* kinds = AllEventKinds(&count);
  std::set<std::pair<int, std::string>> from_cpp;
  for (int i = 0; i < count; ++i) {
    from_cpp.insert({static_cast<int>(kinds[i]), std::string(EventKindName(kinds[i]))});
  }
  EXPECT_EQ(from_sql, from_cpp);
  EXPECT_GT(count, 30);
}

TEST(Schema, EveryColumnIsDocumented) {
  // Each column line in the DDL carries a comment, except the obvious primary keys.
  std::string sql(TraceSchemaSql());
  std::istringstream lines(sql);
  std::string line;
  bool in_table = false;
  int undocumented = 0;
  std::string missing;
  while (std::getline(lines, line)) {
    if (line.rfind("CREATE TABLE", 0) == 0) {
      in_table = true;
      continue;
    }
    if (line.rfind(")", 0) == 0) {
      in_table = false;
      continue;
    }
    if (!in_table || line.find("--") != std::string::npos) continue;
    if (line.find("INTEGER PRIMARY KEY") != std::string::npos) continue;
    if (line.find("PRIMARY KEY (") != std::string::npos) continue;
    ++undocumented;
    missing += line + "\n";
  }
  EXPECT_EQ(undocumented, 0) << missing;
}

TEST(TraceWriter, BlockRangeIndexAnswersQueueWindowLikeAFullScan) {
  ScratchDir dir;
  auto path = dir / "blocks.db";
  {
    TraceWriter w(path, "unit-test");
    for (int q = 0; q < 3; ++q) w.AddQueue({0, 0, QueueType::k3D, 0, 0, "q", 0});
    // Mostly time-ordered with some out-of-order writes, as an importer might produce.
    for (int i = 0; i < 5000; ++i) {
      TimeNs ts = (i % 97 == 0) ? i * 10 - 3000 : i * 10;
      w.Append(events::PacketStarted{
          .ts_ns = ts, .queue_id = static_cast<QueueId>(1 + i % 3), .packet_id = i});
    }
    w.Commit();
  }
  auto count = [&](const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr);
    int64_t n = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
    sqlite3_finalize(s);
    sqlite3_close(db);
    return n;
  };
  for (auto [t0, t1] : {std::pair{0, 100}, std::pair{12345, 23456}, std::pair{-5000, 50000}}) {
    std::string window = std::to_string(t0) + " AND " + std::to_string(t1);
    int64_t scan = count("SELECT count(*) FROM events WHERE queue_id = 2 AND ts_ns BETWEEN " +
                         window);
    int64_t via_blocks = count(
        "SELECT count(*) FROM event_blocks b JOIN events e ON e.rowid BETWEEN b.first_rowid AND "
        "b.last_rowid WHERE b.track_kind = 0 AND b.track_id = 2 AND b.end_ns >= " +
        std::to_string(t0) + " AND b.start_ns <= " + std::to_string(t1) +
        " AND e.queue_id = 2 AND e.ts_ns BETWEEN " + window);
    EXPECT_GT(scan, 0);
    EXPECT_EQ(via_blocks, scan) << window;
  }
  EXPECT_EQ(count("SELECT sum(events) FROM event_blocks WHERE track_kind = 2"), 5000);
}

// A capture of counters alone (a systrace page with only counter markers) has the span of its
// samples, not 0.
TEST(TraceWriter, CounterSamplesAloneGiveTheSpan) {
  test_support::ScratchDir dir;
  {
    TraceWriter w(dir / "c.db", "test");
    const auto series = w.AddCounterSeries({"fps", 0, "", {}, {}, 0});
    w.AddCounterSample(series, 700, 1.0);
    w.AddCounterSample(series, 400, 2.0);
    w.AddCounterSample(series, 900, 3.0);
    w.Commit();
  }
  TraceStore s = LoadTrace(dir / "c.db");
  EXPECT_EQ(s.start_ns(), 400);
  EXPECT_EQ(s.end_ns(), 900);
}
