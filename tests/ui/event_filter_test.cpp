// The event table's filter on a hand-written trace: which records a kind, a name or a number
// keeps, worked out from the records below, for both implementations (in memory over resident
// columns, and SQL over the file for a store whose bulk columns are released); then both against
// each other on a simulated trace, and the worker thread that runs the SQL one.
#include "app/gui/state/event_filter.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/gui/state/event_filter_worker.h"
#include "core/model/error.h"
#include "core/store/trace_writer.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

namespace events = core::model::events;

namespace {

using namespace core::store;  // NOLINT
using app::gui::state::FilterEvents;
using app::gui::state::FilterEventsSql;
using Indices = std::vector<uint32_t>;

class EventFilterTest : public testing::Test {
 protected:
  void SetUp() override {
    auto path = dir_ / "filter.db";
    hand_trace::HandTrace t(path);
    const EngineId e = t.Engine("Copy", EngineType::kCopy);
    const QueueId copy = t.Queue("Copy Queue", e, QueueType::kCopy);
    const QueueId gfx = t.Queue("Graphics", e, QueueType::k3D);
    const ThreadId render = t.Thread("Render");
    const FenceId frame = t.Fence("FrameFence");
    // event 0..4, in time order:
    t.Append(events::PacketStarted{.ts_ns = 10, .queue_id = copy, .packet_id = 42});  // 0: op 42
    t.Signal(gfx, render, frame, 3, 5, 20, 30, 2);  // 1 queued, 2 executed (previous value 2)
    t.CpuWait(render, frame, 42, 9, 40, -1);        // 3: value 42
    t.Append(events::PacketCompleted{.ts_ns = 50, .queue_id = gfx, .packet_id = 8});  // 4
    t.Finish(0, 50);
    store_ = LoadTrace(path);
    released_ = LoadTrace(path);
    released_.events.ReleaseBulkColumns();
    db_ = std::make_unique<Database>(path.string(), Database::Mode::kReadOnly);
  }

  // Both implementations must give the same answer; the tests compare it with their own.
  Indices Filter(int kind, const std::string& text, size_t first = 0, size_t last = 5) {
    Indices in_memory = FilterEvents(store_, first, last, kind, text);
    if (!text.empty()) {
      EXPECT_EQ(FilterEventsSql(released_, *db_, first, last, kind, text), in_memory)
          << "kind " << kind << " text '" << text << "' window " << first << ".." << last;
    }
    return in_memory;
  }

