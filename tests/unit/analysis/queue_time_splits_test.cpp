// ComputeQueueTimeSplits (many ranges at once, for a fleet's steps) against ComputeQueueTime
// asked range by range, on simulated traces with GPU waits across queues: every busy, waiting and
// idle figure must be the same.
#include <gtest/gtest.h>

#include "core/analysis/queue_time.h"
#include "core/store/trace_store.h"
#include "tests/support/test_support.h"

using namespace core::analysis;

TEST(QueueTimeSplits, EqualComputeQueueTimeRangeByRange) {
  for (const char* scenario : {"async_compute_graphics", "cross_adapter", "never_signalled"}) {
    test_support::ScratchDir dir;
    test_support::SimulateTrace(dir / "t.db", scenario);
    const core::store::TraceStore store = core::store::LoadTrace(dir / "t.db");
    const Reconstruction r = Reconstruct(store);
    // Consecutive ranges of odd lengths with gaps between them, past both ends of the trace.
    std::vector<TimeRange> ranges;
    const DurationNs span = r.end_ns - r.start_ns;
    const DurationNs piece = span / 37 + 1;
    for (TimeNs t = r.start_ns - piece; t < r.end_ns + piece; t += piece + piece / 7) {
      ranges.push_back({t, t + piece});
    }
    ASSERT_GT(ranges.size(), 30u);
    const auto splits = ComputeQueueTimeSplits(store, r, ranges);
    ASSERT_EQ(splits.size(), ranges.size());
    DurationNs waiting = 0;
    for (size_t i = 0; i < ranges.size(); ++i) {
      const QueueTimeSplit one = ComputeQueueTime(store, r, ranges[i]);
      ASSERT_EQ(splits[i].size(), one.queues.size());
      for (size_t q = 0; q < one.queues.size(); ++q) {
        EXPECT_EQ(splits[i][q].queue, one.queues[q].queue);
        EXPECT_EQ(splits[i][q].busy_ns, one.queues[q].busy_ns) << scenario << " range " << i;
        EXPECT_EQ(splits[i][q].waiting_ns, one.queues[q].waiting_ns) << scenario << " range " << i;
        EXPECT_EQ(splits[i][q].idle_ns, one.queues[q].idle_ns) << scenario << " range " << i;
        waiting += one.queues[q].waiting_ns;
      }
    }
    if (std::string(scenario) != "cross_adapter") {
      EXPECT_GT(waiting, 0) << scenario;
    }
  }
}
