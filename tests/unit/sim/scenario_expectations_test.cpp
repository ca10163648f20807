// The embedded scenarios against timelines worked out by hand from their TOML (durations, no
// jitter, api_call_us = 0 where noted) and the seeds' rules.
#include <gtest/gtest.h>

#include <map>

#include "tests/unit/sim/sim_test_helpers.h"

using core::model::EventKind;
namespace events = core::model::events;
using namespace core::sim;  // NOLINT
using namespace sim_test;   // NOLINT
using test_support::ScratchDir;

namespace {

struct Unblock {
  int64_t ts;
  int64_t observed;
  uint32_t path;
};

// fence_wait_unblocked of (queue, fence, value).
Unblock FindUnblock(const core::store::TraceStore& s, uint32_t queue, uint32_t fence,
                    uint64_t value) {
  for (size_t i : EventsOf(s, EventKind::FenceWaitUnblocked)) {
    if (s.events.queue[i] == queue && s.events.fence[i] == fence && s.events.value[i] == value) {
      const auto unblocked = events::FenceWaitUnblocked::At(s.events, i);
      return {unblocked.ts_ns, unblocked.observed_ns, static_cast<uint32_t>(unblocked.wait_path)};
    }
  }
  ADD_FAILURE() << "no unblock of queue " << queue << " fence " << fence << " value " << value;
  return {-1, -1, 0};
}

// Start times of the packets of a queue, in order.
std::vector<int64_t> PacketStarts(const core::store::TraceStore& s, uint32_t queue) {
  std::vector<int64_t> out;
  for (size_t i : EventsOf(s, EventKind::PacketStarted)) {
    if (s.events.queue[i] == queue) out.push_back(s.events.ts[i]);
  }
  return out;
}

size_t Count(const core::store::TraceStore& s, EventKind kind) { return EventsOf(s, kind).size(); }

}  // namespace

// copy 100 us + 4 x 50 us; pre-pass 300; lighting 200; final 400; interrupt latency 5 us.
TEST(CopyPrepassLighting, FollowsTheSeedTimelineInNativeMode) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("copy_prepass_lighting"), dir, "t.db");
  const uint32_t render = QueueNamed(s, "renderEngine");
  const uint32_t compute = QueueNamed(s, "computeEngine");
  const uint32_t copy = QueueNamed(s, "copyEngine");
  const uint32_t copy_fence = FenceNamed(s, "copyFence");
  const uint32_t render_fence = FenceNamed(s, "renderFence");
  const uint32_t compute_fence = FenceNamed(s, "computeFence");

  EXPECT_EQ(PacketStarts(s, copy), (std::vector<int64_t>{0, 100000, 150000, 200000, 250000}));
  EXPECT_EQ(PacketStarts(s, render), (std::vector<int64_t>{100000, 600000}));
  EXPECT_EQ(PacketStarts(s, compute), (std::vector<int64_t>{400000}));

  Unblock geometry = FindUnblock(s, render, copy_fence, 101);
  EXPECT_EQ(geometry.ts, 100000);
  EXPECT_EQ(geometry.observed, 0);  // the 3D queue reached its wait at once
  EXPECT_EQ(geometry.path, 0u);     // native: resolved on the GPU
  EXPECT_EQ(FindUnblock(s, compute, render_fence, 201).ts, 400000);
  Unblock lighting = FindUnblock(s, render, compute_fence, 301);
  EXPECT_EQ(lighting.ts, 600000);
  EXPECT_EQ(lighting.observed, 400000);  // after the pre-pass
  Unblock textures = FindUnblock(s, render, copy_fence, 102);
  EXPECT_EQ(textures.ts, 600000);  // reached after lighting; 102 was signalled at 300 us
  EXPECT_EQ(textures.observed, 600000);

  // Only computeFence has a CPU waiter (MonitoredValue 300): one interrupt, for signal 301.
  auto interrupts = EventsOf(s, EventKind::Interrupt);
  ASSERT_EQ(interrupts.size(), 1u);
  const size_t irq = interrupts[0];
  EXPECT_EQ(s.events.ts[irq], 605000);
  EXPECT_EQ(s.events.fence[irq], compute_fence);
  EXPECT_EQ(s.events.value[irq], 301u);
  EXPECT_EQ(events::Interrupt::At(s.events, irq).waiters_released, 1);
  auto released = EventsOf(s, EventKind::CpuWaitReleased);
  ASSERT_EQ(released.size(), 1u);
  EXPECT_EQ(events::CpuWaitReleased::At(s.events, released[0]).interrupt_event,
            s.events.RowIdOf(irq));
  EXPECT_EQ(s.events.ts[released[0]], 605000);
  // MonitoredValue: UINT64_MAX at start (three fences), 300 when the CPU waits, back to MAX.
  std::vector<uint64_t> mv;
  for (size_t i : EventsOf(s, EventKind::MonitoredValueUpdated)) {
    if (s.events.fence[i] == compute_fence) mv.push_back(s.events.value[i]);
  }
  EXPECT_EQ(mv, (std::vector<uint64_t>{UINT64_MAX, 300, UINT64_MAX}));
}

