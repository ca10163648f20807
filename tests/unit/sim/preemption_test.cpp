// seed 004 preemption and TDR against timelines worked out by hand from the scenarios' numbers
// (api_call_us = 0, no jitter, context save and restore 20 us each).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "core/analysis/reconstruction.h"
#include "core/model/error.h"
#include "core/sim/preemption.h"
#include "tests/unit/sim/sim_test_helpers.h"

using core::model::EventKind;
namespace events = core::model::events;
using core::model::PreemptionGranularity;
using namespace core::sim;  // NOLINT
using namespace sim_test;   // NOLINT
using test_support::ScratchDir;
using G = PreemptionGranularity;

namespace {

constexpr int64_t kUs = 1000;

// A script thread named after `queue` submitting one packet of `duration_us` at `start_us`.
std::string OnePacketThread(const std::string& queue, int start_us, int duration_us) {
  return "[[thread]]\nname = \"" + queue + "\"\napi_call_us = 0\nstart_us = " +
         std::to_string(start_us) + "\n  [[thread.step]]\n  op = \"execute\"\n  queue = \"" +
         queue + "\"\n  duration_us = " + std::to_string(duration_us) + "\n";
}

struct PacketRecord {
  int64_t ts = -1;
  int64_t fence_submission = 0;
};

// The scheduler fence id of a packet_submitted or packet_resumed record, else 0.
int64_t FenceSubmissionOf(const core::store::TraceStore& s, size_t i) {
  switch (s.events.kind[i]) {
    case EventKind::PacketSubmitted:
      return events::PacketSubmitted::At(s.events, i).fence_submission_id;
    case EventKind::PacketResumed:
      return events::PacketResumed::At(s.events, i).fence_submission_id;
    default:
      return 0;
  }
}

// The first record of `kind` naming `queue`.
PacketRecord First(const core::store::TraceStore& s, EventKind kind, uint32_t queue) {
  for (size_t i : EventsOf(s, kind)) {
    if (s.events.queue[i] == queue) return {s.events.ts[i], FenceSubmissionOf(s, i)};
  }
  return {};
}

core::model::EngineId EngineNamed(const core::store::TraceStore& s, const std::string& name) {
  for (const auto& e : s.engines) {
    if (e.name == name) return e.id;
  }
  ADD_FAILURE() << "no engine " << name;
  return 0;
}

// Largest preemption_completed latency on one engine.
int64_t MaxLatency(const core::store::TraceStore& s, core::model::EngineId engine) {
  int64_t max = -1;
  for (size_t i : EventsOf(s, EventKind::PreemptionCompleted)) {
    const auto completed = events::PreemptionCompleted::At(s.events, i);
    if (completed.engine_id == engine) max = std::max(max, completed.latency_ns);
  }
  return max;
}

// One 3D engine: a video-memory-manager queue (priority 0) whose first packet (1000 us, ten
// pixels: a preemption point every 100 us at pixel granularity) is running when a compositor
// packet (priority 10, 50 us) arrives at 150 us; an application packet (priority 1, 200 us)
// arrives at 160 us.
std::string ResubmissionScenario(bool paging) {
  return std::string(R"(
[scenario]
name = "resubmission"
duration_ms = 5
[[adapter]]
name = "GPU"
preemption_graphics = "pixel"
context_save_us = 20
context_restore_us = 20
[[engine]]
name = "3D"
adapter = "GPU"
type = "3d"
[[queue]]
name = "vidmm"
engine = "3D"
[[queue]]
name = "app"
engine = "3D"
priority = 1
[[queue]]
name = "dwm"
engine = "3D"
priority = 10
[[thread]]
name = "vidmm"
api_call_us = 0
  [[thread.step]]
  op = "execute"
  queue = "vidmm"
  duration_us = 1000
  pixels = 10
  paging = )") + (paging ? "true" : "false") + R"(
)" + OnePacketThread("dwm", 150, 50) + OnePacketThread("app", 160, 200);
}

}  // namespace

