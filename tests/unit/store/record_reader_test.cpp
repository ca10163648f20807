// RecordReader: whole records by event index, from the resident columns or, once the bulk
// columns are released, from the trace file by rowid. Expected values are the ones written
// below (rows appended out of time order, so rowid and event index differ), or read with a
// plain SELECT of our own.
#include "core/store/record_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/model/error.h"
#include "core/store/sqlite_db.h"
#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

namespace {

using namespace core::store;  // NOLINT

void ExpectSame(const EventRecord& a, const EventRecord& b, const std::string& where) {
  EXPECT_EQ(a.ts, b.ts) << where;
  EXPECT_EQ(a.kind, b.kind) << where;
  EXPECT_EQ(a.queue, b.queue) << where;
  EXPECT_EQ(a.thread, b.thread) << where;
  EXPECT_EQ(a.fence, b.fence) << where;
  EXPECT_EQ(a.value, b.value) << where;
  EXPECT_EQ(a.op, b.op) << where;
  EXPECT_EQ(a.arg0, b.arg0) << where;
  EXPECT_EQ(a.arg1, b.arg1) << where;
  EXPECT_EQ(a.arg2, b.arg2) << where;
  EXPECT_EQ(a.flags, b.flags) << where;
}

class RecordReaderTest : public testing::Test {
 protected:
  void SetUp() override {
    TraceWriter w(path_, "hand");
    AdapterId gpu = w.AddAdapter({"GPU"});
    EngineId e = w.AddEngine({gpu, EngineType::k3D, 0, "3D"});
    ProcessId p = w.AddProcess({1, "app"});
    q_ = w.AddQueue({e, gpu, QueueType::k3D, 0, p, "Graphics", 0});
    t_ = w.AddThread({p, 7, ThreadKind::kApplication, "Render", 0});
    f_ = w.AddFence({"Frame", FenceKind::kNative, false, gpu, 1, 0, 1});
    // rowid: 1 .. 4; time order (ts, rowid): rowid 2, 4, 3, 1 = event 0, 1, 2, 3.
    rows_[3] = {30, EventKind::FenceSignalExecuted, q_, 0, f_, 3, 5, 2, 0, 0, 0};
    rows_[0] = {10, EventKind::PacketStarted, q_, 0, 0, 0, 42, 7, 8, 9, 0x10};
    rows_[2] = {20, EventKind::CpuWaitBegin, 0, t_, f_, UINT64_MAX, 9, -1, 0, 0, 0};
    rows_[1] = {10, EventKind::PacketCompleted, q_, 0, 0, 0, 42, 0, 0, 0, 0};
    for (int event : {3, 0, 2, 1}) w.Append(rows_[event]);
    w.Commit();
  }