// Monitored fences: every GPU signal interrupts (4) and the OS holds GPU waits on the CPU until
// it has handled the interrupt (5 us) and released the work (20 us).
TEST(CopyPrepassLighting, LegacyMonitoredFencesHoldWaitsOnTheCpu) {
  ScratchDir dir;
  SimOptions options;
  options.fence_mode = FenceMode::kMonitored;
  auto s = Simulate(LoadScenario("copy_prepass_lighting"), dir, "t.db", options);
  const uint32_t render = QueueNamed(s, "renderEngine");
  const uint32_t compute = QueueNamed(s, "computeEngine");
  EXPECT_EQ(Count(s, EventKind::Interrupt), 4u);
  Unblock geometry = FindUnblock(s, render, FenceNamed(s, "copyFence"), 101);
  EXPECT_EQ(geometry.ts, 125000);
  EXPECT_EQ(geometry.path, 1u);  // held on the CPU
  // pre-pass 125..425, renderFence at 425, compute released at 425 + 25 = 450, lighting
  // 450..650, render released at 675; textures (102) were seen long before.
  EXPECT_EQ(PacketStarts(s, render), (std::vector<int64_t>{125000, 675000}));
  EXPECT_EQ(PacketStarts(s, compute), (std::vector<int64_t>{450000}));
  EXPECT_EQ(Count(s, EventKind::LogWrite), 0u);  // no native fence logs
}

// seed 001: "copy engine has exhausted the ring buffer, so must wait for render to consume it".
// Map 100 us, Draw 300 us: maps at 0, 100, 200; the fourth fill waits for fence1 = 1 from 300 us
// until the first draw (100..400) has signalled it.
TEST(RingBuffer, CopyQueueStallsOnItsFourthFill) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("ring_buffer"), dir, "t.db");
  const uint32_t copy = QueueNamed(s, "copyEngine");
  const uint32_t render = QueueNamed(s, "renderEngine");
  const uint32_t fence1 = FenceNamed(s, "fence1");
  auto copy_starts = PacketStarts(s, copy);
  ASSERT_GE(copy_starts.size(), 4u);
  EXPECT_EQ(copy_starts[0], 0);
  EXPECT_EQ(copy_starts[1], 100000);
  EXPECT_EQ(copy_starts[2], 200000);
  EXPECT_EQ(copy_starts[3], 400000);  // stalled from 300 to 400 us
  Unblock stall = FindUnblock(s, copy, fence1, 1);
  EXPECT_EQ(stall.observed, 300000);
  EXPECT_EQ(stall.ts, 400000);
  auto render_starts = PacketStarts(s, render);
  ASSERT_GE(render_starts.size(), 3u);
  EXPECT_EQ(render_starts[0], 100000);
  EXPECT_EQ(render_starts[1], 400000);
  EXPECT_EQ(render_starts[2], 700000);
  // Map i writes entry i % 3 of the ring (64 KB each).
  auto accesses = EventsOf(s, EventKind::ResourceAccess);
  ASSERT_GE(accesses.size(), 4u);
  const auto access = events::ResourceAccess::At(s.events, accesses[0]);
  EXPECT_EQ(access.access, 1u);             // write
  EXPECT_EQ(access.offset_bytes, 65536);    // frame 1 -> entry 1
  EXPECT_EQ(access.length_bytes, 65536);
}

TEST(NeverSignalled, EndsAtTheTimeLimitWithThePendingWaitsRecorded) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("never_signalled"), dir, "t.db");
  EXPECT_EQ(s.end_ns(), 5000000);
  const uint32_t gate = FenceNamed(s, "gateFence");
  auto pending = EventsOf(s, EventKind::WaitPendingAtEnd);
  ASSERT_EQ(pending.size(), 2u);
  int gpu = 0, cpu = 0;
  for (size_t i : pending) {
    EXPECT_EQ(s.events.fence[i], gate);
    EXPECT_EQ(s.events.value[i], 1u);
    EXPECT_EQ(events::WaitPendingAtEnd::At(s.events, i).current_value, 0u);  // at the end
    EXPECT_EQ(s.events.ts[i], 5000000);
    if (s.events.queue[i] == QueueNamed(s, "Graphics")) ++gpu;
    if (s.events.thread[i] != 0) ++cpu;
  }
  EXPECT_EQ(gpu, 1);
  EXPECT_EQ(cpu, 1);
  EXPECT_EQ(Count(s, EventKind::PacketStarted), 2u);  // Upload, Draw; NeverRuns never starts
  EXPECT_EQ(Count(s, EventKind::CpuWaitReleased), 0u);
}

