// The launch figures on trace C of hand_trace.h (a CUDA trace the way the Kineto importer writes
// one): launch calls, the idle time split and gap classes, launch delays and queue lengths.
// Every expected number is worked out by hand from the trace's comment, in µs.
#include <gtest/gtest.h>

#include "core/analysis/idle_gaps.h"
#include "core/analysis/launch_calls.h"
#include "core/analysis/launch_delay.h"
#include "core/analysis/queue_length.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

using namespace core::analysis;
using core::store::TraceStore;
using hand_trace::kUs;
using test_support::ScratchDir;

namespace {

struct CudaTrace {
  ScratchDir dir;
  TraceStore store = hand_trace::WriteCudaTrace(dir / "cuda.db");
  Reconstruction r = Reconstruct(store);
  LaunchCalls launches = FindLaunchCalls(store, r);
};

uint32_t PacketById(const Reconstruction& r, int64_t id) {
  for (uint32_t p = 0; p < r.packets.size(); ++p) {
    if (r.packets[p].packet_id == id) return p;
  }
  return kNoIndex;
}

DurationNs Cause(const QueueGaps& g, GapCause c) { return g.by_cause[static_cast<size_t>(c)]; }

}  // namespace

TEST(LaunchCalls, EveryFlowGivesItsPacketTheCall) {
  CudaTrace t;
  // nine packets, eight with an ac2g flow (K5 has none)
  EXPECT_EQ(t.launches.flows, 8u);
  EXPECT_EQ(t.launches.packets_linked, 8u);
  EXPECT_EQ(t.launches.flows_unmatched, 0u);
  const LaunchCall* k3 = t.launches.Of(PacketById(t.r, 3));
  ASSERT_NE(k3, nullptr);
  EXPECT_EQ(k3->start, 90 * kUs);
  EXPECT_EQ(k3->end, 96 * kUs);
  EXPECT_EQ(t.store.String(k3->name), "cudaLaunchKernel");
  EXPECT_EQ(t.launches.Of(PacketById(t.r, 5)), nullptr);
}

TEST(LaunchCalls, TraceWithoutLaunchFlowsHasNone) {
  ScratchDir dir;
  TraceStore store = hand_trace::WriteTraceA(dir / "a.db");
  LaunchCalls launches = FindLaunchCalls(store, Reconstruct(store));
  EXPECT_FALSE(launches.any());
  EXPECT_EQ(launches.flows, 0u);
}

TEST(IdleGaps, LaunchBoundSynchronisedAndSubmittedOnCudaStreams) {
  CudaTrace t;
  IdleGaps gaps = AttributeIdleGaps(t.store, t.r, t.launches);
  ASSERT_EQ(gaps.per_queue.size(), 3u);
  // stream A idle [0,10) [30,34) [50,100) [120,180) [190,250) [260,300) = 224:
  //   [0,5) before K1's call returned: launch_bound 5, [5,10) submitted 5;
  //   [30,34): K2's call returned at 9, submitted 4;
  //   [50,96) before K3's call returned: main blocked [60,85) synchronised 25, the rest
  //   launch_bound 10 + 11 = 21; [96,100) submitted 4;
  //   [120,180) held by the wait on E: waiting_on_fence 60;
  //   [190,250) K5 has no launch call: submit record at 250, nothing_submitted 60;
  //   [260,300) after the last packet: nothing_submitted 40.
  const QueueGaps& a = gaps.per_queue[0];
  EXPECT_EQ(Cause(a, GapCause::kLaunchBound), 26 * kUs);
  EXPECT_EQ(Cause(a, GapCause::kSynchronised), 25 * kUs);
  EXPECT_EQ(Cause(a, GapCause::kSubmittedNotRunning), 13 * kUs);
  EXPECT_EQ(Cause(a, GapCause::kWaitingOnFence), 60 * kUs);
  EXPECT_EQ(Cause(a, GapCause::kNothingSubmitted), 100 * kUs);
  EXPECT_EQ(Cause(a, GapCause::kPreempted), 0);
  ASSERT_EQ(a.per_fence.size(), 1u);
  EXPECT_EQ(a.per_fence[0].signalling, 2u);
  EXPECT_EQ(a.per_fence[0].ns, 60 * kUs);
  ASSERT_EQ(a.per_sync.size(), 1u);
  EXPECT_EQ(t.store.String(a.per_sync[0].call), "cudaDeviceSynchronize");
  EXPECT_EQ(a.per_sync[0].fence, 0u);
  EXPECT_EQ(a.per_sync[0].ns, 25 * kUs);
  // stream B idle [0,150) [180,260) [270,300) = 260:
  //   [0,22) launch_bound 22, [22,150) submitted 128;
  //   [180,260) inside cudaMemcpy (returned 275, after the copy started): main blocked
  //   [200,255) synchronised 55, launch_bound 20 + 5 = 25; [270,300) nothing_submitted 30.
  const QueueGaps& b = gaps.per_queue[1];
  EXPECT_EQ(Cause(b, GapCause::kLaunchBound), 47 * kUs);
  EXPECT_EQ(Cause(b, GapCause::kSynchronised), 55 * kUs);
  EXPECT_EQ(Cause(b, GapCause::kSubmittedNotRunning), 128 * kUs);
  EXPECT_EQ(Cause(b, GapCause::kNothingSubmitted), 30 * kUs);
  ASSERT_EQ(b.per_sync.size(), 1u);
  EXPECT_EQ(t.store.String(b.per_sync[0].call), "cudaMemcpy");
  // stream C idle [0,40) [50,100) [110,300): launch_bound [0,32) 32, submitted [32,40) 8 and
  // [50,100) 50 (C2's call returned at 37), nothing_submitted 190.
  const QueueGaps& c = gaps.per_queue[2];
  EXPECT_EQ(Cause(c, GapCause::kLaunchBound), 32 * kUs);
  EXPECT_EQ(Cause(c, GapCause::kSubmittedNotRunning), 58 * kUs);
  EXPECT_EQ(Cause(c, GapCause::kNothingSubmitted), 190 * kUs);
  EXPECT_EQ(Cause(c, GapCause::kSynchronised), 0);
}

