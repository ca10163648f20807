// The analyses on hand-made traces. Every expected number is worked out by hand in the comment
// next to the trace it comes from.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>


#include "core/analysis/background_stats.h"
#include "core/analysis/critical_path.h"
#include "core/analysis/idle_gaps.h"
#include "core/analysis/interrupt_analysis.h"
#include "core/analysis/pgo_series.h"
#include "core/analysis/queue_time.h"
#include "core/analysis/resource_hazards.h"
#include "core/analysis/wait_findings.h"
#include "core/analysis/wait_latency.h"
#include "tests/support/test_support.h"
#include "tests/support/hand_trace.h"

using namespace core::analysis;
using core::store::TraceStore;
using hand_trace::HandTrace;
using test_support::ScratchDir;

using hand_trace::WriteTraceA;

TEST(QueueTime, BusyWaitingIdleAndPairs) {
  ScratchDir dir;
  TraceStore store = WriteTraceA(dir / "a.db");
  Reconstruction r = Reconstruct(store);
  QueueTimeSplit split = ComputeQueueTime(store, r);
  ASSERT_EQ(split.queues.size(), 3u);
  EXPECT_EQ(split.span_ns, 120);
  // copy: busy [10,50] = 40, no waits, idle 80
  EXPECT_EQ(split.queues[0].busy_ns, 40);
  EXPECT_EQ(split.queues[0].waiting_ns, 0);
  EXPECT_EQ(split.queues[0].idle_ns, 80);
  // 3d: busy [60,100] = 40, held by the wait [5,60] = 55, idle 120 - 40 - 55 = 25
  EXPECT_EQ(split.queues[1].busy_ns, 40);
  EXPECT_EQ(split.queues[1].waiting_ns, 55);
  EXPECT_EQ(split.queues[1].idle_ns, 25);
  // compute: busy 30, idle 90
  EXPECT_EQ(split.queues[2].busy_ns, 30);
  EXPECT_EQ(split.queues[2].idle_ns, 90);
  ASSERT_EQ(split.pairs.size(), 1u);
  EXPECT_EQ(split.pairs[0].waiting, 2u);
  EXPECT_EQ(split.pairs[0].signalling, 1u);
  EXPECT_EQ(split.pairs[0].waiting_ns, 55);
}

TEST(WaitLatency, SplitsQueuedToSignalAndSignalToUnblock) {
  ScratchDir dir;
  TraceStore store = WriteTraceA(dir / "a.db");
  Reconstruction r = Reconstruct(store);
  WaitLatency lat = ComputeWaitLatency(r);
  // queued 5 -> signal executed 50: 45; executed 50 -> unblocked 60: 10
  EXPECT_EQ(lat.gpu.to_signal.count, 1u);
  EXPECT_EQ(lat.gpu.to_signal.p50, 45);
  EXPECT_EQ(lat.gpu.to_signal.p99, 45);
  EXPECT_EQ(lat.gpu.to_unblock.p50, 10);
  EXPECT_EQ(lat.gpu.total.p90, 55);
  ASSERT_EQ(lat.per_queue_pair.size(), 1u);
  EXPECT_EQ(lat.per_queue_pair[0].from, 1u);
  EXPECT_EQ(lat.per_queue_pair[0].to_queue, 2u);
  ASSERT_EQ(lat.per_fence.size(), 1u);
  EXPECT_EQ(lat.per_fence[0].fence, 1u);
}

TEST(Percentiles, NearestRank) {
  // 1..10: p50 = rank ceil(5) = 5; p90 = rank 9 = 9; p99 = rank ceil(9.9) = 10
  std::vector<DurationNs> v = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  Percentiles p = Summarise(v);
  EXPECT_EQ(p.p50, 5);
  EXPECT_EQ(p.p90, 9);
  EXPECT_EQ(p.p99, 10);
  EXPECT_DOUBLE_EQ(p.mean, 5.5);
}

