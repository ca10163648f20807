// A HW queue's commands come out in the order they went in, whatever the mix of adds and takes:
// checked against a std::deque fed the same operations, with the queue drained part-way and
// refilled so that its ring wraps around and grows while commands are pending at both ends of
// it, and a command changed where it lies (a pause started) kept as changed.
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
  EXPECT_GT(next, 1000);  // the runs wrapped the ring around many times
}

TEST(CommandQueue, GrowsWhileWrappedAroundInOrder) {
  // Eight slots at first: 1-8 fill them, 1-5 are taken, 9-13 wrap around into the freed slots
  // and 14 makes it grow with its front in the middle of the ring.
  CommandQueue queue;
  for (int64_t op = 1; op <= 8; ++op) queue.push_back(Numbered(op));
  for (int64_t op = 1; op <= 5; ++op) queue.pop_front();
  for (int64_t op = 9; op <= 14; ++op) queue.push_back(Numbered(op));
  EXPECT_EQ(Ops(queue), (std::vector<int64_t>{6, 7, 8, 9, 10, 11, 12, 13, 14}));
  EXPECT_EQ(queue[3].ready_at, 27);
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