TEST(IdleGaps, GapClassesLikeHta) {
  CudaTrace t;
  IdleGaps gaps = AttributeIdleGaps(t.store, t.r, t.launches);
  ASSERT_EQ(gaps.split.size(), 3u);
  auto ns = [](const QueueIdleSplit& s, IdleClass c) { return s.ns[static_cast<size_t>(c)]; };
  auto count = [](const QueueIdleSplit& s, IdleClass c) { return s.gaps[static_cast<size_t>(c)]; };
  auto other = [](const QueueIdleSplit& s, OtherReason why) {
    return s.other_ns[static_cast<size_t>(why)];
  };
  // stream A: [30,34) K2 launched at 6 < 30 and 4 < 30: kernel_wait; [50,100) K3 launched at
  // 90 > 50: host_wait; [120,180) K4 launched at 102 < 120, 60 >= 30, the wait on E held it:
  // other, cross_stream; [190,250) K5 has no launch call: unlinked; [0,10) + [260,300) outside.
  const QueueIdleSplit& a = gaps.split[0];
  EXPECT_EQ(ns(a, IdleClass::kKernelWait), 4 * kUs);
  EXPECT_EQ(count(a, IdleClass::kKernelWait), 1u);
  EXPECT_EQ(ns(a, IdleClass::kHostWait), 50 * kUs);
  EXPECT_EQ(count(a, IdleClass::kHostWait), 1u);
  EXPECT_EQ(ns(a, IdleClass::kOther), 60 * kUs);
  EXPECT_EQ(other(a, OtherReason::kCrossStream), 60 * kUs);
  ASSERT_EQ(a.other_on_fence.size(), 1u);
  EXPECT_EQ(a.other_on_fence[0].fence, 1u);
  EXPECT_EQ(a.other_on_fence[0].signalling, 2u);
  EXPECT_EQ(ns(a, IdleClass::kUnlinked), 60 * kUs);
  EXPECT_EQ(a.outside_ns, 50 * kUs);
  // stream B: [180,260) B2's cudaMemcpy began at 175 < 180, 80 >= 30, no GPU wait, main
  // blocked in it: other, host_sync (cudaMemcpy); [0,150) + [270,300) outside.
  const QueueIdleSplit& b = gaps.split[1];
  EXPECT_EQ(ns(b, IdleClass::kOther), 80 * kUs);
  EXPECT_EQ(other(b, OtherReason::kHostSync), 80 * kUs);
  ASSERT_EQ(b.other_on_sync.size(), 1u);
  EXPECT_EQ(t.store.String(b.other_on_sync[0].call), "cudaMemcpy");
  EXPECT_EQ(b.outside_ns, 180 * kUs);
  // stream C: [50,100) C2 launched at 35 < 50, 50 >= 30, nothing held it: other, unexplained.
  const QueueIdleSplit& c = gaps.split[2];
  EXPECT_EQ(other(c, OtherReason::kUnexplained), 50 * kUs);
  EXPECT_EQ(count(c, IdleClass::kOther), 1u);
  EXPECT_EQ(c.outside_ns, 230 * kUs);
  // Both splits cover the same idle time.
  for (size_t q = 0; q < 3; ++q) {
    DurationNs by_cause = 0, by_class = gaps.split[q].outside_ns;
    for (DurationNs v : gaps.per_queue[q].by_cause) by_cause += v;
    for (DurationNs v : gaps.split[q].ns) by_class += v;
    EXPECT_EQ(by_cause, by_class) << q;
  }
}