  test_support::ScratchDir dir_;
  std::filesystem::path path_ = dir_ / "records.db";
  QueueId q_ = 0;
  ThreadId t_ = 0;
  FenceId f_ = 0;
  EventRecord rows_[4];  // by event index
};

TEST_F(RecordReaderTest, ReleaseKeepsOnlyTimeKindAndRowid) {
  TraceStore store = LoadTrace(path_);
  const size_t ts_bytes = store.events.ts.HeapBytes();
  store.events.ReleaseBulkColumns();
  EXPECT_TRUE(store.events.bulk_released);
  ASSERT_EQ(store.events.size(), 4u);
  EXPECT_EQ(store.events.ts.HeapBytes(), ts_bytes);
  EXPECT_EQ(store.events.queue.HeapBytes() + store.events.thread.HeapBytes() +
                store.events.fence.HeapBytes() + store.events.value.HeapBytes() +
                store.events.op.HeapBytes() + store.events.arg0.HeapBytes() +
                store.events.arg1.HeapBytes() + store.events.arg2.HeapBytes() +
                store.events.flags.HeapBytes(),
            0u);
  EXPECT_EQ(store.events.ts, (std::vector<TimeNs>{10, 10, 20, 30}));
  EXPECT_EQ(store.events.RowIdOf(0), 2);
  EXPECT_EQ(store.events.RowIdOf(1), 4);
  EXPECT_EQ(store.events.RowIdOf(3), 1);
  EXPECT_EQ(store.IndexOfRowId(3), 2u);
  EXPECT_EQ(store.events.kind[2], EventKind::CpuWaitBegin);
}

TEST_F(RecordReaderTest, ReadsTheWrittenRecordsFromMemoryAndFromTheFile) {
  TraceStore resident = LoadTrace(path_);
  TraceStore released = LoadTrace(path_);
  released.events.ReleaseBulkColumns();
  RecordReader from_memory(resident);
  RecordReader from_file(released);
  EXPECT_FALSE(from_memory.reads_file());
  EXPECT_TRUE(from_file.reads_file());
  // Any order, repeats allowed; the answer comes in the order asked.
  const std::vector<uint32_t> ask = {3, 0, 2, 2, 1, 0};
  for (RecordReader* reader : {&from_memory, &from_file}) {
    std::vector<EventRecord> got = reader->Read(ask);
    ASSERT_EQ(got.size(), ask.size());
    for (size_t k = 0; k < ask.size(); ++k) {
      ExpectSame(got[k], rows_[ask[k]], "asked #" + std::to_string(k));
    }
    ExpectSame(reader->Read(uint32_t{2}), rows_[2], "one record");
  }
  EXPECT_EQ(from_file.Read(uint32_t{2}).value, UINT64_MAX);  // the u64 bits survive SQL
}

TEST_F(RecordReaderTest, MissingRowNamesTheFileAndTheRowid) {
  TraceStore store = LoadTrace(path_);
  store.events.ReleaseBulkColumns();
  RecordReader reader(store);
  {
    Database db(path_.string(), Database::Mode::kCreate);
    db.Exec("DELETE FROM events WHERE rowid = 3");
  }
  try {
    reader.Read(uint32_t{2});  // event 2 is rowid 3
    FAIL() << "expected core::Error";
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find(path_.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rowid 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(reader.Read(uint32_t{4}), core::Error);  // past the last event
  ExpectSame(reader.Read(uint32_t{3}), rows_[3], "an untouched row still reads");
}

TEST(RecordReader, BothPathsAgreeOnASimulatedTrace) {
  test_support::ScratchDir dir;
  const auto path = test_support::SimulateTrace(dir / "sim.db", "default --seed 3");
  TraceStore resident = LoadTrace(path);
  TraceStore released = LoadTrace(path);
  released.events.ReleaseBulkColumns();
  ASSERT_GT(resident.events.size(), 1000u);
  std::vector<uint32_t> all(resident.events.size());
  std::iota(all.begin(), all.end(), 0u);
  std::shuffle(all.begin(), all.end(), std::mt19937(7));  // batches of scattered rowids
  RecordReader from_memory(resident);
  RecordReader from_file(released);
  std::vector<EventRecord> a = from_memory.Read(all);
  std::vector<EventRecord> b = from_file.Read(all);
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) ExpectSame(a[k], b[k], "event " + std::to_string(all[k]));
  // And against a plain SELECT of the row, for a spread of events.
  Database db(path.string(), Database::Mode::kReadOnly);
  Statement s = db.Prepare("SELECT ts_ns, kind, value, op_id, arg0, flags FROM events WHERE rowid = ?");
  for (uint32_t i = 0; i < resident.events.size(); i += 997) {
    s.BindInt(1, resident.events.RowIdOf(i));
    ASSERT_TRUE(s.Step());
    const EventRecord r = from_file.Read(i);
    EXPECT_EQ(r.ts, s.ColumnInt(0));
    EXPECT_EQ(static_cast<int64_t>(r.kind), s.ColumnInt(1));
    EXPECT_EQ(static_cast<int64_t>(r.value), s.ColumnInt(2));
    EXPECT_EQ(r.op, s.ColumnInt(3));
    EXPECT_EQ(r.arg0, s.ColumnInt(4));
    EXPECT_EQ(static_cast<int64_t>(r.flags), s.ColumnInt(5));
    s.Reset();
  }
}

}  // namespace