// The selected ranks are those of a sorted copy, whatever the size and the ties.
TEST(Percentiles, SelectedRanksAreTheSortedCopysRanks) {
  std::mt19937_64 rng(11);
  for (size_t n : {1u, 2u, 3u, 10u, 99u, 100u, 101u, 1000u, 12345u}) {
    std::vector<DurationNs> v(n);
    for (auto& x : v) x = static_cast<DurationNs>(rng() % (n < 100 ? 7 : 100000));
    std::vector<DurationNs> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    auto rank = [&](double pct) {
      auto r = static_cast<size_t>(std::ceil(pct / 100.0 * static_cast<double>(n)));
      return sorted[std::clamp<size_t>(r, 1, n) - 1];
    };
    long double sum = 0;
    for (DurationNs x : sorted) sum += x;
    const Percentiles p = Summarise(v);
    EXPECT_EQ(p.count, n);
    EXPECT_EQ(p.p50, rank(50)) << n;
    EXPECT_EQ(p.p90, rank(90)) << n;
    EXPECT_EQ(p.p99, rank(99)) << n;
    EXPECT_EQ(p.max, sorted.back()) << n;
    EXPECT_DOUBLE_EQ(p.mean, static_cast<double>(sum / n)) << n;
  }
}

TEST(CriticalPath, CrossesQueuesThroughTheFence) {
  ScratchDir dir;
  TraceStore store = WriteTraceA(dir / "a.db");
  Reconstruction r = Reconstruct(store);
  CriticalPath path = ComputeCriticalPath(r);
  // back from 3d's end at 100: run 3d [60,100]; it started when its wait was unblocked (60),
  // the wait's signal executed on copy at 50 -> gpu_wait [50,60]; copy ran [10,50]; it started
  // 10 after its submission at 0 -> submit [0,10]; the thread has no earlier cause.
  EXPECT_EQ(path.start, 0);
  EXPECT_EQ(path.end, 100);
  ASSERT_EQ(path.steps.size(), 4u);
  EXPECT_EQ(path.steps[0].kind, PathStepKind::kSubmit);
  EXPECT_EQ(path.steps[0].queue, 1u);
  EXPECT_EQ(path.steps[1].kind, PathStepKind::kRun);
  EXPECT_EQ(path.steps[1].start, 10);
  EXPECT_EQ(path.steps[1].end, 50);
  EXPECT_EQ(path.steps[2].kind, PathStepKind::kGpuWait);
  EXPECT_EQ(path.steps[2].queue, 2u);
  EXPECT_EQ(path.steps[2].start, 50);
  EXPECT_EQ(path.steps[2].end, 60);
  EXPECT_EQ(path.steps[3].kind, PathStepKind::kRun);
  EXPECT_EQ(path.steps[3].queue, 2u);
  // shares: copy 10 + 40 = 50 of 100; 3d 10 + 40 = 50 of 100; compute is not on the path
  ASSERT_EQ(path.shares.size(), 2u);
  EXPECT_EQ(path.shares[0].queue, 1u);
  EXPECT_DOUBLE_EQ(path.shares[0].share, 0.5);
  EXPECT_EQ(path.shares[1].queue, 2u);
  EXPECT_DOUBLE_EQ(path.shares[1].share, 0.5);
}

