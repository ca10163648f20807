// Reconstruction on hand-made traces: pairing, wait -> signal linking (explicit, by value, across
// a rewind), CPU waits -> interrupts, tolerance of missing records.
#include <gtest/gtest.h>

#include "core/analysis/reconstruction.h"
#include "tests/support/test_support.h"
#include "tests/support/hand_trace.h"

using namespace core::analysis;
using hand_trace::HandTrace;
using test_support::ScratchDir;

TEST(Reconstruction, PairsPacketsSignalsAndLinksWaitByValue) {
  // trace A (tests/support/hand_trace.h): copy runs [10,50] and signals f=1 at 50; 3d waits
  // f>=1 from 5, unblocked 60 with no released_by id, so the link is by value.
  ScratchDir dir;
  auto store = hand_trace::WriteTraceA(dir / "t.db");
  const QueueId copy = 1;
  Reconstruction r = Reconstruct(store);

  ASSERT_EQ(r.packets.size(), 3u);  // copy, 3d, compute
  ASSERT_EQ(r.queues[copy].packets.size(), 1u);
  const Packet& p1 = r.packets[r.queues[copy].packets[0]];
  EXPECT_EQ(p1.submit, 0);
  EXPECT_EQ(p1.start, 10);
  EXPECT_EQ(p1.end, 50);
  ASSERT_EQ(r.queues[copy].segments.size(), 1u);
  EXPECT_EQ(r.queues[copy].segments[0].start, 10);
  EXPECT_EQ(r.queues[copy].segments[0].end, 50);

  ASSERT_EQ(r.waits.size(), 1u);
  const WaitBox& w = r.waits[0];
  EXPECT_EQ(w.queued, 5);
  EXPECT_EQ(w.unblocked, 60);
  ASSERT_NE(w.signal, kNoIndex);
  EXPECT_EQ(r.signals[w.signal].signal_id, 100);
  EXPECT_EQ(r.signals[w.signal].executed, 50);
  EXPECT_EQ(w.link, SignalLink::kByValue);
  EXPECT_TRUE(r.problems.empty());
}

TEST(Reconstruction, ExplicitLinkWinsAndRewindRestartsTheSearch) {
  ScratchDir dir;
  HandTrace t(dir / "t.db");
  QueueId a = t.Queue("a");
  QueueId b = t.Queue("b");
  FenceId f = t.Fence("f");
  // f: 5 at t=10, rewound to 2 at t=20 (previous 5), 6 at t=40.
  t.Signal(a, 0, f, 5, 1, 1, 10, 0);
  t.Signal(a, 0, f, 2, 2, 2, 20, 5);
  t.Signal(a, 0, f, 6, 3, 3, 40, 2);
  // wait A: f>=4 queued at 25 (after the rewind), unblocked at 41: by value it is signal 3,
  // not signal 1 (which came before the rewind).
  t.Wait(b, 0, f, 4, 10, 25, 41);
  // wait B: f>=1 queued at 5, unblocked 12 naming signal 1 explicitly.
  t.Wait(b, 0, f, 1, 11, 5, 12, 1);
  // wait C: f>=3 queued at 15 (before the rewind): signal 1 (value 5 at 10) already satisfied it.
  t.Wait(b, 0, f, 3, 12, 15, 16);
  auto store = t.Finish(0, 50);
  Reconstruction r = Reconstruct(store);
  ASSERT_EQ(r.waits.size(), 3u);
  auto signal_of = [&](int64_t wait_id) -> int64_t {
    for (const WaitBox& w : r.waits) {
      if (w.wait_id == wait_id) return w.signal == kNoIndex ? -1 : r.signals[w.signal].signal_id;
    }
    return -2;
  };
  EXPECT_EQ(signal_of(10), 3);
  EXPECT_EQ(signal_of(11), 1);
  EXPECT_EQ(signal_of(12), 1);
  int rewinds = 0;
  for (const SignalBox& s : r.signals) rewinds += s.rewind;
  EXPECT_EQ(rewinds, 1);
}

TEST(Reconstruction, CpuWaitLinksToInterruptAndToleratesMissingRecords) {
  ScratchDir dir;
  HandTrace t(dir / "t.db");
  QueueId q = t.Queue("q");
  ThreadId th = t.Thread("main");
  FenceId f = t.Fence("f");
  t.CpuWaitReleasedByInterruptThenSpurious(q, th, f);
  // records missing: completed with no start, unblocked with no queued, pending wait.
  t.Append(events::PacketCompleted{.ts_ns = 40, .queue_id = q, .packet_id = 55});
  t.Append(events::FenceWaitUnblocked{
      .ts_ns = 41, .queue_id = q, .fence_id = f, .fence_value = 9, .wait_id = 77});
  t.PendingAtEnd(q, 0, f, 12, 78, 50, 3);
  auto store = t.Finish(0, 50);
  Reconstruction r = Reconstruct(store);
  ASSERT_EQ(r.cpu_waits.size(), 1u);
  const CpuWait& cw = r.cpu_waits[0];
  EXPECT_EQ(cw.begin, 5);
  EXPECT_EQ(cw.released, 35);
  ASSERT_NE(cw.interrupt, kNoIndex);
  EXPECT_EQ(r.interrupts[cw.interrupt].ts, 31);
  ASSERT_NE(cw.signal, kNoIndex);
  EXPECT_EQ(r.signals[cw.signal].signal_id, 7);
  ASSERT_EQ(r.interrupts.size(), 2u);
  EXPECT_FALSE(r.interrupts[0].spurious);
  EXPECT_TRUE(r.interrupts[1].spurious);
  EXPECT_EQ(r.signals[cw.signal].interrupts, 1u);

  EXPECT_EQ(r.Problem("packet_stopped_without_submit"), 1u);
  EXPECT_EQ(r.Problem("packet_completed_without_start"), 1u);
  EXPECT_EQ(r.Problem("wait_unblocked_without_queued"), 1u);
  EXPECT_EQ(r.Problem("wait_unlinked"), 1u);  // f never reached 9
  EXPECT_EQ(r.Problem("pending_wait_without_queued"), 1u);
  int pending = 0;
  for (const WaitBox& w : r.waits) pending += w.pending_at_end;
  EXPECT_EQ(pending, 1);
}