TEST(NativeVsMonitored, NativeFencesRaiseFewerInterruptsOnTheSameWork) {
  for (const char* name : {"default", "ring_buffer", "pipelined_compute_graphics",
                           "async_compute_graphics", "copy_prepass_lighting"}) {
    ScratchDir dir;
    auto scenario = LoadScenario(name);
    SimOptions native, monitored;
    native.fence_mode = FenceMode::kNative;
    monitored.fence_mode = FenceMode::kMonitored;
    auto a = Simulate(scenario, dir, "native.db", native);
    auto b = Simulate(scenario, dir, "monitored.db", monitored);
    const size_t native_irq = Count(a, EventKind::Interrupt);
    const size_t monitored_irq = Count(b, EventKind::Interrupt);
    EXPECT_LT(native_irq, monitored_irq) << name;
    // Monitored: one interrupt per GPU signal.
    EXPECT_EQ(monitored_irq, Count(b, EventKind::FenceSignalExecuted)) << name;
    EXPECT_EQ(a.meta.at("fence_mode"), "native");
    EXPECT_EQ(b.meta.at("fence_mode"), "monitored");
  }
}

TEST(Determinism, SameScenarioAndSeedGiveIdenticalEvents) {
  ScratchDir dir;
  auto scenario = LoadScenario("default");
  auto a = Simulate(scenario, dir, "a.db");
  auto b = Simulate(scenario, dir, "b.db");
  ASSERT_EQ(a.events.size(), b.events.size());
  EXPECT_EQ(sim_test::EventTable(a), sim_test::EventTable(b));
  EXPECT_EQ(a.meta.at("seed"), "1");
  EXPECT_EQ(a.meta.at("scenario"), "default");
  SimOptions other;
  other.seed = 2;
  auto c = Simulate(scenario, dir, "c.db", other);
  EXPECT_NE(a.events.ts, c.events.ts);  // jitter differs with the seed
  EXPECT_EQ(c.meta.at("seed"), "2");
}

TEST(LogOverrun, EveryOverrunIsDetectedAndAnsweredByAFallbackScan) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("log_overrun"), dir, "t.db");
  const size_t overruns = Count(s, EventKind::LogOverrun);
  EXPECT_GT(overruns, 0u);
  EXPECT_GT(Count(s, EventKind::LogFallbackScan), 0u);
  // The adapter grows logs when tracing: 4 KB -> 8 KB -> 16 KB (the limit) per grown log.
  for (size_t i : EventsOf(s, EventKind::LogResized)) {
    const int64_t bytes = events::LogResized::At(s.events, i).size_bytes;
    EXPECT_TRUE(bytes == 8192 || bytes == 16384);
  }
  EXPECT_GT(Count(s, EventKind::LogResized), 0u);
  // Per log: every entry written is either read or reported lost (the run ends with a read).
  std::map<std::pair<uint32_t, uint32_t>, int64_t> written, accounted;
  for (size_t i : EventsOf(s, EventKind::LogWrite)) {
    ++written[{s.events.queue[i], s.events.flags[i] & 1}];
  }
  for (size_t i : EventsOf(s, EventKind::LogFlush)) {
    const auto flush = events::LogFlush::At(s.events, i);
    accounted[{flush.queue_id, flush.log_type & 1}] += flush.entries_read;
  }
  for (size_t i : EventsOf(s, EventKind::LogOverrun)) {
    const auto overrun = events::LogOverrun::At(s.events, i);
    accounted[{overrun.queue_id, overrun.log_type & 1}] += overrun.entries_lost;
  }
  EXPECT_EQ(written, accounted);
}