TEST(CriticalPath, GoesThroughACpuWaitAndASubmission) {
  // Trace B, span [0, 130]:
  //   copy    (q1) packet 1 submitted 0, runs [10,50]; signal g=1 queued 2, executed 55
  //   thread  (t1) CPU wait g>=1 begins 20, released 70; then submits packet 4 at 72
  //   compute (q2) packet 3 submitted 0, runs [0,30]; packet 4 runs [75,120]
  // Back from 120: run compute [75,120]; its start follows the submission at 72 (later than the
  // previous end 30) -> submit [72,75]; thread ran since its release at 70 -> cpu_run [70,72];
  // the release followed g=1 executed at 55 -> cpu_wait [55,70]; copy ran nothing in [50,55]
  // -> queue_gap; run copy [10,50]; submit [0,10]. Shares: copy 10+40+5 = 55, thread 15+2 = 17,
  // compute 3+45 = 48, of 120.
  ScratchDir dir;
  HandTrace t(dir / "b.db");
  QueueId copy = t.Queue("copy", QueueType::kCopy);
  QueueId compute = t.Queue("compute", QueueType::kCompute);
  ThreadId th = t.Thread("main");
  FenceId g = t.Fence("g");
  t.Packet(copy, th, 1, 0, 10, 50);
  t.Signal(copy, th, g, 1, 100, 2, 55);
  t.Append(events::CpuWaitBegin{
      .ts_ns = 20, .thread_id = th, .fence_id = g, .fence_value = 1, .waiter_id = 900});
  EventRowId irq = t.OptimizedInterrupt(copy, g, 1, 100, 56, 1);
  t.CpuWaitRelease(th, g, 1, 900, 70, irq, 1);
  t.Packet(compute, th, 3, 0, 0, 30);
  t.Packet(compute, th, 4, 72, 75, 120);
  TraceStore store = t.Finish(0, 130);
  Reconstruction r = Reconstruct(store);
  CriticalPath path = ComputeCriticalPath(r);
  ASSERT_EQ(path.steps.size(), 7u);
  const PathStepKind kinds[] = {PathStepKind::kSubmit, PathStepKind::kRun,
                                PathStepKind::kQueueGap, PathStepKind::kCpuWait,
                                PathStepKind::kCpuRun, PathStepKind::kSubmit, PathStepKind::kRun};
  const TimeNs starts[] = {0, 10, 50, 55, 70, 72, 75};
  for (size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(path.steps[i].kind, kinds[i]) << i;
    EXPECT_EQ(path.steps[i].start, starts[i]) << i;
  }
  EXPECT_EQ(path.end, 120);
  ASSERT_EQ(path.shares.size(), 3u);
  EXPECT_EQ(path.shares[0].queue, copy);
  EXPECT_EQ(path.shares[0].ns, 55);
  EXPECT_EQ(path.shares[1].queue, compute);
  EXPECT_EQ(path.shares[1].ns, 48);
  EXPECT_EQ(path.shares[2].thread, th);
  EXPECT_EQ(path.shares[2].ns, 17);
}

TEST(IdleGaps, AttributesWaitingNothingSubmittedAndSubmitted) {
  ScratchDir dir;
  TraceStore store = WriteTraceA(dir / "a.db");
  Reconstruction r = Reconstruct(store);
  IdleGaps gaps = AttributeIdleGaps(store, r);
  ASSERT_EQ(gaps.per_queue.size(), 3u);
  auto ns = [&](size_t q, GapCause c) { return gaps.per_queue[q].by_cause[static_cast<int>(c)]; };
  // copy gaps [0,10] and [50,120]: packet 1 was submitted at 0, so [0,10] is
  // submitted_not_running (10); nothing more was submitted after 50 -> nothing_submitted 70.
  EXPECT_EQ(ns(0, GapCause::kSubmittedNotRunning), 10);
  EXPECT_EQ(ns(0, GapCause::kNothingSubmitted), 70);
  EXPECT_EQ(ns(0, GapCause::kWaitingOnFence), 0);
  // 3d gaps [0,60] and [100,120]: the wait holds [5,60] = 55 (fence f from copy); [0,5] comes
  // before packet 2's submission at 8 -> nothing_submitted 5; [100,120] nothing_submitted 20.
  EXPECT_EQ(ns(1, GapCause::kWaitingOnFence), 55);
  EXPECT_EQ(ns(1, GapCause::kNothingSubmitted), 25);
  EXPECT_EQ(ns(1, GapCause::kSubmittedNotRunning), 0);
  ASSERT_EQ(gaps.per_queue[1].per_fence.size(), 1u);
  EXPECT_EQ(gaps.per_queue[1].per_fence[0].signalling, 1u);
  EXPECT_EQ(gaps.per_queue[1].per_fence[0].ns, 55);
}

