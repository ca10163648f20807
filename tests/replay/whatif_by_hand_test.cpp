// Predictions on tiny CUDA traces whose answers are worked out by hand in the comments (times in
// µs from the trace's start; host thread 100, GPU 0). The replay keeps each kernel's run time,
// the host's time between calls, each stream's launch latency (median submit -> start of the
// kernels nothing held) and resume time (median from what held a kernel to its start).
#include <gtest/gtest.h>

#include <fstream>

#include "core/replay/whatif.h"
#include "importers/import_file.h"
#include "tests/replay/replay_support.h"
#include "tests/support/kineto_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using namespace kineto_text;

class WhatIfByHand : public ::testing::Test {
 protected:
  replay_test::Loaded Import(const std::string& text) {
    const fs::path json = m_dir / "trace.json", db = m_dir / "trace.db";
    std::ofstream(json) << text;
    importers::ImportFile(json, db);
    return replay_test::Load(db);
  }
  core::replay::WhatIfResult Predict(const replay_test::Loaded& trace,
                                     const core::replay::Edits& edits) {
    return core::replay::RunWhatIf(trace.store, trace.recon, edits, m_dir / "predicted.db");
  }
  test_support::ScratchDir m_dir;
};

// Stream 7 runs K1 10..110, then K2 111..161 (launched at 4, it waited for K1: resume 1);
// stream 13 runs K3 12..42 beside them (launched at 2: launch latency 10, as K1's).
const std::string kSideKernel =
    Call(1, "cudaLaunchKernel", 0, 1) + Kernel(1, "K1", 7, 10, 100) +
    Call(2, "cudaLaunchKernel", 2, 1) + Kernel(2, "K3", 13, 12, 30) +
    Call(3, "cudaLaunchKernel", 4, 1) + Kernel(3, "K2", 7, 111, 50);

// Stream 7 runs K1 10..110; the host records an event after it (2), stream 13 waits for it (3)
// and runs K2, launched at 4, from 111 to 161: 1 µs after the record executed (K1's end).
const std::string kChained =
    Call(1, "cudaLaunchKernel", 0, 1) + Kernel(1, "K1", 7, 10, 100) +
    Call(2, "cudaEventRecord", 2, 0.5) + Call(3, "cudaStreamWaitEvent", 3, 0.5) +
    Sync(3, "Stream Wait Event", 5, 13, 3, 0.5) + Call(4, "cudaLaunchKernel", 4, 1) +
    Kernel(4, "K2", 13, 111, 50);

// K1 on stream 7 10..110; the host synchronises with stream 7 (2..112) and launches K2 on
// stream 13 at 114 (2 µs of host time after the sync returned), which runs 124..174.
const std::string kSynced =
    Call(1, "cudaLaunchKernel", 0, 1) + Kernel(1, "K1", 7, 10, 100) +
    Call(2, "cudaStreamSynchronize", 2, 110) + Sync(2, "Stream Sync", -1, 7, 2, 110) +
    Call(3, "cudaLaunchKernel", 114, 1) + Kernel(3, "K2", 13, 124, 50);

// Two ProfilerSteps whose host runs ahead of the GPU: step 1's slice 0..20 launches K1 (at 0,
// runs 10..110) and K2 (at 4, 111..161); step 2's slice 20..40 launches K3 (at 24, 162..212),
// each queued behind the kernel before it on stream 7 (resume 1). A step runs on to the end of
// the work it launched: step 1 is 0..161, step 2 from there to 212, 51.
const std::string kHostAhead = Step(1, 0, 20) + Call(1, "cudaLaunchKernel", 0, 1) +
                               Kernel(1, "K1", 7, 10, 100) + Call(2, "cudaLaunchKernel", 4, 1) +
                               Kernel(2, "K2", 7, 111, 50) + Step(2, 20, 20) +
                               Call(3, "cudaLaunchKernel", 24, 1) + Kernel(3, "K3", 7, 162, 50);

}  // namespace