TEST(IdleGaps, FenceTimeSaysWhenTheReleaseLinkWasInferred) {
  // Trace C with the wait on E's releasing signal inferred by the importer: the 60 µs stream A
  // waited on E rest on that inference, in both splits.
  for (bool inferred : {false, true}) {
    ScratchDir dir;
    TraceStore store = hand_trace::WriteCudaTrace(dir / "cuda.db", inferred);
    IdleGaps gaps = AttributeIdleGaps(store, Reconstruct(store));
    ASSERT_EQ(gaps.per_queue[0].per_fence.size(), 1u);
    EXPECT_EQ(gaps.per_queue[0].per_fence[0].link_inferred_ns, inferred ? 60 * kUs : 0);
    ASSERT_EQ(gaps.split[0].other_on_fence.size(), 1u);
    EXPECT_EQ(gaps.split[0].other_on_fence[0].link_inferred_ns, inferred ? 60 * kUs : 0);
  }
}

TEST(IdleGaps, WithoutLaunchFlowsNothingIsLaunchBound) {
  // Trace A has no cpu_launch flows: the causes are those of IdleGaps.AttributesWaiting... and
  // every gap between two packets is unlinked.
  ScratchDir dir;
  TraceStore store = hand_trace::WriteTraceA(dir / "a.db");
  IdleGaps gaps = AttributeIdleGaps(store, Reconstruct(store));
  for (const QueueGaps& g : gaps.per_queue) {
    EXPECT_EQ(Cause(g, GapCause::kLaunchBound), 0);
    EXPECT_EQ(Cause(g, GapCause::kSynchronised), 0);
  }
  for (const QueueIdleSplit& s : gaps.split) {
    EXPECT_EQ(s.ns[static_cast<size_t>(IdleClass::kHostWait)], 0);
    EXPECT_EQ(s.ns[static_cast<size_t>(IdleClass::kKernelWait)], 0);
  }
}

TEST(LaunchDelay, StartMinusCallEndPerStream) {
  CudaTrace t;
  LaunchDelays delays = ComputeLaunchDelays(t.store, t.r, t.launches);
  ASSERT_EQ(delays.per_queue.size(), 3u);
  // stream A: K1 10-5 = 5, K2 34-9 = 25, K3 100-96 = 4, K4 180-104 = 76; K5 left out.
  // Sorted 4 5 25 76: p50 = 2nd = 5, p90 = p99 = 4th = 76.
  const QueueLaunchDelay& a = delays.per_queue[0];
  EXPECT_EQ(a.delay.count, 4u);
  EXPECT_EQ(a.delay.p50, 5 * kUs);
  EXPECT_EQ(a.delay.p99, 76 * kUs);
  EXPECT_EQ(a.delay.max, 76 * kUs);
  EXPECT_EQ(a.without_launch, 1u);
  EXPECT_EQ(a.negative, 0u);
  ASSERT_EQ(a.outliers.size(), 4u);
  EXPECT_EQ(a.outliers[0].delay, 76 * kUs);
  EXPECT_EQ(a.outliers[0].start, 180 * kUs);
  EXPECT_EQ(t.store.String(a.outliers[0].name), "kernel 4");
  EXPECT_EQ(a.outliers[1].delay, 25 * kUs);
  EXPECT_EQ(a.outliers[3].delay, 4 * kUs);
  // stream B: B1 150-22 = 128; B2 260-275 = -15 (the copy started before cudaMemcpy returned)
  const QueueLaunchDelay& b = delays.per_queue[1];
  EXPECT_EQ(b.delay.count, 2u);
  EXPECT_EQ(b.delay.p50, -15 * kUs);
  EXPECT_EQ(b.delay.max, 128 * kUs);
  EXPECT_EQ(b.negative, 1u);
  // stream C: C1 40-32 = 8, C2 100-37 = 63
  EXPECT_EQ(delays.per_queue[2].delay.p50, 8 * kUs);
  EXPECT_EQ(delays.per_queue[2].delay.max, 63 * kUs);
}