// Request at 150 us; next pixel boundary at 200 us (packet_preempted, 800 us left); saved at
// 220 us (latency 70 us); the compositor runs 220-270 us. The paging packet then goes before
// the application's higher-priority packet, with its original fence id: resumed at 270 us,
// restored by 290 us, done at 1090 us; the application runs 1090-1290 us.
TEST(Preemption, PreemptedPagingPacketKeepsItsFenceIdAndRunsFirst) {
  ScratchDir dir;
  auto s = Simulate(ParseScenario(ResubmissionScenario(true), "paging.toml"), dir, "t.db");
  const uint32_t vidmm = QueueNamed(s, "vidmm");
  const uint32_t app = QueueNamed(s, "app");
  const uint32_t dwm = QueueNamed(s, "dwm");
  const auto requested = EventsOf(s, EventKind::PreemptionRequested);
  ASSERT_EQ(requested.size(), 1u);
  EXPECT_EQ(s.events.ts[requested[0]], 150 * kUs);
  EXPECT_EQ(s.events.queue[requested[0]], vidmm);
  EXPECT_EQ(events::PreemptionRequested::At(s.events, requested[0]).requesting_queue_id, dwm);
  EXPECT_EQ(s.events.flags[requested[0]], static_cast<uint32_t>(G::kPixel));
  const auto preempted = EventsOf(s, EventKind::PacketPreempted);
  ASSERT_EQ(preempted.size(), 1u);
  EXPECT_EQ(s.events.ts[preempted[0]], 200 * kUs);
  EXPECT_EQ(s.events.value[preempted[0]], static_cast<uint64_t>(800 * kUs));
  const auto completed = EventsOf(s, EventKind::PreemptionCompleted);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(s.events.ts[completed[0]], 220 * kUs);
  EXPECT_EQ(s.events.value[completed[0]], static_cast<uint64_t>(70 * kUs));
  EXPECT_EQ(First(s, EventKind::PacketStarted, dwm).ts, 220 * kUs);

  const PacketRecord submitted = First(s, EventKind::PacketSubmitted, vidmm);
  const PacketRecord resumed = First(s, EventKind::PacketResumed, vidmm);
  EXPECT_EQ(resumed.ts, 270 * kUs);
  EXPECT_EQ(resumed.fence_submission, submitted.fence_submission);  // the same fence id
  EXPECT_EQ(First(s, EventKind::PacketCompleted, vidmm).ts, 1090 * kUs);
  EXPECT_EQ(First(s, EventKind::PacketStarted, app).ts, 1090 * kUs);  // after the paging packet
  EXPECT_EQ(First(s, EventKind::PacketCompleted, app).ts, 1290 * kUs);
  EXPECT_EQ(EventsOf(s, EventKind::PreemptionRequested).size(), 1u);  // not preempted again
}

// The same without paging: the application (priority 1) runs 270-470 us before the preempted
// packet (priority 0) resumes with a new fence id, restored by 490 us, done at 1290 us.
TEST(Preemption, PreemptedNonPagingPacketGetsANewFenceIdAndWaitsItsTurn) {
  ScratchDir dir;
  auto s = Simulate(ParseScenario(ResubmissionScenario(false), "plain.toml"), dir, "t.db");
  const uint32_t vidmm = QueueNamed(s, "vidmm");
  const uint32_t app = QueueNamed(s, "app");
  EXPECT_EQ(First(s, EventKind::PacketStarted, app).ts, 270 * kUs);
  const PacketRecord submitted = First(s, EventKind::PacketSubmitted, vidmm);
  const PacketRecord resumed = First(s, EventKind::PacketResumed, vidmm);
  EXPECT_EQ(resumed.ts, 470 * kUs);
  EXPECT_NE(resumed.fence_submission, submitted.fence_submission);
  EXPECT_GT(resumed.fence_submission, 0);
  for (size_t i : EventsOf(s, EventKind::PacketSubmitted)) {
    EXPECT_NE(FenceSubmissionOf(s, i), resumed.fence_submission) << "fence id reused";
  }
  EXPECT_EQ(First(s, EventKind::PacketCompleted, vidmm).ts, 1290 * kUs);
}