TEST(IdleGaps, PreemptedGapBeforeAResumedSegment) {
  // q: packet 1 submitted 0, runs [10,20], preempted, resumed at 30, completes 70; span [0,100].
  // gaps: [0,10] submitted_not_running 10; [20,30] preempted 10; [70,100] nothing_submitted 30.
  ScratchDir dir;
  HandTrace t(dir / "p.db");
  QueueId q = t.Queue("q");
  t.PreemptedPacket(q, 1, 0, 10, 20, 30, 70);
  TraceStore store = t.Finish(0, 100);
  IdleGaps gaps = AttributeIdleGaps(store, Reconstruct(store));
  const auto& c = gaps.per_queue[0].by_cause;
  EXPECT_EQ(c[static_cast<int>(GapCause::kSubmittedNotRunning)], 10);
  EXPECT_EQ(c[static_cast<int>(GapCause::kPreempted)], 10);
  EXPECT_EQ(c[static_cast<int>(GapCause::kNothingSubmitted)], 30);
}

TEST(WaitFindings, DetectsACycleAndANeverSignalledWait) {
  // A (q1) waits f1>=1, then has f2=1 queued behind it; B (q2) waits f2>=1, then has f1=1
  // queued behind it: A needs B's signal, B needs A's -> one cycle A -> B -> A.
  // C (q3) waits f2>=5: no signal of f2 reaching 5 was ever queued -> never signalled.
  ScratchDir dir;
  HandTrace t(dir / "c.db");
  QueueId a = t.Queue("A");
  QueueId b = t.Queue("B");
  QueueId c = t.Queue("C");
  FenceId f1 = t.Fence("f1");
  FenceId f2 = t.Fence("f2");
  t.Wait(a, 0, f1, 1, 1, 10, -1);
  t.Signal(a, 0, f2, 1, 11, 11, -1);
  t.Wait(b, 0, f2, 1, 2, 12, -1);
  t.Signal(b, 0, f1, 1, 12, 13, -1);
  t.Wait(c, 0, f2, 5, 3, 14, -1);
  t.Append(events::WaitPendingAtEnd{
      .ts_ns = 100, .queue_id = a, .fence_id = f1, .fence_value = 1, .wait_id = 1});
  t.Append(events::WaitPendingAtEnd{
      .ts_ns = 100, .queue_id = b, .fence_id = f2, .fence_value = 1, .wait_id = 2});
  t.Append(events::WaitPendingAtEnd{
      .ts_ns = 100, .queue_id = c, .fence_id = f2, .fence_value = 5, .wait_id = 3});
  TraceStore store = t.Finish(0, 100);
  WaitFindings findings = FindWaitProblems(Reconstruct(store));
  ASSERT_EQ(findings.never_unblocked.size(), 3u);
  for (const PendingWait& p : findings.never_unblocked) EXPECT_TRUE(p.recorded_pending);
  EXPECT_EQ(findings.never_unblocked[0].signal_queued_on, b);
  EXPECT_EQ(findings.never_unblocked[1].signal_queued_on, a);
  EXPECT_EQ(findings.never_unblocked[2].signal_queued_on, 0u);
  ASSERT_EQ(findings.cycles.size(), 1u);
  const WaitCycle& cycle = findings.cycles[0];
  ASSERT_EQ(cycle.steps.size(), 2u);
  EXPECT_EQ(cycle.steps[0].queue, a);
  EXPECT_EQ(cycle.steps[0].fence, f1);
  EXPECT_EQ(cycle.steps[0].value, 1u);
  EXPECT_EQ(cycle.steps[0].signaller, b);
  EXPECT_EQ(cycle.steps[1].queue, b);
  EXPECT_EQ(cycle.steps[1].fence, f2);
  EXPECT_EQ(cycle.steps[1].signaller, a);
}

