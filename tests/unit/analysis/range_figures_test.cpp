// Figures asked for a time range (the reports ask for the trace span, the window for a selected
// range): packet counts that say what they count, the queue time split, the wait latency with
// signal executed -> unblocked split where the waiter reached the wait, the interrupt peak rate,
// and the PGO mode in force after a refused call. Every expected number is worked out by hand
// from the records written next to it (and the latency a second way, by SQL over the trace).
#include <gtest/gtest.h>

#include <algorithm>

#include "core/analysis/interrupt_analysis.h"
#include "core/analysis/packet_counts.h"
#include "core/analysis/pgo_series.h"
#include "core/analysis/queue_time.h"
#include "core/analysis/wait_latency.h"
#include "core/store/query.h"
#include "tests/support/hand_trace.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

using namespace core::analysis;
using core::store::TraceStore;
using hand_trace::HandTrace;
using test_support::ScratchDir;

// WriteNamedPacketTrace, queue gfx (hand_trace.h):
//   packets 1-4 submitted at 0, run [0,10] [10,30] [30,35] [40,70]
//   5 submitted 79, runs [80,86], preempted, resumes [96,100], completes 100
//   6 submitted 85, runs [86,96];  7 submitted 100, runs [110,150]
//   8 submitted 185, starts 190, still running at the end (200);  9 submitted 195, never starts
//   whole trace [0,200]: submitted 9, started 8 (1-8), completed 7 (1-7), running at end 1 (8)
//   range [0,90]: submitted 6 (1-6), started 6 (1-6), completed 4 (1-4), running at 90: 6 only
//                 (5 was preempted at 86)
//   range [90,180]: submitted 1 (7), started 1 (7), completed 3 (6 at 96, 5 at 100, 7 at 150),
//                   running at 180: none
TEST(PacketCounts, SayWhatTheyCountOverTheTraceAndARange) {
  ScratchDir dir;
  TraceStore store = hand_trace::WriteNamedPacketTrace(dir / "p.db");
  Reconstruction r = Reconstruct(store);
  const QueueId gfx = 1;
  PacketCounts all = CountPackets(r, gfx, TraceSpan(r));
  EXPECT_EQ(all.submitted, 9u);
  EXPECT_EQ(all.started, 8u);
  EXPECT_EQ(all.completed, 7u);
  EXPECT_EQ(all.running_at_end, 1u);
  PacketCounts early = CountPackets(r, gfx, {0, 90});
  EXPECT_EQ(early.submitted, 6u);
  EXPECT_EQ(early.started, 6u);
  EXPECT_EQ(early.completed, 4u);
  EXPECT_EQ(early.running_at_end, 1u);
  PacketCounts middle = CountPackets(r, gfx, {90, 180});
  EXPECT_EQ(middle.submitted, 1u);
  EXPECT_EQ(middle.started, 1u);
  EXPECT_EQ(middle.completed, 3u);
  EXPECT_EQ(middle.running_at_end, 0u);
  // The queue time split carries the same counts, and `packets` is the submitted count.
  QueueTimeSplit split = ComputeQueueTime(store, r);
  EXPECT_EQ(split.queues[0].packets, 9u);
  EXPECT_EQ(split.queues[0].counts.completed, 7u);
  EXPECT_EQ(ComputeQueueTime(store, r, {0, 90}).queues[0].counts.completed, 4u);
}

// Trace A (hand_trace.h) over [0, 55]: 3d's wait [5,60] holds it [5,55) = 50, nothing runs on
// 3d before 60, idle 55 - 50 = 5, no wait unblocked yet (60); copy runs [10,50] = 40, idle 15,
// and its signal executed at 50 is in the range.
TEST(QueueTime, ARangeIsAParameterOfTheSameSplit) {
  ScratchDir dir;
  TraceStore store = hand_trace::WriteTraceA(dir / "a.db");
  Reconstruction r = Reconstruct(store);
  QueueTimeSplit split = ComputeQueueTime(store, r, {0, 55});
  ASSERT_EQ(split.queues.size(), 3u);
  EXPECT_EQ(split.span_ns, 55);
  EXPECT_EQ(split.queues[0].busy_ns, 40);
  EXPECT_EQ(split.queues[0].idle_ns, 15);
  EXPECT_EQ(split.queues[0].signals_executed, 1u);
  EXPECT_EQ(split.queues[1].busy_ns, 0);
  EXPECT_EQ(split.queues[1].waiting_ns, 50);
  EXPECT_EQ(split.queues[1].idle_ns, 5);
  EXPECT_EQ(split.queues[1].waits_unblocked, 0u);
  EXPECT_EQ(ComputeQueueTime(store, r).queues[1].waits_unblocked, 1u);
}

