// RunQuery's stop flag and BackgroundQuery: a runaway query (a recursive CTE with no end) is
// stopped from another thread within a short bound, and the next query runs normally.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "core/store/background_query.h"
#include "core/store/query.h"
#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

namespace {

using namespace core::store;  // NOLINT
using Clock = std::chrono::steady_clock;

constexpr const char* kRunaway =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";
// Far more than a stop may take (also under sanitizers on a loaded machine), far less than the
// time limit that ends the query should the flag be ignored.
constexpr auto kStopBound = std::chrono::seconds(3);
constexpr double kBackstopSeconds = 60;

std::filesystem::path WriteEmptyTrace(const test_support::ScratchDir& dir) {
  auto path = dir / "trace.db";
  TraceWriter w(path, "query-stop-test");
  w.AddQueue({0, 0, QueueType::kCopy, 0, 0, "copy", 0});
  w.Commit();
  return path;
}

TEST(QueryStop, TheStopFlagEndsARunawayRecursiveQueryFromAnotherThread) {
  test_support::ScratchDir dir;
  const auto trace = WriteEmptyTrace(dir);
  std::atomic<bool> stop{false};
  auto running = std::async(std::launch::async,
                            [&] { RunQuery(trace, kRunaway, SIZE_MAX, kBackstopSeconds, &stop); });
  // still running after a while: nothing but the flag ends it
  ASSERT_EQ(running.wait_for(std::chrono::milliseconds(300)), std::future_status::timeout);
  const auto stopped_at = Clock::now();
  stop = true;
  ASSERT_EQ(running.wait_for(kStopBound), std::future_status::ready)
      << "the query did not stop within the bound";
  EXPECT_LT(Clock::now() - stopped_at, kStopBound);
  EXPECT_THROW(running.get(), QueryStopped);
}

TEST(QueryStop, AQueryWhoseFlagIsNeverSetRunsToItsEnd) {
  test_support::ScratchDir dir;
  const auto trace = WriteEmptyTrace(dir);
  std::atomic<bool> stop{false};
  auto result = RunQuery(trace,
                         "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                         "WHERE x < 100000) SELECT count(*) FROM c",
                         SIZE_MAX, 0, &stop);
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_EQ(result.rows[0][0], "100000");
}

TEST(QueryStop, BackgroundQueryStopsAndThenRunsTheNextQuery) {
  test_support::ScratchDir dir;
  const auto trace = WriteEmptyTrace(dir);
  BackgroundQuery query;
  query.Start(trace, kRunaway, 10, kBackstopSeconds);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ASSERT_TRUE(query.Running());
  EXPECT_FALSE(query.TakeOutcome().has_value());
  const auto stopped_at = Clock::now();
  query.Stop();
  EXPECT_TRUE(query.StopRequested());
  while (query.Running() && Clock::now() - stopped_at < kStopBound) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_FALSE(query.Running()) << "the query did not stop within the bound";
  auto outcome = query.TakeOutcome();
  ASSERT_TRUE(outcome.has_value());
  EXPECT_TRUE(outcome->stopped);
  EXPECT_EQ(outcome->error, "");
  EXPECT_GE(outcome->seconds, 0.3);
  EXPECT_FALSE(query.TakeOutcome().has_value());  // once

  query.Start(trace, "SELECT name FROM pragma_table_info('meta') ORDER BY cid", 10);
  query.Wait();
  outcome = query.TakeOutcome();
  ASSERT_TRUE(outcome.has_value());
  EXPECT_FALSE(outcome->stopped);
  EXPECT_EQ(outcome->error, "");
  ASSERT_EQ(outcome->result.rows.size(), 2u);
  EXPECT_EQ(outcome->result.rows[0][0], "key");
}

TEST(QueryStop, ErrorsAreOutcomesToo) {
  test_support::ScratchDir dir;
  const auto trace = WriteEmptyTrace(dir);
  BackgroundQuery query;
  query.Start(trace, "SELECT nope FROM nowhere", 10);
  query.Wait();
  auto outcome = query.TakeOutcome();
  ASSERT_TRUE(outcome.has_value());
  EXPECT_FALSE(outcome->stopped);
  EXPECT_NE(outcome->error.find("no such table"), std::string::npos) << outcome->error;
}

// Destroying a BackgroundQuery whose query still runs stops it (and does not hang).
TEST(QueryStop, DestroyingARunningQueryStopsIt) {
  test_support::ScratchDir dir;
  const auto trace = WriteEmptyTrace(dir);
  const auto start = Clock::now();
  {
    BackgroundQuery query;
    query.Start(trace, kRunaway, 10, kBackstopSeconds);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_LT(Clock::now() - start, kStopBound);
}

}  // namespace