TEST(QueueLength, LaunchedNotStartedStepSeries) {
  CudaTrace t;
  QueueLengths lengths = ComputeQueueLengths(t.store, t.r, t.launches, 200);
  EXPECT_TRUE(lengths.from_launch_calls);
  EXPECT_EQ(lengths.bin_ns, 1500);  // 300 µs / 200 bins
  ASSERT_EQ(lengths.per_queue.size(), 3u);
  // stream A: +1 at 0, 6, 90, 102 (calls); -1 at 10, 34, 100, 180 (starts); K5 left out.
  // Lengths: [0,6) 1, [6,10) 2, [10,34) 1, [34,90) 0, [90,100) 1, [100,102) 0, [102,180) 1.
  const QueueLength& a = lengths.per_queue[0];
  const std::vector<std::pair<TimeNs, uint32_t>> expected = {
      {0, 1}, {6, 2}, {10, 1}, {34, 0}, {90, 1}, {100, 0}, {102, 1}, {180, 0}};
  ASSERT_EQ(a.steps.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(a.steps[i].ts, expected[i].first * kUs) << i;
    EXPECT_EQ(a.steps[i].length, expected[i].second) << i;
  }
  EXPECT_EQ(a.max, 2u);
  // area 6 + 2*4 + 24 + 10 + 78 = 126 µs over 300 µs
  EXPECT_DOUBLE_EQ(a.mean, 126.0 / 300.0);
  EXPECT_EQ(a.packets_counted, 4u);
  EXPECT_EQ(a.packets_left_out, 1u);
  // bin 4 = [6,7.5) µs holds length 2; bin 30 = [45,46.5) holds 0
  EXPECT_EQ(a.bin_max[4], 2u);
  EXPECT_EQ(a.bin_max[30], 0u);
  EXPECT_EQ(LengthAt(a.steps, 8 * kUs), 2u);
  // stream B: [20,150) 1, [175,260) 1: max 1, area 130 + 85 = 215
  EXPECT_EQ(lengths.per_queue[1].max, 1u);
  EXPECT_DOUBLE_EQ(lengths.per_queue[1].mean, 215.0 / 300.0);
  // stream C: [30,35) 1, [35,40) 2, [40,100) 1: max 2, area 5 + 10 + 60 = 75
  EXPECT_EQ(lengths.per_queue[2].max, 2u);
  EXPECT_DOUBLE_EQ(lengths.per_queue[2].mean, 75.0 / 300.0);
}

TEST(QueueLength, SubmittedNotStartedWithoutLaunchFlows) {
  // Trace A: copy packet 1 submitted 0, started 10; 3d packet 2 submitted 8, started 60;
  // compute packet 3 submitted 0, started 0 (no time queued). Span 120.
  ScratchDir dir;
  TraceStore store = hand_trace::WriteTraceA(dir / "a.db");
  Reconstruction r = Reconstruct(store);
  QueueLengths lengths = ComputeQueueLengths(store, r, FindLaunchCalls(store, r), 120);
  EXPECT_FALSE(lengths.from_launch_calls);
  EXPECT_EQ(lengths.per_queue[0].max, 1u);
  EXPECT_DOUBLE_EQ(lengths.per_queue[0].mean, 10.0 / 120.0);
  EXPECT_EQ(lengths.per_queue[1].max, 1u);
  EXPECT_DOUBLE_EQ(lengths.per_queue[1].mean, 52.0 / 120.0);
  EXPECT_EQ(lengths.per_queue[2].max, 0u);
  EXPECT_TRUE(lengths.per_queue[2].steps.empty());
}