  test_support::ScratchDir dir_;
  TraceStore store_;
  TraceStore released_;
  std::unique_ptr<Database> db_;
};

TEST_F(EventFilterTest, NamesMatchIgnoringCase) {
  EXPECT_EQ(Filter(0, "copy queue"), (Indices{0}));       // queue name
  EXPECT_EQ(Filter(0, "GRAPH"), (Indices{1, 2, 4}));      // queue name
  EXPECT_EQ(Filter(0, "render"), (Indices{1, 3}));        // thread name
  EXPECT_EQ(Filter(0, "framefence"), (Indices{1, 2, 3}));  // fence name
  EXPECT_EQ(Filter(0, "fence_signal"), (Indices{1, 2}));  // kind name
  EXPECT_EQ(Filter(0, "nothing like it"), (Indices{}));
}

TEST_F(EventFilterTest, NumbersMatchOpValueAndArguments) {
  EXPECT_EQ(Filter(0, "42"), (Indices{0, 3}));    // op_id 42, value 42
  EXPECT_EQ(Filter(0, "0x2a"), (Indices{0, 3}));  // the same number in hex
  EXPECT_EQ(Filter(0, "2"), (Indices{2}));        // previous_value of the executed signal
  EXPECT_EQ(Filter(0, "5"), (Indices{1, 2}));     // op_id of both signal records
}

TEST_F(EventFilterTest, KindTextAndWindowCombine) {
  const int executed = static_cast<int>(EventKind::FenceSignalExecuted);
  EXPECT_EQ(Filter(executed, ""), (Indices{2}));
  EXPECT_EQ(Filter(executed, "render"), (Indices{}));  // the executed record has no thread
  EXPECT_EQ(Filter(0, "graphics", 2, 5), (Indices{2, 4}));
  EXPECT_EQ(Filter(0, "", 1, 3), (Indices{1, 2}));
}

TEST_F(EventFilterTest, TextNeedsTheColumnsInMemory) {
  EXPECT_THROW(FilterEvents(released_, 0, 5, 0, "render"), core::Error);
  EXPECT_EQ(FilterEvents(released_, 0, 5, static_cast<int>(EventKind::PacketCompleted), ""),
            (Indices{4}));  // kind only: the resident kind column answers
}

// Rows written out of time order (rowid != index + 1) with equal times at the window's edges.
TEST(EventFilterSql, UnsortedRowsAndWindowEdges) {
  test_support::ScratchDir dir;
  auto path = dir / "unsorted.db";
  {
    TraceWriter w(path, "hand");
    AdapterId gpu = w.AddAdapter({"GPU"});
    EngineId e = w.AddEngine({gpu, EngineType::k3D, 0, "3D"});
    ProcessId p = w.AddProcess({1, "app"});
    QueueId q = w.AddQueue({e, gpu, QueueType::k3D, 0, p, "Graphics", 0});
    w.Append(
        events::PacketStarted{.ts_ns = 20, .queue_id = q, .packet_id = 1});  // rowid 1 -> event 2
    w.Append(
        events::PacketSubmitted{.ts_ns = 10, .queue_id = q, .packet_id = 1});  // rowid 2 -> event 0
    w.Append(
        events::PacketStarted{.ts_ns = 20, .queue_id = q, .packet_id = 2});  // rowid 3 -> event 3
    w.Append(
        events::PacketSubmitted{.ts_ns = 10, .queue_id = q, .packet_id = 2});  // rowid 4 -> event 1
    w.Append(
        events::PacketCompleted{.ts_ns = 30, .queue_id = q, .packet_id = 1});  // rowid 5 -> event 4
    w.Commit();
  }
  TraceStore store = LoadTrace(path);
  store.events.ReleaseBulkColumns();
  Database db(path.string(), Database::Mode::kReadOnly);
  EXPECT_EQ(FilterEventsSql(store, db, 0, 5, 0, "graphics"), (Indices{0, 1, 2, 3, 4}));
  EXPECT_EQ(FilterEventsSql(store, db, 0, 5, 0, "2"), (Indices{1, 3}));  // op_id 2
  // Window [1, 3): events 1 and 2 only, although events 0 and 3 share their times.
  EXPECT_EQ(FilterEventsSql(store, db, 1, 3, 0, "graphics"), (Indices{1, 2}));
  EXPECT_EQ(FilterEventsSql(store, db, 1, 3, 0, "1"), (Indices{2}));  // op_id 1 in the window
  EXPECT_EQ(FilterEventsSql(store, db, 3, 3, 0, "graphics"), (Indices{}));
}

// The default scenario simulated once per test, loaded twice: with every column resident (the
// in-memory reference) and with the bulk columns released (what the window filters).
class SimulatedTrace : public testing::Test {
 protected:
  void SetUp() override {
    test_support::SimulateTrace(path, "default");
    resident = LoadTrace(path);
    released = LoadTrace(path);
    released.events.ReleaseBulkColumns();
  }
  test_support::ScratchDir dir;
  std::filesystem::path path = dir / "sim.db";
  TraceStore resident, released;
};

// The SQL filter against the in-memory one (itself checked by hand above) on a simulated trace:
// several texts, kinds and windows.
TEST_F(SimulatedTrace, SqlFilterMatchesTheInMemoryFilter) {
  Database db(path.string(), Database::Mode::kReadOnly);
  const size_t n = resident.events.size();
  ASSERT_GT(n, 1000u);
  const std::string queue_name = resident.queues.front().name;
  const std::string thread_name = resident.threads.front().name;
  const std::string fence_name = resident.fences.empty() ? "fence" : resident.fences.front().name;
  const std::vector<std::string> texts = {
      "signal", "WAIT",  queue_name, thread_name, fence_name, "3", "0x10", "1000",
      "packet_completed", "no such name"};
  const std::vector<int> kinds = {0, static_cast<int>(EventKind::FenceSignalExecuted),
                                  static_cast<int>(EventKind::PacketSubmitted)};
  const std::vector<std::pair<size_t, size_t>> windows = {{0, n}, {n / 3, n / 2}, {17, 18}};
  size_t nonempty = 0;
  for (const auto& text : texts) {
    for (int kind : kinds) {
      for (auto [first, last] : windows) {
        Indices expected = FilterEvents(resident, first, last, kind, text);
        nonempty += !expected.empty();
        EXPECT_EQ(FilterEventsSql(released, db, first, last, kind, text), expected)
            << "text '" << text << "' kind " << kind << " window " << first << ".." << last;
      }
    }
  }
  EXPECT_GT(nonempty, 10u);  // the cases are not all trivially empty
}

// The worker answers the latest request only; an older one is superseded.
TEST_F(SimulatedTrace, WorkerAnswersTheLatestRequest) {
  const size_t n = released.events.size();
  app::gui::state::EventFilterWorker worker(released);
  worker.Start({0, n, 0, "signal"});
  worker.Start({0, n, 0, "wait"});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::optional<app::gui::state::EventFilterResult> result;
  while (!result && std::chrono::steady_clock::now() < deadline) {
    result = worker.TakeResult();
    if (!result) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(result.has_value());
  EXPECT_TRUE(result->error.empty()) << result->error;
  EXPECT_EQ(result->request.text, "wait");
  EXPECT_EQ(result->indices, FilterEvents(resident, 0, n, 0, "wait"));
  EXPECT_FALSE(worker.Busy());
  EXPECT_FALSE(worker.TakeResult().has_value());  // delivered once
}

}  // namespace
