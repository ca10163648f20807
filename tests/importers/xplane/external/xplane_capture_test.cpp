// A JAX profile from eight MI300-class GPUs (../shared/traces/external/tracelens/
// jax_conv_minimal_08_tw003.xplane.pb). Every figure is checked against xspace_counts.py, which
// decodes the raw protobuf bytes with a wire decoder of its own (no protobuf library, nothing of
// fencescope).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "core/report/fail_if.h"
#include "tests/support/json_text.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;

const fs::path kCapture = "traces/external/tracelens/jax_conv_minimal_08_tw003.xplane.pb";

TEST(XplaneCapture, EveryDeviceStreamHasTheEventsAndBusyTimeOfTheRawFile) {
  const fs::path capture = test_support::SharedDir() / kCapture;
  const auto expected = test_support::ScriptFigures(
      test_support::SourceDir() / "tests/importers/xplane/xspace_counts.py", capture);
  ASSERT_EQ(expected.at("device_planes"), 8) << "xspace_counts.py read another capture";

  test_support::ScratchDir dir;
  const auto imported = test_support::RunFencescope(
      "import " + test_support::Quote(capture) + " -o " + test_support::Quote(dir / "t.db"));
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_NE(imported.out.find("XSpace profile"), std::string::npos) << imported.out;

  const auto stats =
      test_support::RunFencescopeJson("stats --json " + test_support::Quote(dir / "t.db"));
  const core::report::Json* queues = core::report::FindPath(stats, "queues");
  ASSERT_NE(queues, nullptr);
  ASSERT_EQ(static_cast<int64_t>(queues->size()), expected.at("streams"));
  int64_t packets = 0;
  for (const core::report::Json& q : queues->items()) {
    // "/device:GPU:0 (AMD) Stream #17(Kernel)" -> plane "/device:GPU:0", line "Stream #17(Kernel)"
    const std::string name = q.Find("name")->String();
    SCOPED_TRACE(name);
    const std::string plane = name.substr(0, name.find(' '));
    const std::string line = name.substr(name.find("Stream #"));
    const std::string key = "stream " + plane + " " + line + " ";
    ASSERT_TRUE(expected.count(key + "packets"));
    EXPECT_EQ(q.Find("packets_completed")->Int(), expected.at(key + "packets"));
    EXPECT_EQ(q.Find("packets_submitted")->Int(), expected.at(key + "packets"));
    EXPECT_EQ(q.Find("busy_ns")->Int(), expected.at(key + "busy_ns"));
    EXPECT_EQ(q.Find("type")->String(), "compute");
    packets += q.Find("packets_completed")->Int();
  }
  EXPECT_EQ(packets, expected.at("packets"));

  // Host side: one thread per host line, every host event a slice, each launch linked.
  const fs::path db = dir / "t.db";
  EXPECT_EQ(test_support::FirstCell(db, "SELECT COUNT(*) FROM threads"),
            std::to_string(expected.at("host_threads")));
  EXPECT_EQ(test_support::FirstCell(db, "SELECT COUNT(*) FROM cpu_slice"),
            std::to_string(expected.at("host_slices")));
  EXPECT_EQ(test_support::FirstCell(db, "SELECT COUNT(*) FROM flows WHERE kind = 1"),
            std::to_string(expected.at("packets_linked")));
  EXPECT_EQ(expected.at("packets_linked"), expected.at("packets_with_correlation"));
  // A launch flow goes from a host call to a kernel that started no earlier than the call began
  // on the same clock, and the packet is submitted on the calling thread at the call's start.
  EXPECT_EQ(test_support::FirstCell(
                db,
                "SELECT COUNT(*) FROM flows f JOIN cpu_slice c ON c.event_id = f.from_event "
                "JOIN packet_started s ON s.event_id = f.to_event "
                "JOIN packet_submitted p ON p.packet_id = s.packet_id "
                "WHERE p.thread_id = c.thread_id AND p.ts_ns = MIN(c.ts_ns, s.ts_ns)"),
            std::to_string(expected.at("packets_linked")));
  // Nothing of the capture was an aggregate; nothing was dropped.
  EXPECT_EQ(expected.count("aggregate_events"), 0u);
  EXPECT_EQ(test_support::FirstCell(
                db, "SELECT COUNT(*) FROM import_problems WHERE severity <> 0"),
            "0");
}

}  // namespace