// seed 003 cross-adapter: every dGPU signal of frameFence interrupts (MonitoredValue 0) and the
// OS propagates it; the iGPU (no native fences) is released 15 us (its propagation_us) later.
TEST(CrossAdapter, SignalsInterruptAndPropagateToTheOtherAdapter) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("cross_adapter"), dir, "t.db");
  const uint32_t frame_fence = FenceNamed(s, "frameFence");
  const uint32_t compose = QueueNamed(s, "iGPU compose");
  size_t signals = 0;
  for (size_t i : EventsOf(s, EventKind::FenceSignalExecuted)) {
    if (s.events.fence[i] == frame_fence) ++signals;
  }
  size_t cross_interrupts = 0;
  for (size_t i : EventsOf(s, EventKind::Interrupt)) {
    if (s.events.fence[i] == frame_fence) {
      EXPECT_EQ(s.events.flags[i] & core::model::kInterruptTypeMask, 2u);  // cross_adapter
      ++cross_interrupts;
    }
  }
  EXPECT_GT(signals, 5u);
  EXPECT_EQ(cross_interrupts, signals);
  std::vector<int64_t> propagated;
  for (size_t i : EventsOf(s, EventKind::CrossAdapterPropagated)) {
    if (s.events.fence[i] == frame_fence) propagated.push_back(s.events.ts[i]);
  }
  size_t checked = 0;
  for (size_t i : EventsOf(s, EventKind::FenceWaitUnblocked)) {
    if (s.events.queue[i] != compose || s.events.flags[i] != 2) continue;
    const int64_t ts = s.events.ts[i];
    EXPECT_NE(std::find(propagated.begin(), propagated.end(), ts - 15000), propagated.end());
    ++checked;
  }
  EXPECT_GT(checked, 5u);
  EXPECT_EQ(s.FindFence(frame_fence)->kind, core::model::FenceKind::kCrossAdapter);
  // Scenario 2b: the iGPU (no native fences) signals composedFence in software: a monitored
  // interrupt on every signal, propagated to the dGPU, whose blocked waits are released 12 us
  // (the dGPU's propagation_us) later.
  const uint32_t composed = FenceNamed(s, "composedFence");
  const uint32_t render = QueueNamed(s, "dGPU render");
  for (size_t i : EventsOf(s, EventKind::Interrupt)) {
    if (s.events.fence[i] == composed) {
      EXPECT_EQ(s.events.flags[i] & core::model::kInterruptTypeMask, 1u);  // monitored
    }
  }
  propagated.clear();
  for (size_t i : EventsOf(s, EventKind::CrossAdapterPropagated)) {
    if (s.events.fence[i] == composed) propagated.push_back(s.events.ts[i]);
  }
  size_t propagated_waits = 0;
  for (size_t i : EventsOf(s, EventKind::FenceWaitUnblocked)) {
    if (s.events.queue[i] != render || s.events.flags[i] != 2) continue;
    EXPECT_NE(std::find(propagated.begin(), propagated.end(), s.events.ts[i] - 12000),
              propagated.end());
    ++propagated_waits;
  }
  EXPECT_GT(propagated_waits, 5u);
}

// seed 001 asynchronous example: graphics waits once (compute fence 1); compute frame n > 2
// waits for the graphics-compute fence n - 2.
TEST(AsyncComputeGraphics, WaitsAsTheSeedWritesThem) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("async_compute_graphics"), dir, "t.db");
  const uint32_t graphics = QueueNamed(s, "pGraphicsQueue");
  const uint32_t compute = QueueNamed(s, "pComputeQueue");
  const uint32_t gcf = FenceNamed(s, "pGraphicsComputeFence");
  std::vector<uint64_t> graphics_waits, compute_waits;
  for (size_t i : EventsOf(s, EventKind::FenceWaitQueued)) {
    if (s.events.queue[i] == graphics) graphics_waits.push_back(s.events.value[i]);
    if (s.events.queue[i] == compute) {
      EXPECT_EQ(s.events.fence[i], gcf);
      compute_waits.push_back(s.events.value[i]);
    }
  }
  EXPECT_EQ(graphics_waits, (std::vector<uint64_t>{1}));
  ASSERT_FALSE(compute_waits.empty());
  for (size_t k = 0; k < compute_waits.size(); ++k) EXPECT_EQ(compute_waits[k], k + 1);
  // 40 frames of each... in total 80 stage executions, one packet each.
  EXPECT_EQ(Count(s, EventKind::PacketSubmitted), 80u);
}

// seed 003 Scenario 1: both GPUs native. Signals of either cross-adapter fence raise a
// cross_adapter interrupt on the adapter that wrote it; no GPU wait is held on the CPU.
TEST(CrossAdapter, BothNativeEverySignalInterruptsAsCrossAdapter) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("cross_adapter_native"), dir, "t.db");
  size_t signals = EventsOf(s, EventKind::FenceSignalExecuted).size();
  auto interrupts = EventsOf(s, EventKind::Interrupt);
  EXPECT_EQ(interrupts.size(), signals);
  for (size_t i : interrupts) {
    EXPECT_EQ(s.events.flags[i] & core::model::kInterruptTypeMask, 2u);
  }
  for (size_t i : EventsOf(s, EventKind::FenceWaitUnblocked)) {
    EXPECT_NE(s.events.flags[i], 1u);  // never CPU-held
  }
  EXPECT_EQ(EventsOf(s, EventKind::CrossAdapterPropagated).size(), signals);
}