TEST(Reconstruction, PreemptedPacketHasTwoSegmentsAndOverrunMakesAWindow) {
  ScratchDir dir;
  HandTrace t(dir / "t.db");
  QueueId q = t.Queue("q");
  t.PreemptedPacket(q, 1, 0, 10, 20, 30, 70);
  t.Append(events::LogOverrun{.ts_ns = 80,
                              .queue_id = q,
                              .entries_lost = 12,
                              .wraparound_count = 3,
                              .missing_since_ns = 45});
  auto store = t.Finish(0, 100);
  Reconstruction r = Reconstruct(store);
  ASSERT_EQ(r.queues[q].segments.size(), 2u);
  EXPECT_EQ(r.queues[q].segments[0].end, 20);
  EXPECT_TRUE(r.queues[q].segments[0].preempted);
  EXPECT_EQ(r.queues[q].segments[1].start, 30);
  EXPECT_TRUE(r.queues[q].segments[1].resumed);
  EXPECT_EQ(r.packets[0].preemptions, 1u);
  EXPECT_EQ(r.packets[0].segments, 2u);
  ASSERT_EQ(r.queues[q].missing.size(), 1u);
  EXPECT_EQ(r.queues[q].missing[0].start, 45);
  EXPECT_EQ(r.queues[q].missing[0].end, 80);
  EXPECT_EQ(r.queues[q].missing[0].entries_lost, 12u);
}

TEST(Reconstruction, CpuHeldWaitLinksToTheInterruptOnlyWhenReachedBefore) {
  // monitored fence: signal f=1 executed at 20, interrupt at 21.
  // wait 1 reached the queue (observed) at 10, unblocked 25 -> released through the interrupt.
  // wait 2 reached at 30 (after the interrupt), unblocked 30 -> already satisfied, not linked.
  ScratchDir dir;
  HandTrace t(dir / "m.db");
  QueueId a = t.Queue("a");
  QueueId b = t.Queue("b");
  FenceId f = t.Fence("f");
  t.Signal(a, 0, f, 1, 7, 1, 20);
  t.Wait(b, 0, f, 1, 1, 2, 25, 7, /*observed=*/10, WaitPath::kCpuHeld);
  t.Wait(b, 0, f, 1, 2, 3, 30, 7, /*observed=*/30, WaitPath::kCpuHeld);
  t.InterruptFor(0, f, 1, 7, 21, 0, static_cast<uint32_t>(InterruptType::kMonitored));
  auto store = t.Finish(0, 40);
  Reconstruction r = Reconstruct(store);
  ASSERT_EQ(r.waits.size(), 2u);
  EXPECT_EQ(r.waits[0].interrupt, 0u);
  EXPECT_EQ(r.waits[1].interrupt, kNoIndex);
  EXPECT_EQ(r.interrupts[0].gpu_waits_linked, 1u);
  EXPECT_FALSE(r.interrupts[0].spurious);  // it released the held wait
}

// Track lists are in time order whatever order their boxes were made in (boxes are made at their
// first record), and boxes with the same time keep the order they were made in.
TEST(Reconstruction, TrackListsFollowTimeNotTheOrderBoxesWereMade) {
  ScratchDir dir;
  HandTrace t(dir / "t.db");
  const QueueId q = t.Queue("3D");
  const ThreadId app = t.Thread("app"), runtime = t.Thread("runtime");
  // Submitted as 1, 2, 3, 4 (the boxes are made in that order); started at 10, 5, 10, 2: a queue
  // that runs by priority. By start: 4, 2, then 1 and 3 (same start, made in that order).
  t.Packet(q, app, 1, 1, 10, 12);
  t.Packet(q, app, 2, 2, 5, 8);
  t.Packet(q, app, 3, 3, 10, 14);
  t.Packet(q, app, 4, 4, 2, 4);
  // Tasks queued as 1, 2, 3 start on the runtime thread at 40, 30, 40: by start 2, 1, 3.
  for (int64_t task = 1; task <= 3; ++task) {
    t.Append(events::TaskQueued{.ts_ns = 20 + task, .thread_id = app, .task_id = task});
  }
  t.Append(events::TaskStarted{.ts_ns = 40, .thread_id = runtime, .task_id = 1});
  t.Append(events::TaskStarted{.ts_ns = 30, .thread_id = runtime, .task_id = 2});
  t.Append(events::TaskStarted{.ts_ns = 40, .thread_id = runtime, .task_id = 3});
  auto store = t.Finish(0, 100);
  const Reconstruction r = Reconstruct(store);

  std::vector<int64_t> packets, tasks;
  for (uint32_t p : r.queues[q].packets) packets.push_back(r.packets[p].packet_id);
  for (uint32_t k : r.threads[runtime].tasks) tasks.push_back(r.tasks[k].task_id);
  EXPECT_EQ(packets, (std::vector<int64_t>{4, 2, 1, 3}));
  EXPECT_EQ(tasks, (std::vector<int64_t>{2, 1, 3}));
}