TEST(ResourceHazards, UnfencedReadOfWrittenBytesOnlyIsAHazard) {
  // copy (q1) packet 1 [0,10] writes R[0,100), then signals f=1 at 10.
  // 3d (q2) waits f>=1 (unblocked 12), packet 2 [12,20] reads R[0,50): fenced, no hazard;
  //   packet 5 [25,35] writes R[0,10): fenced after the copy write, no hazard.
  // compute (q3) packet 3 [5,15] reads R[50,60): overlaps the copy write with no fence ->
  //   the one hazard (write_read, bytes [50,60)); packet 4 [30,40] reads R[200,300): no overlap.
  ScratchDir dir;
  HandTrace t(dir / "h.db");
  QueueId copy = t.Queue("copy", QueueType::kCopy);
  QueueId gfx = t.Queue("3d");
  QueueId compute = t.Queue("compute", QueueType::kCompute);
  FenceId f = t.Fence("f");
  ResourceId res = t.writer().AddResource({"R", 1024});
  t.Packet(copy, 0, 1, 0, 0, 10);
  t.Access(copy, 1, res, 1, 0, 100, true);
  t.Signal(copy, 0, f, 1, 50, 0, 10);
  t.Wait(gfx, 0, f, 1, 60, 0, 12);
  t.Packet(gfx, 0, 2, 0, 12, 20);
  t.Access(gfx, 2, res, 13, 0, 50, false);
  t.Packet(gfx, 0, 5, 0, 25, 35);
  t.Access(gfx, 5, res, 26, 0, 10, true);
  t.Packet(compute, 0, 3, 0, 5, 15);
  t.Access(compute, 3, res, 6, 50, 10, false);
  t.Packet(compute, 0, 4, 0, 30, 40);
  t.Access(compute, 4, res, 31, 200, 100, false);
  TraceStore store = t.Finish(0, 50);
  Reconstruction r = Reconstruct(store);
  HazardAnalysis h = FindResourceHazards(store, r);
  EXPECT_EQ(h.accesses, 5u);
  ASSERT_EQ(h.hazards, 1u);
  ASSERT_EQ(h.list.size(), 1u);
  EXPECT_EQ(h.list[0].kind, HazardKind::kWriteRead);
  EXPECT_EQ(h.list[0].first_queue, copy);
  EXPECT_EQ(h.list[0].second_queue, compute);
  EXPECT_EQ(h.list[0].offset, 50);
  EXPECT_EQ(h.list[0].length, 10);
}

TEST(Interrupts, SpuriousRatioAndPerSignal) {
  // Two interrupts for one executed GPU signal; the second releases nobody.
  // total 2, spurious 1, ratio 0.5, per_signal 2; both optimized (flag 16).
  ScratchDir dir;
  HandTrace t(dir / "i.db");
  QueueId q = t.Queue("q");
  ThreadId th = t.Thread("main");
  FenceId f = t.Fence("f");
  t.CpuWaitReleasedByInterruptThenSpurious(q, th, f);
  TraceStore store = t.Finish(0, 100);
  InterruptAnalysis a = ComputeInterrupts(Reconstruct(store), 10);
  EXPECT_EQ(a.total, 2u);
  EXPECT_EQ(a.spurious, 1u);
  EXPECT_EQ(a.with_waiters_released, 1u);
  EXPECT_DOUBLE_EQ(a.spurious_ratio, 0.5);
  EXPECT_DOUBLE_EQ(a.per_signal, 2.0);
  EXPECT_EQ(a.optimized, 2u);
  // bins of 10 ns: both interrupts (31, 36) fall in bin 3 -> 2 per 10 ns = 2e8 per second
  ASSERT_EQ(a.count.size(), 10u);
  EXPECT_EQ(a.count[3], 2u);
  EXPECT_DOUBLE_EQ(a.rate_per_s[3], 2e8);
}

