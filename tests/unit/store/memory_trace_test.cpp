// A trace built in memory (MemoryTrace) is the store LoadTrace gives for the same rows written to
// an SQLite file: every table, every event column in time order, the rowid order. The truth is
// the file route, through SQLite and the loader, which the rest of the suite checks against the
// input; what-if's baseline and the report's opportunities take the memory route.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/model/event_fields.h"
#include "core/model/event_record.h"
#include "core/sim/scenario_loader.h"
#include "core/sim/simulator.h"
#include "core/store/memory_trace.h"
#include "core/store/trace_store.h"
#include "core/store/trace_writer.h"
#include "tests/support/test_support.h"

using namespace core::store;

namespace {

// String fields are compared as the text they name: the two routes number strings in their own
// order (the file also interns the topology's names), and nothing reads a string by its number.
void ExpectSameEvents(const TraceStore& file, const TraceStore& memory) {
  ASSERT_EQ(file.events.size(), memory.events.size());
  for (size_t i = 0; i < file.events.size(); ++i) {
    ASSERT_EQ(file.events.ts[i], memory.events.ts[i]) << "event " << i;
    ASSERT_EQ(file.events.kind[i], memory.events.kind[i]) << "event " << i;
    ASSERT_EQ(file.events.RowIdOf(i), memory.events.RowIdOf(i)) << "event " << i;
    const auto fields = core::model::FieldsOf(file.events.kind[i]);
    ASSERT_FALSE(fields.empty()) << "event " << i;
    for (const core::model::EventField& f : fields) {
      const int64_t a = file.events.ColumnValue(f.column, i);
      const int64_t b = memory.events.ColumnValue(f.column, i);
      if (f.role == core::model::FieldRole::kString) {
        ASSERT_EQ(file.String(static_cast<core::model::StringId>(a)),
                  memory.String(static_cast<core::model::StringId>(b)))
            << "event " << i << " field " << f.name;
      } else {
        ASSERT_EQ(a, b) << "event " << i << " field " << f.name;
      }
    }
  }
}

void ExpectSameTables(const TraceStore& file, const TraceStore& memory) {
  // Every string an event names is there (the file holds the topology's names too).
  for (const std::string& text : memory.strings) {
    EXPECT_NE(std::find(file.strings.begin(), file.strings.end(), text), file.strings.end())
        << text;
  }
  EXPECT_EQ(file.adapters.size(), memory.adapters.size());
  EXPECT_EQ(file.engines.size(), memory.engines.size());
  ASSERT_EQ(file.queues.size(), memory.queues.size());
  for (size_t i = 0; i < file.queues.size(); ++i) {
    EXPECT_EQ(file.queues[i].name, memory.queues[i].name);
    EXPECT_EQ(file.queues[i].engine, memory.queues[i].engine);
    EXPECT_EQ(file.queues[i].type, memory.queues[i].type);
  }
  ASSERT_EQ(file.threads.size(), memory.threads.size());
  for (size_t i = 0; i < file.threads.size(); ++i) {
    EXPECT_EQ(file.threads[i].name, memory.threads[i].name);
  }
  ASSERT_EQ(file.fences.size(), memory.fences.size());
  for (size_t i = 0; i < file.fences.size(); ++i) {
    EXPECT_EQ(file.fences[i].name, memory.fences[i].name);
    EXPECT_EQ(file.fences[i].kind, memory.fences[i].kind);
  }
  EXPECT_EQ(file.processes.size(), memory.processes.size());
  EXPECT_EQ(file.contexts.size(), memory.contexts.size());
  EXPECT_EQ(file.psos.size(), memory.psos.size());
  EXPECT_EQ(file.resources.size(), memory.resources.size());
  EXPECT_EQ(file.start_ns(), memory.start_ns());
  EXPECT_EQ(file.end_ns(), memory.end_ns());
  for (const char* key : {"source", "events_sorted"}) {
    EXPECT_EQ(file.MetaOr(key, "(none)"), memory.MetaOr(key, "(none)")) << key;
  }
}

}  // namespace

TEST(MemoryTrace, EverySimulatedScenarioIsTheStoreItsFileLoadsAs) {
  for (const std::string& name : core::sim::EmbeddedScenarioNames()) {
    SCOPED_TRACE(name);
    const core::sim::Scenario scenario = core::sim::LoadScenario(name);
    test_support::ScratchDir dir;
    {
      TraceWriter writer(dir / "trace.db", "simulator");
      core::sim::RunSimulation(scenario, writer);
      writer.Commit();
    }
    const TraceStore file = LoadTrace(dir / "trace.db");
    MemoryTrace memory("simulator");
    core::sim::RunSimulation(scenario, memory);
    const TraceStore built = memory.TakeStore("(memory)");
    ASSERT_GT(file.events.size(), 0u);
    ExpectSameTables(file, built);
    ExpectSameEvents(file, built);
  }
}

TEST(MemoryTrace, EventsWrittenOutOfTimeOrderKeepTheirRowIds) {
  auto fill = [](TraceSink& w) {
    const auto a = w.AddAdapter({"dGPU", 1, true, true, core::model::PreemptionGranularity::kPixel,
                                 core::model::PreemptionGranularity::kThreadGroup});
    const auto e = w.AddEngine({a, core::model::EngineType::k3D, 0, "3D"});
    const auto p = w.AddProcess({42, "game"});
    const auto q = w.AddQueue({e, a, core::model::QueueType::k3D, 0, p, "3d queue", 0});
    const auto f = w.AddFence({"frame", core::model::FenceKind::kMonitored, false, a, 1, 0, 0});
    for (int i = 0; i < 500; ++i) {
      // Times 0, 10, ... visited in a scrambled order (7919 is prime to 500); two events at
      // each time, so that ties keep their rowid order.
      const int64_t ts = (i * 7919) % 250 * 10;
      w.Append(core::model::events::FenceSignalExecuted{
          .ts_ns = ts, .queue_id = q, .fence_id = f, .fence_value = static_cast<uint64_t>(i + 1)});
    }
  };
  test_support::ScratchDir dir;
  {
    TraceWriter writer(dir / "trace.db", "hand");
    fill(writer);
    writer.Commit();
  }
  const TraceStore file = LoadTrace(dir / "trace.db");
  MemoryTrace memory("hand");
  fill(memory);
  const TraceStore built = memory.TakeStore("(memory)");
  ASSERT_EQ(built.events.size(), 500u);
  EXPECT_FALSE(built.events.rowid.empty());  // out of order: the rowid map is kept
  ExpectSameTables(file, built);
  ExpectSameEvents(file, built);
}