namespace {

// A 300 us render command split into three 100 us DMA packets on a priority-0 queue; a
// compositor packet of 10 us (priority 10) arrives at 50 us.
std::string SplitScenario(const char* granularity) {
  return std::string(R"(
[scenario]
name = "split"
duration_ms = 5
[[adapter]]
name = "GPU"
preemption_graphics = ")") + granularity + R"("
[[engine]]
name = "3D"
adapter = "GPU"
type = "3d"
[[queue]]
name = "game"
engine = "3D"
[[queue]]
name = "dwm"
engine = "3D"
priority = 10
[[thread]]
name = "game"
api_call_us = 0
  [[thread.step]]
  op = "execute"
  queue = "game"
  duration_us = 300
  split_packets = 3
)" + OnePacketThread("dwm", 50, 10);
}

}  // namespace

// WDDM 1.2 (dma_buffer): the compositor runs between the first and second split packets
// (100-110 us); the request completes at 100 us (latency 50 us).
TEST(Preemption, SplitPacketsInterleaveWithOtherContexts) {
  ScratchDir dir;
  auto s = Simulate(ParseScenario(SplitScenario("dma_buffer"), "split.toml"), dir, "t.db");
  const uint32_t dwm = QueueNamed(s, "dwm");
  EXPECT_EQ(EventsOf(s, EventKind::PacketSubmitted).size(), 4u);
  EXPECT_EQ(First(s, EventKind::PacketStarted, dwm).ts, 100 * kUs);
  const auto completed = EventsOf(s, EventKind::PreemptionCompleted);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(s.events.value[completed[0]], static_cast<uint64_t>(50 * kUs));
  EXPECT_EQ(s.events.flags[completed[0]], static_cast<uint32_t>(G::kDmaBuffer));
  EXPECT_TRUE(EventsOf(s, EventKind::PacketPreempted).empty());
}

// Pre-WDDM 1.2 (none): the three split packets run back to back; the compositor waits until
// 300 us (latency 250 us).
TEST(Preemption, WithoutPreemptionAwarenessSplitPacketsRunBackToBack) {
  ScratchDir dir;
  auto s = Simulate(ParseScenario(SplitScenario("none"), "split.toml"), dir, "t.db");
  const uint32_t dwm = QueueNamed(s, "dwm");
  EXPECT_EQ(First(s, EventKind::PacketStarted, dwm).ts, 300 * kUs);
  const auto completed = EventsOf(s, EventKind::PreemptionCompleted);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(s.events.value[completed[0]], static_cast<uint64_t>(250 * kUs));
  EXPECT_EQ(s.adapters[0].preemption_graphics, G::kNone);
}

// Simulates the embedded `preemption` scenario once per granularity of `order` (coarsest
// first), set as `field` of the options: the maximum preemption latency on `engine` stays
// within `bound` and falls with each finer granularity.
template <size_t N>
void ExpectLatencyFallsWithGranularity(const G (&order)[N], const int64_t (&bound)[N],
                                       std::optional<G> SimOptions::*field, const char* engine) {
  ScratchDir dir;
  int64_t previous = -1;
  for (size_t i = 0; i < N; ++i) {
    SimOptions options;
    options.*field = order[i];
    const std::string name(core::model::PreemptionGranularityName(order[i]));
    auto s = Simulate(LoadScenario("preemption"), dir, name + ".db", options);
    const int64_t max = MaxLatency(s, EngineNamed(s, engine));
    ASSERT_GT(max, 0) << name;
    EXPECT_LE(max, bound[i]) << name;
    if (previous >= 0) {
      EXPECT_LT(max, previous) << name << " is not below the coarser one";
    }
    previous = max;
  }
}

// The embedded `preemption` scenario once per granularity: finer granularity, lower maximum
// latency. Bounds by hand: a game DMA packet is at most 12 ms x 1.1 / 3 = 4.4 ms of 4
// primitives x 100 triangles x 256 pixels; a simulation packet at most 30 ms x 1.1 / 2 =
// 16.5 ms of 2 dispatches x 32 groups x 256 threads; a mid-packet stop adds the 20 us save.
TEST(Preemption, FinerGraphicsGranularityLowersMaximumLatency) {
  const G order[] = {G::kNone, G::kDmaBuffer, G::kPrimitive, G::kTriangle, G::kPixel, G::kShader};
  const int64_t bound[] = {13'200 * kUs, 4'400 * kUs, 1'100 * kUs + 20 * kUs, 11 * kUs + 20 * kUs,
                           20 * kUs + 43, 20 * kUs + 1};
  ExpectLatencyFallsWithGranularity(order, bound, &SimOptions::preemption_graphics, "3D");
}

