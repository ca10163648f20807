// The event table's filter on a hand-written trace: which records a kind, a name or a number
// keeps, worked out from the records below.
#include "app/gui/state/event_filter.h"

#include <gtest/gtest.h>

#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

namespace {

using namespace core::store;  // NOLINT
using app::gui::state::FilterEvents;
using Indices = std::vector<uint32_t>;

class EventFilterTest : public testing::Test {
 protected:
  void SetUp() override {
    auto path = dir_ / "filter.db";
    TraceWriter w(path, "hand");
    AdapterId gpu = w.AddAdapter(
        {"GPU", 1, true, true, PreemptionGranularity::kPixel, PreemptionGranularity::kDispatch});
    EngineId e = w.AddEngine({gpu, EngineType::kCopy, 0, "Copy"});
    ProcessId p = w.AddProcess({1, "game"});
    QueueId copy = w.AddQueue({e, gpu, QueueType::kCopy, 0, p, "Copy Queue", 0});
    QueueId gfx = w.AddQueue({e, gpu, QueueType::k3D, 0, p, "Graphics", 1});
    ThreadId render = w.AddThread({p, 7, ThreadKind::kApplication, "Render", 0});
    FenceId frame = w.AddFence({"FrameFence", FenceKind::kNative, false, gpu, 1, 0, 1});
    // event 0..4, in time order:
    w.Append({10, EventKind::PacketStarted, copy, 0, 0, 0, 42});               // 0: op 42
    w.Append({20, EventKind::FenceSignalQueued, gfx, render, frame, 3, 5});    // 1
    w.Append({30, EventKind::FenceSignalExecuted, gfx, 0, frame, 3, 5, 2});    // 2
    w.Append({40, EventKind::CpuWaitBegin, 0, render, frame, 42, 9});          // 3: value 42
    w.Append({50, EventKind::PacketCompleted, gfx, 0, 0, 0, 8});               // 4
    w.Commit();
    store_ = LoadTrace(path);
  }

  Indices Filter(int kind, const std::string& text, size_t first = 0, size_t last = 5) {
    return FilterEvents(store_, first, last, kind, text);
  }

  test_support::ScratchDir dir_;
  TraceStore store_;
};

TEST_F(EventFilterTest, NamesMatchIgnoringCase) {
  EXPECT_EQ(Filter(0, "copy queue"), (Indices{0}));       // queue name
  EXPECT_EQ(Filter(0, "GRAPH"), (Indices{1, 2, 4}));      // queue name
  EXPECT_EQ(Filter(0, "render"), (Indices{1, 3}));        // thread name
  EXPECT_EQ(Filter(0, "framefence"), (Indices{1, 2, 3}));  // fence name
  EXPECT_EQ(Filter(0, "fence_signal"), (Indices{1, 2}));  // kind name
  EXPECT_EQ(Filter(0, "nothing like it"), (Indices{}));
}

TEST_F(EventFilterTest, NumbersMatchOpValueAndArguments) {
  EXPECT_EQ(Filter(0, "42"), (Indices{0, 3}));    // op_id 42, value 42
  EXPECT_EQ(Filter(0, "0x2a"), (Indices{0, 3}));  // the same number in hex
  EXPECT_EQ(Filter(0, "2"), (Indices{2}));        // arg0 of the executed signal
  EXPECT_EQ(Filter(0, "5"), (Indices{1, 2}));     // op_id of both signal records
}

TEST_F(EventFilterTest, KindTextAndWindowCombine) {
  const int executed = static_cast<int>(EventKind::FenceSignalExecuted);
  EXPECT_EQ(Filter(executed, ""), (Indices{2}));
  EXPECT_EQ(Filter(executed, "render"), (Indices{}));  // the executed record has no thread
  EXPECT_EQ(Filter(0, "graphics", 2, 5), (Indices{2, 4}));
  EXPECT_EQ(Filter(0, "", 1, 3), (Indices{1, 2}));
}

}  // namespace
