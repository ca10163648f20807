// A HW queue's commands come out in the order they went in, whatever the mix of adds and takes:
// checked against a std::deque fed the same operations, with the queue drained part-way and
// refilled so that its taken front is dropped (64 or more taken, at least half of it) while
// commands are pending, and a command changed where it lies (a pause started) kept as changed.
#include "core/sim/command_queue.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

namespace {

using core::sim::CommandQueue;
using core::sim::GpuCommand;

GpuCommand Numbered(int64_t op) {
  GpuCommand c;
  c.op = op;
  c.ready_at = op * 3;
  return c;
}

std::vector<int64_t> Ops(const CommandQueue& queue) {
  std::vector<int64_t> ops;
  for (const GpuCommand& c : queue) ops.push_back(c.op);
  return ops;
}

std::vector<int64_t> Ops(const std::deque<GpuCommand>& queue) {
  std::vector<int64_t> ops;
  for (const GpuCommand& c : queue) ops.push_back(c.op);
  return ops;
}

TEST(CommandQueue, KeepsSubmissionOrderLikeADeque) {
  std::mt19937_64 rng(7);
  CommandQueue queue;
  std::deque<GpuCommand> expected;
  int64_t next = 1;
  for (int round = 0; round < 400; ++round) {
    // Long runs of adds then of takes, so that the front is dropped with commands pending.
    const bool adding = (round / 20) % 2 == 0;
    const int n = 1 + static_cast<int>(rng() % 9);
    for (int k = 0; k < n; ++k) {
      if (adding || rng() % 5 == 0) {
        queue.push_back(Numbered(next));
        expected.push_back(Numbered(next));
        ++next;
      } else if (!expected.empty()) {
        ASSERT_FALSE(queue.empty());
        EXPECT_EQ(queue.front().op, expected.front().op);
        EXPECT_EQ(queue.front().ready_at, expected.front().ready_at);
        queue.pop_front();
        expected.pop_front();
      }
    }
    if (!expected.empty() && rng() % 3 == 0) {
      queue.front().delay_started = true;
      expected.front().delay_started = true;
    }
    ASSERT_EQ(queue.size(), expected.size()) << "round " << round;
    ASSERT_EQ(Ops(queue), Ops(expected)) << "round " << round;
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_EQ(queue[i].op, expected[i].op);
      EXPECT_EQ(queue[i].delay_started, expected[i].delay_started);
    }
  }
  EXPECT_GT(next, 1000);  // the runs went through many compactions
}

TEST(CommandQueue, EmptiedAndClearedQueuesStartAgain) {
  CommandQueue queue;
  EXPECT_TRUE(queue.empty());
  for (int64_t op = 1; op <= 100; ++op) queue.push_back(Numbered(op));
  for (int64_t op = 1; op <= 100; ++op) {
    ASSERT_EQ(queue.front().op, op);
    queue.pop_front();
  }
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.size(), 0u);
  queue.push_back(Numbered(101));
  queue.push_back(Numbered(102));
  EXPECT_EQ(queue.front().op, 101);
  EXPECT_EQ(queue.size(), 2u);
  queue.clear();
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.begin(), queue.end());
}

}  // namespace