namespace {

// Trace L, span [0, 800], fence F; queue B signals F = 1 (executed 250), 2 (500), 3 (650).
//   A  packet 1 runs [100,400]; wait W1 F>=1 queued 300 (after the signal executed), the GPU
//      reached it at 400 (observed), unblocked 400
//      packet 2 submitted 410 runs [450,600]; wait W2 F>=2 queued 420, no observed time,
//      unblocked 610: reached when packet 2 ended, 600
//   thread main: CPU wait F>=3 begins 700, released 720
//   W1  to_signal 0, to_unblock 400-250 = 150 = 150 before reached + 0 after, total 100
//   W2  to_signal 80, to_unblock 610-500 = 110 = 100 before (600-500) + 10 after, total 190
//   CPU to_signal 0, to_unblock 720-650 = 70 = 50 before (700-650) + 20 after
TraceStore WriteTraceL(const std::filesystem::path& path) {
  using core::model::EventKind;
  HandTrace t(path);
  QueueId a = t.Queue("A");
  QueueId b = t.Queue("B", core::model::QueueType::kCompute);
  ThreadId th = t.Thread("main");
  FenceId f = t.Fence("F");
  t.Packet(a, th, 1, 0, 100, 400);
  t.Signal(b, th, f, 1, 11, 10, 250);
  t.Wait(a, th, f, 1, 21, 300, 400, 11, /*observed=*/400);
  t.Packet(a, th, 2, 410, 450, 600);
  t.Signal(b, th, f, 2, 12, 420, 500);
  t.Wait(a, th, f, 2, 22, 420, 610, 12);
  t.Signal(b, th, f, 3, 13, 600, 650);
  t.CpuWait(th, f, 3, 31, 700, 720);
  return t.Finish(0, 800);
}

}  // namespace

TEST(WaitLatency, SignalExecutedToUnblockedSplitWhereTheWaiterReachedTheWait) {
  ScratchDir dir;
  const auto path = dir / "l.db";
  TraceStore store = WriteTraceL(path);
  Reconstruction r = Reconstruct(store);
  WaitLatency l = ComputeWaitLatency(r);
  EXPECT_EQ(l.gpu.to_unblock.count, 2u);
  EXPECT_EQ(l.gpu.to_unblock.p50, 110);  // nearest rank of {110, 150}
  EXPECT_EQ(l.gpu.to_unblock.max, 150);
  EXPECT_EQ(l.gpu.before_reached.p50, 100);
  EXPECT_EQ(l.gpu.before_reached.max, 150);
  EXPECT_EQ(l.gpu.after_reached.p50, 0);
  EXPECT_EQ(l.gpu.after_reached.max, 10);
  EXPECT_EQ(l.gpu.to_signal.p50, 0);
  EXPECT_EQ(l.gpu.to_signal.max, 80);
  EXPECT_EQ(l.gpu.total.max, 190);
  EXPECT_EQ(l.cpu.to_unblock.max, 70);
  EXPECT_EQ(l.cpu.before_reached.max, 50);
  EXPECT_EQ(l.cpu.after_reached.max, 20);
  // Second way: to_unblock is fence_wait_unblocked.ts_ns - fence_signal_executed.ts_ns joined on
  // released_by_signal_id.
  EXPECT_EQ(test_support::RowsText(path,
                                    "SELECT u.ts_ns - s.ts_ns FROM fence_wait_unblocked u JOIN "
                                    "fence_signal_executed s ON s.signal_id = "
                                    "u.released_by_signal_id ORDER BY 1"),
            std::to_string(l.gpu.to_unblock.p50) + "\n" + std::to_string(l.gpu.to_unblock.max) +
                "\n");
  // A range keeps the waits unblocked inside it: [0, 500] holds W1 only.
  WaitLatency early = ComputeWaitLatency(r, {0, 500});
  EXPECT_EQ(early.gpu.to_unblock.count, 1u);
  EXPECT_EQ(early.gpu.to_unblock.p50, 150);
  EXPECT_EQ(early.cpu.to_unblock.count, 0u);
}

