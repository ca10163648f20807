// Where a critical path begins when the walk reaches a thread that never waited: the thread ran
// from the trace's start, and that time is on the path (a training loop captured by Kineto has
// threads that launch kernels and never block; without it the path was only the last kernels).
#include <gtest/gtest.h>

#include "core/analysis/critical_path.h"
#include "tests/support/hand_trace.h"
#include "tests/support/test_support.h"

using namespace core::analysis;

namespace {

// Span [0, span_end]: thread "launcher" (id 1) submits one packet at `submit` with no CPU wait
// before it; queue "stream" runs it [start, end].
CriticalPath PathOfOneLaunch(TimeNs submit, TimeNs start, TimeNs end, TimeNs span_end) {
  test_support::ScratchDir dir;
  hand_trace::HandTrace t(dir / "t.db");
  QueueId q = t.Queue("stream");
  t.Packet(q, t.Thread("launcher"), 1, submit, start, end);
  core::store::TraceStore store = t.Finish(0, span_end);
  return ComputeCriticalPath(Reconstruct(store));
}

}  // namespace

TEST(CriticalPathStart, AThreadThatNeverWaitedRanFromTheTraceStart) {
  // Back from 190: run [110,190], submit [100,110], then the thread ran [0,100].
  CriticalPath path = PathOfOneLaunch(100, 110, 190, 200);
  ASSERT_EQ(path.steps.size(), 3u);
  EXPECT_EQ(path.steps[0].kind, PathStepKind::kCpuRun);
  EXPECT_EQ(path.steps[0].thread, 1u);
  EXPECT_EQ(path.steps[0].start, 0);
  EXPECT_EQ(path.steps[0].end, 100);
  EXPECT_EQ(path.steps[1].kind, PathStepKind::kSubmit);
  EXPECT_EQ(path.steps[2].kind, PathStepKind::kRun);
  EXPECT_EQ(path.start, 0);
  EXPECT_EQ(path.Length(), 190);
  ASSERT_EQ(path.shares.size(), 2u);  // the queue: 10 + 80; the thread: 100
  EXPECT_EQ(path.shares[0].ns, 90);
  EXPECT_EQ(path.shares[0].running_ns, 80);  // the submission's 10 the packet waited to start
  EXPECT_EQ(path.shares[1].thread, 1u);
  EXPECT_EQ(path.shares[1].ns, 100);
  EXPECT_EQ(path.shares[1].running_ns, 100);
}

TEST(CriticalPathStart, ASubmissionAtTheTraceStartAddsNoEmptyStep) {
  CriticalPath path = PathOfOneLaunch(0, 10, 50, 60);
  ASSERT_EQ(path.steps.size(), 2u);  // submit [0,10], run [10,50]
  EXPECT_EQ(path.steps[0].kind, PathStepKind::kSubmit);
  EXPECT_EQ(path.steps[1].kind, PathStepKind::kRun);
}
