// A thread's step that takes no CPU time is followed by the thread's next step after whatever
// else was already due at that instant, as if the next step were an event pushed then (ties in
// push order): the simulator runs it at once, without the event, only when nothing else is due
// at that instant. Worked out by hand: the waiter works 10 us on the CPU, then makes a call
// that costs nothing (a queue signal of another fence) and waits for `ready`. The submitter,
// at 0, runs a 10 us packet on an idle queue with no launch latency, then a queue signal of
// `ready`: the packet's end, at 10 us, was due (pushed at 0) before the waiter's wait, so the
// fence is set when the waiter reaches its wait and it goes on at once. Run one step after the
// other, the waiter would block at 10 us and be released by the signal's interrupt 5 us later.
#include <gtest/gtest.h>

#include "core/analysis/reconstruction.h"
#include "core/sim/scenario_loader.h"
#include "core/sim/simulator.h"
#include "core/store/memory_trace.h"

namespace {

constexpr const char* kScenario = R"(
[scenario]
name = "same_instant"
duration_ms = 1

[[adapter]]
name = "GPU"
interrupt_latency_us = 5

[[engine]]
name = "3D"
adapter = "GPU"
type = "3d"

[[engine]]
name = "copy"
adapter = "GPU"
type = "copy"

[[queue]]
name = "direct"
engine = "3D"

[[queue]]
name = "copy"
engine = "copy"

[[fence]]
name = "ready"
adapter = "GPU"

[[fence]]
name = "other"
adapter = "GPU"

[[thread]]
name = "waiter"
frames = 1
api_call_us = 0

  [[thread.step]]
  op = "cpu_work"
  duration_us = 10

  [[thread.step]]
  op = "signal"
  queue = "copy"
  fence = "other"
  value = 1

  [[thread.step]]
  op = "cpu_wait"
  fence = "ready"
  value = 1

  [[thread.step]]
  op = "execute"
  queue = "copy"
  name = "after the wait"
  duration_us = 1

[[thread]]
name = "submitter"
frames = 1
api_call_us = 0

  [[thread.step]]
  op = "execute"
  queue = "direct"
  name = "ten microseconds"
  duration_us = 10

  [[thread.step]]
  op = "signal"
  queue = "direct"
  fence = "ready"
  value = 1
)";

TEST(SameInstantOrder, AZeroCostStepGoesAfterWhatWasAlreadyDueThen) {
  const core::sim::Scenario scenario = core::sim::ParseScenario(kScenario, "same_instant.toml");
  core::store::MemoryTrace memory("simulator");
  core::sim::RunSimulation(scenario, memory);
  const core::store::TraceStore store = memory.TakeStore("(memory)");
  const core::analysis::Reconstruction recon = core::analysis::Reconstruct(store);
  bool found = false;
  for (const core::analysis::Packet& p : recon.packets) {
    if (store.String(p.name) != "after the wait") continue;
    found = true;
    EXPECT_EQ(p.submit, 10'000) << "the waiter went on at once, the fence already set";
  }
  EXPECT_TRUE(found);
}

}  // namespace
