// Waits open at the end of hand-made traces: the category of each (core/analysis/
// wait_findings.h) and the wait cycles. Every expected answer is worked out by hand in the
// comment above its trace, from the queue order of the records written.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/analysis/wait_findings.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

using namespace core::analysis;
using core::store::TraceStore;
using hand_trace::HandTrace;
using test_support::ScratchDir;

namespace {

std::vector<int64_t> Ids(const std::vector<PendingWait>& list) {
  std::vector<int64_t> ids;
  for (const PendingWait& p : list) ids.push_back(p.wait_id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

const PendingWait& ById(const std::vector<PendingWait>& list, int64_t id) {
  static const PendingWait kNone;
  for (const PendingWait& p : list) {
    if (p.wait_id == id) return p;
  }
  ADD_FAILURE() << "no wait " << id;
  return kNone;
}

}  // namespace

TEST(OpenWaits, SignalQueuedAheadOnARunningQueueIsPendingNotADeadlock) {
  // hand_trace::WriteCrossAdapterEnd: render's f1=24 is queued ahead of its wait, and render
  // still runs, so f1=24 executes, compose's wait passes and its f2=24 releases render's wait:
  // both pending at the end, released by the other queue's signal; no cycle.
  ScratchDir dir;
  const QueueId render = 1, compose = 2;
  WaitFindings w = FindWaitProblems(Reconstruct(hand_trace::WriteCrossAdapterEnd(dir / "ca.db")));
  EXPECT_TRUE(w.never_unblocked.empty());
  EXPECT_TRUE(w.cycles.empty());
  ASSERT_EQ(Ids(w.pending_at_end), (std::vector<int64_t>{21, 22}));
  EXPECT_EQ(ById(w.pending_at_end, 21).signal_queued_on, compose);
  EXPECT_EQ(ById(w.pending_at_end, 22).signal_queued_on, render);
  EXPECT_EQ(ById(w.pending_at_end, 21).value_at_end, 23u);
  EXPECT_EQ(ById(w.pending_at_end, 21).category, OpenWaitCategory::kPendingAtEnd);
}

TEST(OpenWaits, CycleOnlyAmongQueuesStuckBeforeTheirOwnSignals) {
  // span [0, 100], no signal executed (every fence 0 at the end):
  //   A (q1): wait f1>=1 (10, id 1), f2=1 (11), wait f3>=1 (12, id 3)
  //   B (q2): wait f2>=1 (13, id 2), f1=1 (14)
  //   C (q3): packet 5 running since 21; f4=1 (22), wait f5>=1 (23, id 4)
  //   D (q4): wait f4>=1 (24, id 5), f5=1 (25)
  // A and B each wait, before their own signal, for the other's: a cycle A -> B -> A, both
  // heads never unblocked with the signal blocked on the other queue. A's wait 3 sits behind
  // A's head. C runs on: f4=1 lets D pass and signal f5=1, which lets C pass: C and D are
  // pending at the end and on no cycle.
  ScratchDir dir;
  HandTrace t(dir / "cy.db");
  QueueId a = t.Queue("A"), b = t.Queue("B"), c = t.Queue("C"), d = t.Queue("D");
  FenceId f1 = t.Fence("f1"), f2 = t.Fence("f2"), f3 = t.Fence("f3"), f4 = t.Fence("f4"),
          f5 = t.Fence("f5");
  t.Wait(a, 0, f1, 1, 1, 10, -1);
  t.Signal(a, 0, f2, 1, 11, 11, -1);
  t.Wait(a, 0, f3, 1, 3, 12, -1);
  t.Wait(b, 0, f2, 1, 2, 13, -1);
  t.Signal(b, 0, f1, 1, 12, 14, -1);
  t.RunningPacket(c, 0, 5, 20, 21);
  t.Signal(c, 0, f4, 1, 13, 22, -1);
  t.Wait(c, 0, f5, 1, 4, 23, -1);
  t.Wait(d, 0, f4, 1, 5, 24, -1);
  t.Signal(d, 0, f5, 1, 14, 25, -1);
  WaitFindings w = FindWaitProblems(Reconstruct(t.Finish(0, 100)));
  ASSERT_EQ(Ids(w.never_unblocked), (std::vector<int64_t>{1, 2, 3}));
  const PendingWait& a_head = ById(w.never_unblocked, 1);
  EXPECT_EQ(a_head.reason, StuckReason::kSignalBlocked);
  EXPECT_EQ(a_head.signal_queued_on, b);
  EXPECT_EQ(a_head.blocker.wait_id, 2);
  EXPECT_EQ(ById(w.never_unblocked, 2).reason, StuckReason::kSignalBlocked);
  EXPECT_EQ(ById(w.never_unblocked, 2).signal_queued_on, a);
  EXPECT_EQ(ById(w.never_unblocked, 3).reason, StuckReason::kBehindStuckWait);
  EXPECT_EQ(ById(w.never_unblocked, 3).blocker.wait_id, 1);
  EXPECT_EQ(Ids(w.pending_at_end), (std::vector<int64_t>{4, 5}));
  ASSERT_EQ(w.cycles.size(), 1u);
  ASSERT_EQ(w.cycles[0].steps.size(), 2u);
  EXPECT_EQ(w.cycles[0].steps[0].queue, a);
  EXPECT_EQ(w.cycles[0].steps[0].wait_id, 1);
  EXPECT_EQ(w.cycles[0].steps[0].signaller, b);
  EXPECT_EQ(w.cycles[0].steps[1].queue, b);
  EXPECT_EQ(w.cycles[0].steps[1].signaller, a);
}

TEST(OpenWaits, SignalQueuedBehindItsOwnWaitIsACycleOfOne) {
  // q (q1): wait f>=1 (10, id 1), then f=1 (11): it waits for a signal only it can run, after
  // the wait.
  ScratchDir dir;
  HandTrace t(dir / "self.db");
  QueueId q = t.Queue("q");
  FenceId f = t.Fence("f");
  t.Wait(q, 0, f, 1, 1, 10, -1);
  t.Signal(q, 0, f, 1, 11, 11, -1);
  WaitFindings w = FindWaitProblems(Reconstruct(t.Finish(0, 100)));
  ASSERT_EQ(Ids(w.never_unblocked), (std::vector<int64_t>{1}));
  ASSERT_EQ(w.cycles.size(), 1u);
  ASSERT_EQ(w.cycles[0].steps.size(), 1u);
  EXPECT_EQ(w.cycles[0].steps[0].signaller, q);
}

TEST(OpenWaits, CpuWaitOnASignalBehindARunningPacketIsPendingAndValuesAreCurrentAtEnd) {
  // The preemption shape, span [0, 100]:
  //   sim (q1): f=6 executed 30 (previous 5); packet 2 running since 50; f=7 queued 41
  //   thread game: CPU wait f>=7 (45, id 1), recorded pending with CurrentValue 6
  //   thread other: CPU wait f>=8 (46, id 2), no pending record
  // f=7 runs once the packet ends: wait 1 is pending at the end, released by sim. Nothing
  // queued reaches 8: wait 2 is never signalled, and CurrentValue at the end is the last
  // executed write, 6 (not 0).
  ScratchDir dir;
  HandTrace t(dir / "pre.db");
  QueueId sim = t.Queue("sim");
  ThreadId game = t.Thread("game"), other = t.Thread("other");
  FenceId f = t.Fence("f");
  t.Signal(sim, game, f, 6, 11, 1, 30, 5);
  t.RunningPacket(sim, game, 2, 40, 50);
  t.Signal(sim, game, f, 7, 12, 41, -1);
  t.CpuWait(game, f, 7, 1, 45, -1);
  t.CpuWait(other, f, 8, 2, 46, -1);
  t.PendingAtEnd(0, game, f, 7, 1, 100, 6);
  WaitFindings w = FindWaitProblems(Reconstruct(t.Finish(0, 100)));
  ASSERT_EQ(Ids(w.pending_at_end), (std::vector<int64_t>{1}));
  EXPECT_TRUE(w.pending_at_end[0].cpu);
  EXPECT_EQ(w.pending_at_end[0].signal_queued_on, sim);
  ASSERT_EQ(Ids(w.never_unblocked), (std::vector<int64_t>{2}));
  EXPECT_EQ(w.never_unblocked[0].reason, StuckReason::kNeverSignalled);
  EXPECT_EQ(w.never_unblocked[0].value_at_end, 6u);
  EXPECT_TRUE(w.cycles.empty());
}

TEST(OpenWaits, RewoundBelowTheValueIsStuckAfterRewindNotUnprocessed) {
  // hand_trace::WriteRewoundFence: CurrentValue at the end is 2 (the last write), not the
  // highest ever written (10): the waits for 5 are stuck after the rewind (f reached 10 at
  // 10, rewound to 2 at 20 by the CPU); the wait for 2 is reached and only unprocessed.
  ScratchDir dir;
  WaitFindings w = FindWaitProblems(Reconstruct(hand_trace::WriteRewoundFence(dir / "rw.db")));
  ASSERT_EQ(Ids(w.stuck_after_rewind), (std::vector<int64_t>{1, 3}));
  for (const PendingWait& p : w.stuck_after_rewind) {
    EXPECT_EQ(p.value_at_end, 2u);
    EXPECT_EQ(p.reached_value, 10u);
    EXPECT_EQ(p.reached_at, 10);
    EXPECT_EQ(p.rewound_to, 2u);
    EXPECT_EQ(p.rewound_at, 20);
    EXPECT_EQ(p.rewound_by_queue, 0u);
  }
  EXPECT_EQ(Ids(w.unprocessed_at_end), (std::vector<int64_t>{2}));
  EXPECT_TRUE(w.never_unblocked.empty());
}

TEST(OpenWaits, ValueReachedBySignalsOutsideTheCaptureIsNotNeverSignalled) {
  // span [0, 100], no signal of f or g in the trace:
  //   thread T: CPU waits f>=4008 (10, id 1), f>=4011 (50, id 2)  -> f reached 4008 by 50
  //   thread U: CPU wait f>=4005 (60, id 3)                       -> 4005 <= 4008: reached
  //   thread V: CPU wait f>=4009 (70, id 4)                       -> nothing shows 4009
  //   thread W: CPU waits h>=7 (10, id 8), h>=7 (20, id 9)        -> the same value: no proof
  //   Q (q1): wait g>=5 (10, id 5), wait k>=1 (11, id 7)
  //   R (q2): wait g>=6 (20, id 6) unblocked 30 -> g reached 6; k=1 queued 40
  //   thread X: wait-any of m>=5 (10, id 10, withdrawn 12) and n>=1 (10, id 11, released 12),
  //             then m>=6 (20, id 12): the other member ended the first wait, no proof for m
  //   thread Y: CPU wait m>=5 (30, id 13)
  // Not in the capture: 1, 3, 5. Q's head passes (g was reached), then k>=1 passes once R runs
  // k=1: 7 is pending at the end. Never unblocked: 2, 4, 8, 9, 12, 13.
  ScratchDir dir;
  HandTrace t(dir / "cap.db");
  QueueId q = t.Queue("Q"), r = t.Queue("R");
  ThreadId tt = t.Thread("T"), u = t.Thread("U"), v = t.Thread("V"), w8 = t.Thread("W");
  FenceId f = t.Fence("f"), g = t.Fence("g"), h = t.Fence("h"), k = t.Fence("k");
  t.CpuWait(tt, f, 4008, 1, 10, -1);
  t.CpuWait(tt, f, 4011, 2, 50, -1);
  t.CpuWait(u, f, 4005, 3, 60, -1);
  t.CpuWait(v, f, 4009, 4, 70, -1);
  t.CpuWait(w8, h, 7, 8, 10, -1);
  t.CpuWait(w8, h, 7, 9, 20, -1);
  t.Wait(q, 0, g, 5, 5, 10, -1);
  t.Wait(q, 0, k, 1, 7, 11, -1);
  t.Wait(r, 0, g, 6, 6, 20, 30);
  t.Signal(r, 0, k, 1, 21, 40, -1);
  ThreadId x = t.Thread("X"), y = t.Thread("Y");
  FenceId m = t.Fence("m"), n = t.Fence("n");
  constexpr uint32_t kWaitAny = 1;
  t.CpuWait(x, m, 5, 10, 10, -1, /*group=*/1, kWaitAny);
  t.CpuWait(x, n, 1, 11, 10, 12, /*group=*/1, kWaitAny);
  t.Append(events::CpuWaitWithdrawn{
      .ts_ns = 12, .thread_id = x, .fence_id = m, .fence_value = 5, .waiter_id = 10});
  t.CpuWait(x, m, 6, 12, 20, -1);
  t.CpuWait(y, m, 5, 13, 30, -1);
  WaitFindings w = FindWaitProblems(Reconstruct(t.Finish(0, 100)));
  ASSERT_EQ(Ids(w.signal_not_in_capture), (std::vector<int64_t>{1, 3, 5}));
  const PendingWait& first = ById(w.signal_not_in_capture, 1);
  EXPECT_EQ(first.evidence.value, 4008u);
  EXPECT_EQ(first.evidence.later_value, 4011u);
  EXPECT_EQ(first.evidence.at, 50);
  EXPECT_EQ(first.evidence.thread, tt);
  const PendingWait& gpu = ById(w.signal_not_in_capture, 5);
  EXPECT_EQ(gpu.evidence.value, 6u);
  EXPECT_EQ(gpu.evidence.at, 30);
  EXPECT_EQ(gpu.evidence.queue, r);
  EXPECT_FALSE(gpu.evidence.cpu);
  EXPECT_EQ(Ids(w.pending_at_end), (std::vector<int64_t>{7}));
  EXPECT_EQ(Ids(w.never_unblocked), (std::vector<int64_t>{2, 4, 8, 9, 12, 13}));
}

TEST(OpenWaits, WorkLostInATdrNeverRunsOn) {
  // seed 004, span [0, 3000]:
  //   miner (q1): packet 1 running since 0; f=1 queued 1; wait g>=1 (2, id 2); TDR at 2000
  //   thread t: CPU wait f>=1 (3, id 1)
  // The TDR lost miner's work: f=1 never executes, so wait 1 is never unblocked (its signal
  // was lost), and miner's own wait 2 was lost with it. Neither is pending at the end.
  ScratchDir dir;
  HandTrace t(dir / "tdr.db");
  QueueId miner = t.Queue("miner");
  ThreadId th = t.Thread("t");
  FenceId f = t.Fence("f"), g = t.Fence("g");
  t.RunningPacket(miner, th, 1, 0, 0);
  t.Signal(miner, th, f, 1, 11, 1, -1);
  t.Wait(miner, th, g, 1, 2, 2, -1);
  t.CpuWait(th, f, 1, 1, 3, -1);
  t.Tdr(miner, 2000, 1, 1);
  WaitFindings w = FindWaitProblems(Reconstruct(t.Finish(0, 3000)));
  EXPECT_TRUE(w.pending_at_end.empty());
  ASSERT_EQ(w.never_unblocked.size(), 2u);
  const PendingWait& cpu = w.never_unblocked[0].cpu ? w.never_unblocked[0] : w.never_unblocked[1];
  const PendingWait& gpu = w.never_unblocked[0].cpu ? w.never_unblocked[1] : w.never_unblocked[0];
  EXPECT_EQ(cpu.reason, StuckReason::kLostInTdr);
  EXPECT_EQ(cpu.signal_queued_on, miner);
  EXPECT_EQ(gpu.reason, StuckReason::kLostInTdr);
  EXPECT_EQ(gpu.wait_id, 2);
}