TEST(Preemption, FinerComputeGranularityLowersMaximumLatency) {
  const G order[] = {G::kNone, G::kDmaBuffer, G::kDispatch, G::kThreadGroup, G::kThread,
                     G::kShader};
  const int64_t bound[] = {33'000 * kUs, 16'500 * kUs, 8'250 * kUs + 20 * kUs, 258 * kUs + 20 * kUs,
                           20 * kUs + 2 * kUs, 20 * kUs + 1 * kUs};
  ExpectLatencyFallsWithGranularity(order, bound, &SimOptions::preemption_compute, "Compute");
}

// tdr.toml: the composition pass at 16 666 667 ns asks for the compute engine; the 2.5 s
// dispatch has no preemption point before its end, so 2 s later (the default timeout) the
// engine is reset: the miner's two packets and its context are lost, the passes run after.
TEST(Preemption, UnpreemptablePacketEndsInATdr) {
  ScratchDir dir;
  auto s = Simulate(LoadScenario("tdr"), dir, "t.db");
  const uint32_t miner = QueueNamed(s, "miner");
  const auto requested = EventsOf(s, EventKind::PreemptionRequested);
  ASSERT_EQ(requested.size(), 1u);
  EXPECT_EQ(s.events.ts[requested[0]], 16'666'667);
  const auto tdrs = EventsOf(s, EventKind::Tdr);
  ASSERT_EQ(tdrs.size(), 1u);
  const size_t t = tdrs[0];
  EXPECT_EQ(s.events.ts[t], 16'666'667 + 2'000'000'000);
  EXPECT_EQ(s.events.queue[t], miner);
  EXPECT_EQ(s.events.op[t], s.events.op[requested[0]]);  // requested before the TDR
  const auto tdr = events::Tdr::At(s.events, t);
  EXPECT_EQ(tdr.packets_lost, 2);
  EXPECT_EQ(tdr.contexts_lost, 1u);
  EXPECT_EQ(tdr.engine_id, EngineNamed(s, "Compute"));
  EXPECT_TRUE(EventsOf(s, EventKind::PreemptionCompleted).empty());
  EXPECT_EQ(First(s, EventKind::PacketCompleted, miner).ts, -1);  // never completed
  // The first composition pass starts at the reset.
  EXPECT_EQ(First(s, EventKind::PacketStarted, QueueNamed(s, "compositorCompute")).ts,
            s.events.ts[t]);

  const auto r = core::analysis::Reconstruct(s);
  ASSERT_EQ(r.tdrs.size(), 1u);
  EXPECT_EQ(r.queues[miner].tdrs.size(), 1u);
  ASSERT_EQ(r.queues[miner].preemptions.size(), 1u);
  const auto& marker = r.preemptions[r.queues[miner].preemptions[0]];
  EXPECT_EQ(marker.tdr, 0u);
  ASSERT_NE(marker.packet, core::analysis::kNoIndex);
  EXPECT_TRUE(r.packets[marker.packet].lost);
  ASSERT_EQ(r.queues[miner].segments.size(), 1u);
  EXPECT_EQ(r.queues[miner].segments[0].end, s.events.ts[t]);
  EXPECT_TRUE(r.queues[miner].segments[0].reset);
}

TEST(Preemption, TdrTimeoutIsConfigurable) {
  auto scenario = LoadScenario("tdr");
  scenario.adapters[0].tdr_timeout_ns = 100'000'000;
  ScratchDir dir;
  auto s = Simulate(scenario, dir, "t.db");
  const auto tdrs = EventsOf(s, EventKind::Tdr);
  ASSERT_EQ(tdrs.size(), 1u);
  EXPECT_EQ(s.events.ts[tdrs[0]], 16'666'667 + 100'000'000);
}

TEST(Preemption, GranularityOverrideNames) {
  SimOptions o;
  EXPECT_TRUE(core::sim::ApplyGranularityOverride("triangle", o));
  EXPECT_EQ(o.preemption_graphics, G::kTriangle);
  EXPECT_FALSE(o.preemption_compute.has_value());
  EXPECT_TRUE(core::sim::ApplyGranularityOverride("thread_group", o));
  EXPECT_EQ(o.preemption_compute, G::kThreadGroup);
  EXPECT_EQ(o.preemption_graphics, G::kTriangle);
  EXPECT_TRUE(core::sim::ApplyGranularityOverride("none", o));
  EXPECT_EQ(o.preemption_graphics, G::kNone);
  EXPECT_EQ(o.preemption_compute, G::kNone);
  EXPECT_FALSE(core::sim::ApplyGranularityOverride("wavefront", o));
}

namespace {

// A scenario whose one adapter has `adapter_keys` (from line 5 on), then `rest`.
std::string WithAdapter(const std::string& adapter_keys, const std::string& rest = "") {
  return "[scenario]\nname = \"x\"\n[[adapter]]\nname = \"GPU\"\n" + adapter_keys + rest;
}

}  // namespace

TEST(Preemption, UnknownGranularityInAScenarioNamesTheKey) {
  const std::string error = test_support::ErrorOf(
      [] { ParseScenario(WithAdapter("preemption_compute = \"pixel\"\n"), "bad.toml"); });
  EXPECT_NE(error.find("bad.toml:5: key 'adapter[0].preemption_compute'"), std::string::npos)
      << error;
}

TEST(Preemption, ScenarioKeysAreRead) {
  const std::string text = WithAdapter(R"(preemption_graphics = "triangle"
preemption_compute = "thread"
context_save_us = 7.5
context_restore_us = 3
tdr_timeout_ms = 250
)", R"([[engine]]
name = "3D"
adapter = "GPU"
type = "3d"
[[queue]]
name = "q"
engine = "3D"
[[thread]]
name = "t"
  [[thread.step]]
  op = "execute"
  queue = "q"
  duration_us = 10
  primitives = 2
  triangles = 3
  pixels = 4
  dispatches = 5
  thread_groups = 6
  threads = 7
  instructions = 8
  split_packets = 9
  paging = true
  present = true
)");
  const auto s = ParseScenario(text, "keys.toml");
  const auto& a = s.adapters[0];
  EXPECT_EQ(a.preemption.graphics, G::kTriangle);
  EXPECT_EQ(a.preemption.compute, G::kThread);
  EXPECT_EQ(a.context_save_ns, 7'500);
  EXPECT_EQ(a.context_restore_ns, 3'000);
  EXPECT_EQ(a.tdr_timeout_ns, 250'000'000);
  const auto& step = s.threads[0].steps[0];
  EXPECT_EQ(step.detail.get().shape.primitives, 2);
  EXPECT_EQ(step.detail.get().shape.triangles, 3);
  EXPECT_EQ(step.detail.get().shape.pixels, 4);
  EXPECT_EQ(step.detail.get().shape.dispatches, 5);
  EXPECT_EQ(step.detail.get().shape.thread_groups, 6);
  EXPECT_EQ(step.detail.get().shape.threads, 7);
  EXPECT_EQ(step.detail.get().shape.instructions, 8);
  EXPECT_EQ(step.detail.get().split_packets, 9);
  EXPECT_TRUE(step.paging);
  EXPECT_TRUE(step.present);
}

namespace {

// The application queue (priority 0) starts with a GPU wait for fence f = 1, which the CPU
// signals at 500 us, then a 100 us packet; the compositor (priority 10) submits 10 us at 100 us.
std::string HeldWaitScenario(const char* granularity, const char* tdr_timeout_ms) {
  return WithAdapter(std::string("preemption_graphics = \"") + granularity +
                         "\"\ntdr_timeout_ms = " + tdr_timeout_ms + "\n",
                     R"([[engine]]
name = "3D"
adapter = "GPU"
type = "3d"
[[queue]]
name = "app"
engine = "3D"
[[queue]]
name = "dwm"
engine = "3D"
priority = 10
[[fence]]
name = "f"
adapter = "GPU"
[[thread]]
name = "app"
api_call_us = 0
  [[thread.step]]
  op = "wait"
  queue = "app"
  fence = "f"
  value = 1
  [[thread.step]]
  op = "execute"
  queue = "app"
  duration_us = 100
)" + OnePacketThread("dwm", 100, 10) + R"([[thread]]
name = "cpu"
api_call_us = 0
start_us = 500
  [[thread.step]]
  op = "cpu_signal"
  fence = "f"
  value = 1
)");
}

}  // namespace

// Preemption-aware (dma_buffer): the wait never holds the engine; the compositor runs at once.
TEST(Preemption, WaitsArePreemptibleBeforeTheirConditionIsMet) {
  ScratchDir dir;
  auto s = Simulate(ParseScenario(HeldWaitScenario("dma_buffer", "2000"), "w.toml"), dir, "t.db");
  EXPECT_EQ(First(s, EventKind::PacketStarted, QueueNamed(s, "dwm")).ts, 100 * kUs);
  EXPECT_TRUE(EventsOf(s, EventKind::PreemptionRequested).empty());
  EXPECT_EQ(First(s, EventKind::PacketStarted, QueueNamed(s, "app")).ts, 500 * kUs);
}

// Pre-WDDM 1.2 (none): the engine executes the app's wait and cannot preempt it; the request at
// 100 us completes when the wait is satisfied at 500 us (latency 400 us); dwm 500-510 us, the
// app's packet 510-610 us.
TEST(Preemption, WithoutPreemptionAwarenessAHardwareWaitHoldsTheEngine) {
  ScratchDir dir;
  auto s = Simulate(ParseScenario(HeldWaitScenario("none", "2000"), "w.toml"), dir, "t.db");
  const uint32_t app = QueueNamed(s, "app");
  const auto requested = EventsOf(s, EventKind::PreemptionRequested);
  ASSERT_EQ(requested.size(), 1u);
  EXPECT_EQ(s.events.ts[requested[0]], 100 * kUs);
  EXPECT_EQ(s.events.queue[requested[0]], app);
  EXPECT_EQ(events::PreemptionRequested::At(s.events, requested[0]).packet_id, 0);  // a wait
  const auto completed = EventsOf(s, EventKind::PreemptionCompleted);
  ASSERT_EQ(completed.size(), 1u);
  EXPECT_EQ(s.events.value[completed[0]], static_cast<uint64_t>(400 * kUs));
  EXPECT_EQ(First(s, EventKind::PacketStarted, QueueNamed(s, "dwm")).ts, 500 * kUs);
  EXPECT_EQ(First(s, EventKind::PacketStarted, app).ts, 510 * kUs);
  EXPECT_EQ(First(s, EventKind::PacketCompleted, app).ts, 610 * kUs);
}

// The same with a 0.2 ms TDR timeout: the held wait is still unsatisfied at 300 us, so the
// engine is reset; the app loses its packet and context, dwm runs at 300 us, and the CPU signal
// at 500 us unblocks nothing.
TEST(Preemption, AHeldWaitPastTheTimeoutEndsInATdr) {
  ScratchDir dir;
  auto s = Simulate(ParseScenario(HeldWaitScenario("none", "0.2"), "w.toml"), dir, "t.db");
  const uint32_t app = QueueNamed(s, "app");
  const auto tdrs = EventsOf(s, EventKind::Tdr);
  ASSERT_EQ(tdrs.size(), 1u);
  EXPECT_EQ(s.events.ts[tdrs[0]], 300 * kUs);
  EXPECT_EQ(s.events.queue[tdrs[0]], app);
  EXPECT_EQ(events::Tdr::At(s.events, tdrs[0]).packets_lost, 1);
  EXPECT_EQ(First(s, EventKind::PacketStarted, QueueNamed(s, "dwm")).ts, 300 * kUs);
  EXPECT_EQ(First(s, EventKind::PacketStarted, app).ts, -1);
  EXPECT_EQ(First(s, EventKind::FenceWaitUnblocked, app).ts, -1);
}