TEST(PgoSeries, OnePointPerPass) {
  // mode_changed at 0 (FMD 1), 100 (FMD 1), 200 (FMD 0); span [0,300].
  // pass 0: tasks queued 10, 20, finished 50, 60; packet [30,70] instrumented -> mean 40
  // pass 1: task queued 110 finished 150; packet [120,150] -> mean 30
  // pass 2: packets [210,230], [240,260] with variants -> mean 20, FMD false
  ScratchDir dir;
  HandTrace t(dir / "g.db");
  QueueId q = t.Queue("q");
  ThreadId app = t.Thread("app");
  ThreadId bg = t.Thread("bg", ThreadKind::kRuntimeBackground);
  t.Append(events::ModeChanged{.ts_ns = 0,
                               .thread_id = app,
                               .call_id = 1,
                               .mode = static_cast<BackgroundMode>(1),
                               .further_measurements_desired = 1});
  t.Append(
      events::TaskQueued{.ts_ns = 10, .thread_id = app, .task_id = 1, .pso_id = 1, .variant = 1});
  t.Append(
      events::TaskQueued{.ts_ns = 20, .thread_id = app, .task_id = 2, .pso_id = 1, .variant = 2});
  t.Append(events::TaskStarted{.ts_ns = 21, .thread_id = bg, .task_id = 1});
  t.Packet(q, app, 1, 25, 30, 70, kPacketInstrumented);
  t.Append(events::TaskFinished{.ts_ns = 50, .thread_id = bg, .task_id = 1});
  t.Append(events::TaskStarted{.ts_ns = 51, .thread_id = bg, .task_id = 2});
  t.Append(events::TaskFinished{.ts_ns = 60, .thread_id = bg, .task_id = 2});
  t.Append(events::ModeChanged{.ts_ns = 100,
                               .thread_id = app,
                               .call_id = 2,
                               .mode = static_cast<BackgroundMode>(1),
                               .action = static_cast<MeasurementsAction>(1),
                               .further_measurements_desired = 1});
  t.Append(
      events::TaskQueued{.ts_ns = 110, .thread_id = app, .task_id = 3, .pso_id = 1, .variant = 3});
  t.Packet(q, app, 2, 115, 120, 150);
  t.Append(events::TaskStarted{.ts_ns = 111, .thread_id = bg, .task_id = 3});
  t.Append(events::TaskFinished{.ts_ns = 150, .thread_id = bg, .task_id = 3});
  t.Append(events::ModeChanged{
      .ts_ns = 200, .thread_id = app, .call_id = 3, .action = static_cast<MeasurementsAction>(1)});
  t.Packet(q, app, 3, 205, 210, 230, kPacketUsesVariant);
  t.Packet(q, app, 4, 235, 240, 260, kPacketUsesVariant);
  TraceStore store = t.Finish(0, 300);
  Reconstruction r = Reconstruct(store);
  ASSERT_EQ(r.threads[bg].tasks.size(), 3u);
  PgoSeries s = ComputePgoSeries(store, r);
  ASSERT_EQ(s.passes.size(), 3u);
  EXPECT_EQ(s.passes[0].tasks_queued, 2u);
  EXPECT_EQ(s.passes[0].tasks_finished, 2u);
  EXPECT_EQ(s.passes[0].instrumented_packets, 1u);
  EXPECT_DOUBLE_EQ(s.passes[0].mean_packet_ns, 40);
  EXPECT_TRUE(s.passes[0].further_measurements_desired);
  EXPECT_EQ(s.passes[1].tasks_queued, 1u);
  EXPECT_DOUBLE_EQ(s.passes[1].mean_packet_ns, 30);
  EXPECT_EQ(s.passes[2].packets, 2u);
  EXPECT_EQ(s.passes[2].variant_packets, 2u);
  EXPECT_DOUBLE_EQ(s.passes[2].mean_packet_ns, 20);
  EXPECT_FALSE(s.passes[2].further_measurements_desired);
  EXPECT_EQ(s.passes[2].end, 300);
  // converged at the third call (FMD false at 200): 3 passes, 200 ns after the first call;
  // packet time 40 in the first pass, 20 in the last; tasks never overlapped.
  BackgroundStats b = ComputeBackgroundStats(store, r, s);
  EXPECT_EQ(b.tasks_queued, 3u);
  EXPECT_EQ(b.tasks_finished, 3u);
  EXPECT_EQ(b.max_concurrent, 1u);
  EXPECT_TRUE(b.converged);
  EXPECT_EQ(b.passes_to_converge, 3u);
  EXPECT_EQ(b.time_to_converge_ns, 200);
  EXPECT_EQ(b.packet_time_first_pass_ns, 40);
  EXPECT_EQ(b.packet_time_last_pass_ns, 20);
}