TEST_F(WhatIfByHand, AStepLastsUntilTheWorkItLaunchedIsDone) {
  const replay_test::Loaded trace = Import(Trace(kHostAhead));
  core::replay::Edits edits;
  edits.scale.push_back({"K1", 0.5});
  const auto r = Predict(trace, edits);
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].id, 1);
  EXPECT_EQ(r.steps[0].before_ns, 161'000);
  EXPECT_EQ(r.steps[0].replay_ns, 161'000);
  EXPECT_EQ(r.steps[1].before_ns, 51'000);
  EXPECT_EQ(r.steps[1].replay_ns, 51'000);
  EXPECT_EQ(r.fidelity.steps_compared, 2);
  EXPECT_EQ(r.fidelity.step_error_pct_mean, 0.0);
  // K1 twice as fast: 10..60, K2 61..111, K3 112..162. Step 1 is 0..111, step 2 111..162: the
  // steps, 212 µs in all, lose 50 (the host's slices alone would have lost nothing).
  EXPECT_EQ(r.steps[0].after_ns, 111'000);
  EXPECT_EQ(r.steps[1].after_ns, 51'000);
  EXPECT_NEAR(r.step_gain_pct, 50.0 / 212.0 * 100, 1e-9);
  EXPECT_EQ(r.span_after_ns, 162'000);
}

TEST_F(WhatIfByHand, AFasterHostSavesNoStepTimeWhileTheGpuIsBehindIt) {
  const replay_test::Loaded trace = Import(Trace(kHostAhead));
  core::replay::Edits host;
  host.cpu_scale = 0.5;
  const auto r = Predict(trace, host);
  // The host twice as fast launches K3 at 12 instead of 24 and ends its slices sooner, but
  // every kernel still waits for the one before it: K1 10..110, K2 111..161, K3 162..212. The
  // steps stay 161 and 51 (their slices alone would have been halved).
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].after_ns, 161'000);
  EXPECT_EQ(r.steps[1].after_ns, 51'000);
  EXPECT_EQ(r.step_gain_pct, 0.0);
  EXPECT_EQ(r.gain_pct, 0.0);
}

TEST_F(WhatIfByHand, AKernelOffTheCriticalPathSavesNothing) {
  const replay_test::Loaded trace = Import(Trace(kSideKernel));
  core::replay::Edits edits;
  edits.scale.push_back({"K3", 0.5});
  const auto r = Predict(trace, edits);
  // The unedited replay: K1 0 + 10 .. 110, K3 2 + 10 .. 42, K2 110 + 1 .. 161: the trace.
  EXPECT_EQ(r.span_before_ns, 161'000);
  EXPECT_EQ(r.span_replay_ns, 161'000);
  EXPECT_EQ(r.fidelity.start_error_ns_max, 0);
  // K3 twice as fast ends at 27; nothing waits for it.
  EXPECT_EQ(r.counts.packets_scaled, 1u);
  EXPECT_EQ(r.span_after_ns, 161'000);
  EXPECT_EQ(r.gain_pct, 0.0);
}

TEST_F(WhatIfByHand, AKernelOnTheCriticalPathSavesWhatItLoses) {
  const replay_test::Loaded trace = Import(Trace(kSideKernel));
  core::replay::Edits edits;
  edits.scale.push_back({"K1", 0.5});
  const auto r = Predict(trace, edits);
  // K1 10..60, K2 61..111: 50 µs of 161 saved.
  EXPECT_EQ(r.span_after_ns, 111'000);
  EXPECT_NEAR(r.gain_pct, 50.0 / 161.0 * 100, 1e-9);
}

TEST_F(WhatIfByHand, TwoChainedStreamsMoveTogether) {
  const replay_test::Loaded trace = Import(Trace(kChained));
  core::replay::Edits edits;
  edits.scale.push_back({"K1", 0.5});
  const auto r = Predict(trace, edits);
  EXPECT_EQ(r.span_replay_ns, 161'000);
  // The record executes when K1 ends (60); K2 starts 1 µs later, 61..111.
  EXPECT_EQ(r.span_after_ns, 111'000);
  // Without the wait, K2 starts after its launch latency: stream 13 has no kernel nothing held,
  // so its launch latency is 0 and K2 runs 4..54; K1 (10..110) ends last.
  core::replay::Edits unchained;
  unchained.remove_waits.push_back({"GPU 0 stream 13", "GPU 0 stream 7"});
  const auto free = Predict(trace, unchained);
  EXPECT_EQ(free.counts.gpu_waits_removed, 1u);
  EXPECT_EQ(free.span_after_ns, 110'000);
}

TEST_F(WhatIfByHand, ASyncTakenOutLetsTheHostLaunchAtOnce) {
  const replay_test::Loaded trace = Import(Trace(kSynced));
  core::replay::Edits edits;
  edits.remove_sync.push_back("cudaStreamSynchronize");
  const auto r = Predict(trace, edits);
  EXPECT_EQ(r.span_replay_ns, 174'000);
  // Without the sync the host launches K2 2 µs after the sync's call (4); stream 13's launch
  // latency is K2's own 10 µs: K2 runs 14..64, and K1 (10..110) ends last.
  EXPECT_EQ(r.counts.cpu_waits_removed, 1u);
  EXPECT_EQ(r.span_after_ns, 110'000);
  // An infinitely fast host: K1 launched at 0 runs 10..110; the sync, made at once, returns
  // 2 µs after K1's end as it did in the trace (112); K2, launched then, runs 122..172.
  core::replay::Edits host;
  host.cpu_scale = 0;
  EXPECT_EQ(Predict(trace, host).span_after_ns, 172'000);
  // The host's sync is on the critical path: its track is named as the trace names the thread
  // ("thread 100"), not "thread thread 100".
  bool host_on_path = false;
  for (const auto& c : r.path_before) {
    EXPECT_EQ(c.track.find("thread thread"), std::string::npos) << c.track;
    host_on_path = host_on_path || c.track == "thread 100";
  }
  EXPECT_TRUE(host_on_path);
  // The path back from K2's end: K2 124..174 and its submission 114..124 on stream 13 (60, 50
  // running), the host's run 112..114 and its sync's wait 110..112 (4, 2 running), K1 10..110
  // and its submission 0..10 on stream 7 (110, 100 running).
  ASSERT_EQ(r.path_before.size(), 3u);
  EXPECT_EQ(r.path_before[0].track, "GPU 0 stream 7");
  EXPECT_EQ(r.path_before[0].ns, 110'000);
  EXPECT_EQ(r.path_before[0].running_ns, 100'000);
  EXPECT_EQ(r.path_before[1].track, "GPU 0 stream 13");
  EXPECT_EQ(r.path_before[1].running_ns, 50'000);
  EXPECT_EQ(r.path_before[2].track, "thread 100");
  EXPECT_EQ(r.path_before[2].ns, 4'000);
  EXPECT_EQ(r.path_before[2].running_ns, 2'000);
}

TEST_F(WhatIfByHand, ADeviceSyncWaitsForEveryStreamOfItsDevice) {
  // K1 on stream 7 10..110, K2 on stream 13 12..90; cudaDeviceSynchronize 5..112 (the capture
  // ties it to stream 7, whose work ended last); K3 launched at 114 on stream 7 runs 124..134.
  const replay_test::Loaded trace = Import(Trace(
      Call(1, "cudaLaunchKernel", 0, 1) + Kernel(1, "K1", 7, 10, 100) +
      Call(2, "cudaLaunchKernel", 2, 1) + Kernel(2, "K2", 13, 12, 78) +
      Call(3, "cudaDeviceSynchronize", 5, 107) + Sync(3, "Context Sync", -1, -1, 5, 107) +
      Call(4, "cudaLaunchKernel", 114, 1) + Kernel(4, "K3", 7, 124, 10)));
  core::replay::Edits edits;
  edits.scale.push_back({"K1", 0.5});
  const auto r = Predict(trace, edits);
  EXPECT_EQ(r.span_replay_ns, 134'000);
  // K1 now ends at 60, but the sync waits for K2 too (90): it returns 2 us later (92), as it
  // returned 2 us after its work in the trace; K3 is launched at 94 and runs 104..114. Had the
  // sync waited for stream 7 only, K3 would have run 74..84 and K2 ended last (90).
  EXPECT_EQ(r.span_after_ns, 114'000);
}

TEST_F(WhatIfByHand, AFasterHostLeavesTheLaunchesTheTraceDoesNotShow) {
  // The host launches K1 on stream 7 at 0 (10..110). KX (50..60) and KY (200..210) on stream 20
  // have no launch call in the trace: a stand-in launches them when they started (stream 20
  // shows no launch latency). Its 150 us between them is not the host's CPU time.
  const replay_test::Loaded trace =
      Import(Trace(Call(1, "cudaLaunchKernel", 0, 1) + Kernel(1, "K1", 7, 10, 100) +
                   Kernel(50, "KX", 20, 50, 10) + Kernel(51, "KY", 20, 200, 10)));
  core::replay::Edits edits;
  edits.cpu_scale = 0.5;
  const auto r = Predict(trace, edits);
  EXPECT_EQ(r.span_replay_ns, 210'000);
  EXPECT_EQ(r.fidelity.launches_not_in_trace, 2u);
  // The host makes one call: no time between calls to scale. Were the stand-in's gap scaled,
  // KY would run 125..135 and the span end at 135.
  EXPECT_EQ(r.counts.cpu_gaps_scaled, 0u);
  EXPECT_EQ(r.span_after_ns, 210'000);
  EXPECT_EQ(r.gain_pct, 0.0);
  core::replay::Edits instant_host;
  instant_host.cpu_scale = 0;
  EXPECT_EQ(Predict(trace, instant_host).span_after_ns, 210'000);
}

TEST_F(WhatIfByHand, AKernelQueuedBehindAnotherFollowsItWhereNoLaunchIsInTheTrace) {
  // Stream 7 runs K1 10..110 and K2 110..160, neither launched by a call in the trace (a
  // kernel-only capture). K2 started as K1 ended: it was queued behind it, so the stand-in
  // submits it with K1, and it follows K1 (the queue's resume gap: 0 here).
  const replay_test::Loaded trace =
      Import(Trace(Kernel(1, "K1", 7, 10, 100) + Kernel(2, "K2", 7, 110, 50)));
  core::replay::Edits edits;
  edits.scale.push_back({"K1", 0.5});
  const auto r = Predict(trace, edits);
  EXPECT_EQ(r.fidelity.launches_not_in_trace, 2u);
  EXPECT_EQ(r.span_replay_ns, 150'000);
  EXPECT_EQ(r.fidelity.start_error_ns_max, 0);
  // K1 10..60, K2 60..110: 50 of 150 saved. Launched at its captured start, K2 would have
  // stayed at 110..160 and nothing would have been saved.
  EXPECT_EQ(r.span_after_ns, 100'000);
  EXPECT_NEAR(r.gain_pct, 50.0 / 150.0 * 100, 1e-9);
}

TEST_F(WhatIfByHand, KernelsWithNoLaunchInTheTraceDoNotSetTheLaunchLatency) {
  // The host launches K1 at 0 (10..110) and K2 at 200 (210..230) on stream 7: a launch
  // latency of 10 us. KX, KY and KZ (120..130, 140..150, 160..170) have no launch call; what
  // the trace says of their submission tells nothing of the stream's latency. Taken as
  // launches of 0 us they made the median 0, and K1 and K2 replayed 10 us early.
  const replay_test::Loaded trace = Import(Trace(
      Call(1, "cudaLaunchKernel", 0, 1) + Kernel(1, "K1", 7, 10, 100) +
      Kernel(50, "KX", 7, 120, 10) + Kernel(51, "KY", 7, 140, 10) + Kernel(52, "KZ", 7, 160, 10) +
      Call(2, "cudaLaunchKernel", 200, 1) + Kernel(2, "K2", 7, 210, 20)));
  const auto r = Predict(trace, core::replay::Edits{});
  EXPECT_EQ(r.fidelity.launches_not_in_trace, 3u);
  EXPECT_EQ(r.fidelity.packets_compared, 5u);
  EXPECT_EQ(r.fidelity.start_error_ns_max, 0);
  EXPECT_EQ(r.span_replay_ns, 230'000);
}