// Interrupts on adapter 1 at 0, 0.5, 0.9 and 2.0 ms, on adapter 2 at 0.2 ms; span [0, 3 ms].
//   adapter 1: the window [0, 1 ms) holds 3 -> peak 3 per ms; every adapter: [0, 1 ms) holds 4
//   range [1 ms, 3 ms]: only the window from 2.0 ms begins inside it -> peak 1
TEST(Interrupts, PeakRateIsTheMostInAnyMillisecond) {
  using core::model::EventKind;
  ScratchDir dir;
  HandTrace t(dir / "i.db");
  QueueId q = t.Queue("q");
  AdapterId second = t.writer().AddAdapter({"GPU 2", 2, true, true,
                                            core::model::PreemptionGranularity::kPixel,
                                            core::model::PreemptionGranularity::kDispatch});
  for (TimeNs ts : {0, 500'000, 900'000, 2'000'000}) {
    t.Append(events::Interrupt{.ts_ns = ts, .queue_id = q, .adapter_id = 1});
  }
  t.Append(events::Interrupt{.ts_ns = 200'000,
                             .adapter_id = static_cast<core::model::AdapterId>(second)});
  TraceStore store = t.Finish(0, 3'000'000);
  Reconstruction r = Reconstruct(store);
  EXPECT_EQ(PeakInterruptsPerMs(r, 1, TraceSpan(r)), 3u);
  EXPECT_EQ(PeakInterruptsPerMs(r, second, TraceSpan(r)), 1u);
  EXPECT_EQ(PeakInterruptsPerMs(r, 0, TraceSpan(r)), 4u);
  EXPECT_EQ(PeakInterruptsPerMs(r, 1, {1'000'000, 3'000'000}), 1u);
  InterruptAnalysis x = ComputeInterrupts(r);
  EXPECT_EQ(x.peak_per_ms, 4u);
  ASSERT_EQ(x.per_adapter.size(), 2u);
  EXPECT_EQ(x.per_adapter[0].total, 4u);
  EXPECT_EQ(x.per_adapter[0].peak_per_ms, 3u);
  EXPECT_DOUBLE_EQ(x.per_adapter[0].mean_per_ms, 4.0 / 3.0);
}

// Calls at 0 (allow_intrusive_measurements, accepted), 100 (disable_background_work, refused)
// and 200 (allowed, accepted): the mode in force is allow_intrusive_measurements in passes 0
// and 1 (the refused call changes nothing), allowed in pass 2.
TEST(PgoSeries, ARefusedCallLeavesThePreviousModeInForce) {
  using core::model::EventKind;
  ScratchDir dir;
  HandTrace t(dir / "m.db");
  ThreadId app = t.Thread("app");
  t.Append(events::ModeChanged{.ts_ns = 0,
                               .thread_id = app,
                               .call_id = 1,
                               .mode = static_cast<BackgroundMode>(1),
                               .further_measurements_desired = 1});
  t.Append(events::ModeChanged{.ts_ns = 100,
                               .thread_id = app,
                               .call_id = 2,
                               .result = 1,
                               .mode = static_cast<BackgroundMode>(2),
                               .further_measurements_desired = 1});
  t.Append(events::ModeChanged{.ts_ns = 200, .thread_id = app, .call_id = 3});
  TraceStore store = t.Finish(0, 300);
  PgoSeries s = ComputePgoSeries(store, Reconstruct(store));
  ASSERT_EQ(s.passes.size(), 3u);
  EXPECT_EQ(s.passes[0].mode, BackgroundMode::kAllowIntrusiveMeasurements);
  EXPECT_TRUE(s.passes[1].refused);
  EXPECT_EQ(s.passes[1].mode, BackgroundMode::kAllowIntrusiveMeasurements);
  EXPECT_EQ(s.passes[1].requested_mode, BackgroundMode::kDisableBackgroundWork);
  EXPECT_EQ(ModeInForceText(s.passes[1]),
            "allow_intrusive_measurements (refused disable_background_work)");
  EXPECT_EQ(s.passes[2].mode, BackgroundMode::kAllowed);
  EXPECT_EQ(FurtherMeasurementsDesiredName(s.passes[2]), "no");
  EXPECT_EQ(FurtherMeasurementsDesiredName(s.passes[0]), "yes");
}