TEST(CriticalPath, FromAChosenTime) {
  // trace A walked back from 80: 3d is running packet 2 at 80 -> run [60,80], then as from the
  // end: gpu_wait [50,60], run copy [10,50], submit [0,10]. Length 80.
  ScratchDir dir;
  TraceStore store = WriteTraceA(dir / "a.db");
  CriticalPath path = ComputeCriticalPath(Reconstruct(store), 80);
  EXPECT_EQ(path.end, 80);
  EXPECT_EQ(path.start, 0);
  ASSERT_EQ(path.steps.size(), 4u);
  EXPECT_EQ(path.steps[3].kind, PathStepKind::kRun);
  EXPECT_EQ(path.steps[3].start, 60);
  EXPECT_EQ(path.steps[3].end, 80);
  // from 30: copy is running (clipped to 30) and compute ends at 30; on a tie the lower queue
  // id (copy) is kept -> run copy [10,30], submit [0,10].
  CriticalPath early = ComputeCriticalPath(Reconstruct(store), 30);
  EXPECT_EQ(early.end, 30);
  ASSERT_EQ(early.steps.size(), 2u);
  EXPECT_EQ(early.steps[1].queue, 1u);
  EXPECT_EQ(early.steps[1].start, 10);
  EXPECT_EQ(early.steps[0].kind, PathStepKind::kSubmit);
}

TEST(CriticalPath, WithoutSubmittingThreadsFollowsTheQueue) {
  // An import: packets submitted when they start, no thread. q runs [0,10] and [20,30].
  // Back from 30: run [20,30]; its submission (20) came after the previous end (10) but names no
  // thread, so the path stays on q: gap [10,20], run [0,10]; nothing before. Length 30.
  ScratchDir dir;
  HandTrace t(dir / "i.db");
  QueueId q = t.Queue("stream");
  t.Packet(q, 0, 1, 0, 0, 10);
  t.Packet(q, 0, 2, 20, 20, 30);
  TraceStore store = t.Finish(0, 30);
  CriticalPath path = ComputeCriticalPath(Reconstruct(store));
  ASSERT_EQ(path.steps.size(), 3u);
  EXPECT_EQ(path.steps[0].kind, PathStepKind::kRun);
  EXPECT_EQ(path.steps[1].kind, PathStepKind::kQueueGap);
  EXPECT_EQ(path.steps[1].start, 10);
  EXPECT_EQ(path.steps[1].end, 20);
  EXPECT_EQ(path.steps[2].kind, PathStepKind::kRun);
  EXPECT_EQ(path.Length(), 30);
}

