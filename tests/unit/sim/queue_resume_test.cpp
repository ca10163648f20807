// A queue's resume gap (QueueSpec::resume_ns: the gap a replay measured between back-to-back
// kernels) holds a packet that was already queued when the packet before it ended; a packet
// submitted after its queue went idle starts after its launch latency alone. Worked out by hand
// on a three-packet program: A, 20 us of host work, then B and C back to back.
#include <gtest/gtest.h>

#include <map>

#include "core/analysis/reconstruction.h"
#include "core/sim/scenario_loader.h"
#include "core/sim/simulator.h"
#include "core/store/memory_trace.h"

namespace {

constexpr const char* kScenario = R"(
[scenario]
name = "resume"
duration_ms = 1

[[adapter]]
name = "GPU"

[[engine]]
name = "compute"
adapter = "GPU"
type = "compute"

[[queue]]
name = "stream"
engine = "compute"
launch_latency_us = 2
resume_us = 50

[[thread]]
name = "host"
frames = 1

  [[thread.step]]
  op = "execute"
  queue = "stream"
  name = "A"
  duration_us = 10

  [[thread.step]]
  op = "cpu_work"
  duration_us = 20

  [[thread.step]]
  op = "execute"
  queue = "stream"
  name = "B"
  duration_us = 10

  [[thread.step]]
  op = "execute"
  queue = "stream"
  name = "C"
  duration_us = 10
)";

}  // namespace

TEST(QueueResume, OnlyAPacketQueuedWhenTheLastEndedWaitsTheResumeGap) {
  const core::sim::Scenario scenario = core::sim::ParseScenario(kScenario, "resume.toml");
  core::store::MemoryTrace memory("simulator");
  core::sim::RunSimulation(scenario, memory);
  const core::store::TraceStore store = memory.TakeStore("(memory)");
  const core::analysis::Reconstruction recon = core::analysis::Reconstruct(store);
  std::map<std::string, core::analysis::Packet> by_name;
  for (const core::analysis::Packet& p : recon.packets) by_name[store.String(p.name)] = p;
  ASSERT_EQ(by_name.size(), 3u);
  const auto& a = by_name.at("A");
  const auto& b = by_name.at("B");
  const auto& c = by_name.at("C");
  // A: an idle queue, 2 us after its submission.
  EXPECT_EQ(a.start - a.submit, 2'000);
  // B: submitted after A ended (the queue idle since) but within 50 us of it: its launch
  // latency alone, not A's end + 50 us.
  ASSERT_GT(b.submit, a.end);
  ASSERT_LT(b.submit + 2'000, a.end + 50'000);
  EXPECT_EQ(b.start - b.submit, 2'000);
  // C: submitted while B ran, so queued when B ended: B's end + the 50 us resume gap.
  ASSERT_LT(c.submit, b.end);
  EXPECT_EQ(c.start, b.end + 50'000);
}
