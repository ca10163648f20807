// The simulator's event queue hands events out by time, ties in the order they were pushed,
// whatever order they arrive in: checked against a plain sort of the same pushes (the order
// every run of a scenario and seed depends on), with the queue drained part-way and refilled so
// that its taken front is dropped (more than 64 taken) while events are pending.
#include "core/sim/event_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace {

using core::sim::EventQueue;
using core::sim::SimEvent;
using core::sim::SimEventType;

struct Pushed {
  int64_t t;
  uint64_t order;  // the push's place in all pushes
};

TEST(EventQueue, TakesByTimeThenPushOrderLikeASort) {
  std::mt19937_64 rng(3);
  EventQueue queue;
  std::vector<Pushed> pending;
  uint64_t pushes = 0;
  int64_t now = 0;
  size_t taken = 0;
  for (int round = 0; round < 200; ++round) {
    // A few events at or after now: most later than everything pending, some at the same
    // instant, some between.
    const int n = 1 + static_cast<int>(rng() % 6);
    for (int k = 0; k < n; ++k) {
      const int64_t t = now + static_cast<int64_t>(rng() % 4 == 0 ? 0 : rng() % 50);
      queue.Push(t, SimEventType::kThreadStep, static_cast<uint32_t>(pushes));
      pending.push_back({t, pushes++});
    }
    std::sort(pending.begin(), pending.end(), [](const Pushed& a, const Pushed& b) {
      return a.t != b.t ? a.t < b.t : a.order < b.order;
    });
    ASSERT_EQ(queue.Size(), pending.size());
    // Take some, sometimes all.
    const size_t take = round % 7 == 0 ? pending.size() : rng() % (pending.size() + 1);
    for (size_t k = 0; k < take; ++k) {
      ASSERT_FALSE(queue.Empty());
      EXPECT_EQ(queue.Top().t, pending[k].t);
      const SimEvent e = queue.Pop();
      ASSERT_EQ(e.t, pending[k].t) << "round " << round;
      ASSERT_EQ(e.a, pending[k].order) << "round " << round;
      now = e.t;
      ++taken;
    }
    pending.erase(pending.begin(), pending.begin() + static_cast<ptrdiff_t>(take));
    EXPECT_EQ(queue.Empty(), pending.empty());
  }
  EXPECT_GT(taken, 64u * 4);
}

TEST(EventQueue, CountsEachTypePending) {
  EventQueue queue;
  queue.Push(5, SimEventType::kLogRead, 0);
  queue.Push(3, SimEventType::kPacketDone, 1);
  queue.Push(9, SimEventType::kLogRead, 2);
  EXPECT_EQ(queue.Count(SimEventType::kLogRead), 2u);
  EXPECT_EQ(queue.Count(SimEventType::kPacketDone), 1u);
  EXPECT_EQ(queue.Pop().type, SimEventType::kPacketDone);
  EXPECT_EQ(queue.Count(SimEventType::kPacketDone), 0u);
  EXPECT_EQ(queue.Pop().t, 5);
  EXPECT_EQ(queue.Count(SimEventType::kLogRead), 1u);
  EXPECT_EQ(queue.Size(), 1u);
}

}  // namespace
