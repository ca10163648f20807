#include "core/store/store_benchmark.h"

#include <chrono>
#include <random>

#include "core/model/seconds_since.h"
#include "core/store/event_row.h"
#include "core/store/sqlite_db.h"
#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"

namespace core::store {
// With keep = true the file stays for the select measurement of RunStoreBenchmark.
double MeasureRawInsertSeconds(uint64_t events, const std::filesystem::path& raw_path, bool keep);

namespace {
using Clock = core::SteadyClock;
using core::SecondsSince;

// A deterministic mix shaped like a simulated trace: packets on 8 queues, fence operations,
// interrupts, log writes.
EventRecord SyntheticEvent(uint64_t i, std::mt19937_64& random) {
  EventRecord e;
  e.ts = static_cast<TimeNs>(i * 250);  // non-decreasing, as the simulator writes
  static constexpr EventKind kKinds[] = {
      EventKind::PacketSubmitted,   EventKind::PacketStarted,       EventKind::PacketCompleted,
      EventKind::FenceSignalQueued, EventKind::FenceSignalExecuted, EventKind::FenceWaitQueued,
      EventKind::FenceWaitUnblocked, EventKind::LogWrite,           EventKind::Interrupt};
  e.kind = kKinds[i % 9];
  e.queue = static_cast<QueueId>(1 + random() % 8);
  e.thread = (i % 3 == 0) ? static_cast<ThreadId>(1 + random() % 4) : 0;
  e.fence = static_cast<FenceId>(1 + random() % 16);
  e.value = i / 9;
  e.op = static_cast<int64_t>(i / 3);
  e.arg0 = static_cast<int64_t>(random() % 1000);
  e.arg1 = static_cast<int64_t>(i % 64);
  e.arg2 = 0;
  e.flags = static_cast<uint32_t>(i & 1);
  return e;
}

void BindRow(Statement& s, uint64_t i, const EventRecord& e) {
  s.BindInt(1, static_cast<int64_t>(i + 1));
  s.BindInt(2, e.ts);
  s.BindInt(3, static_cast<int>(e.kind));
  s.BindIdOrNull(4, e.queue);
  s.BindIdOrNull(5, e.thread);
  s.BindIdOrNull(6, e.fence);
  s.BindInt(7, static_cast<int64_t>(e.value));
  s.BindInt(8, e.op);
  s.BindInt(9, e.arg0);
  s.BindInt(10, e.arg1);
  s.BindInt(11, e.arg2);
  s.BindInt(12, e.flags);
}
}  // namespace

double MeasureRawInsertSeconds(uint64_t events, const std::filesystem::path& raw_path, bool keep) {
  std::error_code ignored;
  std::filesystem::remove(raw_path, ignored);
  std::mt19937_64 random(42);
  auto start = Clock::now();
  {
    Database db(raw_path.string(), Database::Mode::kCreate);
    db.Exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-65536;"
            "PRAGMA page_size=8192;");
    db.Exec("CREATE TABLE events (ts_ns INTEGER NOT NULL, kind INTEGER NOT NULL, queue_id INTEGER,"
            " thread_id INTEGER, fence_id INTEGER, value INTEGER, op_id INTEGER, arg0 INTEGER, "
            "arg1 INTEGER, arg2 INTEGER, flags INTEGER)");
    db.Exec("BEGIN");
    Statement insert = db.Prepare(
        "INSERT INTO events(rowid, ts_ns, kind, queue_id, thread_id, fence_id, value, op_id, arg0,"
        " arg1, arg2, flags) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)");
    for (uint64_t i = 0; i < events; ++i) {
      BindRow(insert, i, SyntheticEvent(i, random));
      insert.Run();
    }
    insert = Statement();
    db.Exec("COMMIT");
    db.Close();
  }
  const double seconds = SecondsSince(start);
  if (!keep) std::filesystem::remove(raw_path, ignored);
  return seconds;
}

double MeasureRawInsertSeconds(uint64_t rows, const std::filesystem::path& db_path) {
  return MeasureRawInsertSeconds(rows, db_path, false);
}

double RawSelectSeconds(const std::filesystem::path& path) {
  const auto start = Clock::now();
  Database db(path.string(), Database::Mode::kReadOnly);
  Statement select =
      db.Prepare(std::string("SELECT ") + kEventRowColumns + " FROM events ORDER BY rowid");
  int64_t checksum = 0;
  sqlite3_stmt* h = select.handle();
  while (select.Step()) {
    for (int c = 0; c < 12; ++c) checksum += sqlite3_column_int64(h, c);
  }
  const double seconds = SecondsSince(start);
  volatile int64_t keep = checksum;  // the reads stay observable
  (void)keep;
  return seconds;
}

StoreBenchmarkResult RunStoreBenchmark(uint64_t events, const std::filesystem::path& work_dir) {
  std::filesystem::create_directories(work_dir);
  const auto trace_path = work_dir / "bench_store_trace.db";
  const auto raw_path = work_dir / "bench_store_raw.db";
  std::error_code ignored;
  std::filesystem::remove(trace_path, ignored);
  std::filesystem::remove(raw_path, ignored);
  StoreBenchmarkResult result;
  result.events = events;

  {  // Writer.
    std::mt19937_64 random(42);
    auto start = Clock::now();
    TraceWriter writer(trace_path, "bench");
    for (int q = 0; q < 8; ++q) writer.AddQueue({0, 0, QueueType::k3D, 0, 0, "queue", 0});
    for (int t = 0; t < 4; ++t) writer.AddThread({0, t, ThreadKind::kApplication, "thread", 0});
    for (int f = 0; f < 16; ++f) writer.AddFence({"fence"});
    for (uint64_t i = 0; i < events; ++i) writer.Append(SyntheticEvent(i, random));
    writer.Commit();
    result.writer_seconds = SecondsSince(start);
  }
  result.raw_insert_seconds = MeasureRawInsertSeconds(events, raw_path, /*keep=*/true);
  {  // Loader.
    auto start = Clock::now();
    TraceStore store = LoadTrace(trace_path);
    result.loader_seconds = SecondsSince(start);
    if (store.events.size() != events) result.loader_seconds = -1;
  }
  result.raw_select_seconds = RawSelectSeconds(raw_path);
  std::filesystem::remove(trace_path, ignored);
  std::filesystem::remove(raw_path, ignored);
  return result;
}

}  // namespace core::store