TEST(PgoSeries, SplitAtAppliedVariantsWithoutModeChanges) {
  // No mode_changed; a task queued at 10; variants applied at 100 and 200; span [0,300].
  // passes [0,100) [100,200) [200,300]: instrumented packet [20,60] -> 40; variant packet
  // [120,150] -> 30; variant packet [220,240] -> 20; a plain packet [250,290] counts in
  // mean_packet_ns of pass 2 ((20 + 40) / 2 = 30) but not in its PGO mean (20).
  ScratchDir dir;
  HandTrace t(dir / "v.db");
  QueueId q = t.Queue("q");
  ThreadId app = t.Thread("app");
  ThreadId bg = t.Thread("bg", ThreadKind::kRuntimeBackground);
  t.Append(
      events::TaskQueued{.ts_ns = 10, .thread_id = app, .task_id = 1, .pso_id = 1, .variant = 1});
  t.Packet(q, app, 1, 15, 20, 60, kPacketInstrumented);
  t.Append(events::TaskStarted{.ts_ns = 70, .thread_id = bg, .task_id = 1});
  t.Append(events::TaskFinished{.ts_ns = 99, .thread_id = bg, .task_id = 1});
  t.Append(events::VariantApplied{
      .ts_ns = 100, .pso_id = 1, .variant = 1, .speedup_permille = 850, .task_id = 1});
  t.Packet(q, app, 2, 115, 120, 150, kPacketUsesVariant);
  t.Append(events::VariantApplied{
      .ts_ns = 200, .pso_id = 1, .variant = 2, .speedup_permille = 850, .task_id = 1});
  t.Packet(q, app, 3, 215, 220, 240, kPacketUsesVariant);
  t.Packet(q, app, 4, 245, 250, 290);
  TraceStore store = t.Finish(0, 300);
  PgoSeries s = ComputePgoSeries(store, Reconstruct(store));
  EXPECT_EQ(s.boundary, PgoBoundary::kVariantApplied);
  ASSERT_EQ(s.passes.size(), 3u);
  EXPECT_EQ(s.passes[0].tasks_queued, 1u);
  EXPECT_EQ(s.passes[0].tasks_finished, 1u);
  EXPECT_DOUBLE_EQ(s.passes[0].mean_pgo_packet_ns, 40);
  EXPECT_EQ(s.passes[1].variants_applied, 1u);
  EXPECT_DOUBLE_EQ(s.passes[1].mean_pgo_packet_ns, 30);
  EXPECT_DOUBLE_EQ(s.passes[2].mean_pgo_packet_ns, 20);
  EXPECT_DOUBLE_EQ(s.passes[2].mean_packet_ns, 30);
  EXPECT_EQ(s.passes[2].pgo_packets, 1u);
  // No SetBackgroundProcessingMode call: FurtherMeasurementsDesired is unknown, so nothing is
  // said about convergence; the three variant-split passes still count, and the packet time
  // falls from 40 (first pass) to 20 (last pass) on the packets PGO works on.
  Reconstruction r = Reconstruct(store);
  BackgroundStats b = ComputeBackgroundStats(store, r, ComputePgoSeries(store, r));
  EXPECT_FALSE(b.converged);
  EXPECT_EQ(b.passes_to_converge, 0u);
  EXPECT_EQ(b.passes, 3u);
  EXPECT_EQ(b.packet_time_first_pass_ns, 40);
  EXPECT_EQ(b.packet_time_last_pass_ns, 20);
}

TEST(IdleGaps, SubmittedWhileTheEngineRanAnotherQueue) {
  // Two queues on one engine: "low" runs [0,50]; "high" has a packet submitted at 10 that only
  // starts at 50 -> high's gap [0,50]: nothing_submitted [0,10], submitted_not_running [10,50],
  // all 40 ns of it with the engine busy with "low".
  ScratchDir dir;
  HandTrace t(dir / "e.db");
  QueueId low = t.Queue("low", QueueType::kCompute);
  const EngineId engine_of_low = 1;  // HandTrace::Queue made engine 1 for "low"
  QueueId high = t.writer().AddQueue({engine_of_low, 1, QueueType::kCompute, 1, 1, "high", 1});
  t.Packet(low, 0, 1, 0, 0, 50);
  t.Packet(high, 0, 2, 10, 50, 70);
  TraceStore store = t.Finish(0, 70);
  IdleGaps gaps = AttributeIdleGaps(store, Reconstruct(store));
  const QueueGaps& h = gaps.per_queue[high - 1];
  EXPECT_EQ(h.by_cause[static_cast<int>(GapCause::kNothingSubmitted)], 10);
  EXPECT_EQ(h.by_cause[static_cast<int>(GapCause::kSubmittedNotRunning)], 40);
  EXPECT_EQ(h.engine_busy_ns, 40);
  bool named = false;
  for (const GapPiece& p : gaps.pieces) {
    if (p.queue == high && p.cause == GapCause::kSubmittedNotRunning) {
      EXPECT_EQ(p.engine_busy_with, low);
      named = true;
    }
  }
  EXPECT_TRUE(named);
}
