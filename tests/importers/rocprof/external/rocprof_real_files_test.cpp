// Real ROCm profiler captures (../shared/traces/external): rocprofv3 JSON from an MI350X run
// (tracelens/rocprofv3_908_results.json.gz) and rocprofv2's timestamps.csv from an MI300X
// (omniperf/MI300X_A1_path_timestamps.csv). Every figure is checked against rocprof_counts.py,
// which reads the raw file with Python's own json / csv - nothing of fencescope makes the
// expectations; fencescope's side is `fencescope stats --json` and SQL over the imported trace.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/report/fail_if.h"
#include "core/store/query.h"
#include "tests/support/json_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using core::report::Json;

const fs::path kJson = "traces/external/tracelens/rocprofv3_908_results.json.gz";
const fs::path kCsv = "traces/external/omniperf/MI300X_A1_path_timestamps.csv";

std::map<std::string, int64_t> Expected(const fs::path& trace) {
  return test_support::ScriptFigures(
      test_support::SourceDir() / "tests/importers/rocprof/external/rocprof_counts.py", trace);
}

fs::path Import(const fs::path& trace, const test_support::ScratchDir& dir) {
  const fs::path db = dir / "trace.db";
  const auto r = test_support::RunFencescope("import " + test_support::Quote(trace) + " -o " +
                                             test_support::Quote(db));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return db;
}

// "GPU 0 queue 18" -> "queue 0 18", the script's key.
std::string KeyOf(const std::string& queue_name) {
  const size_t gpu_end = queue_name.find(" queue ");
  return "queue " + queue_name.substr(4, gpu_end - 4) + " " + queue_name.substr(gpu_end + 7);
}

// Packets and busy time of every queue in `stats --json` against the script's.
void ExpectQueuesAsCounted(const fs::path& db, const std::map<std::string, int64_t>& expected) {
  const Json j = test_support::RunFencescopeJson("stats --json " + test_support::Quote(db));
  const Json* queues = core::report::FindPath(j, "queues");
  ASSERT_NE(queues, nullptr);
  ASSERT_EQ(static_cast<int64_t>(queues->size()), expected.at("queues"));
  int64_t packets = 0;
  for (const Json& q : queues->items()) {
    const std::string name = q.Find("name")->String();
    SCOPED_TRACE(name);
    const std::string key = KeyOf(name);
    ASSERT_TRUE(expected.count(key + " packets")) << "no such queue in the file";
    EXPECT_EQ(q.Find("packets_completed")->Int(), expected.at(key + " packets"));
    EXPECT_EQ(q.Find("busy_ns")->Int(), expected.at(key + " busy_ns"));
    packets += q.Find("packets_completed")->Int();
  }
  EXPECT_EQ(packets, expected.at("dispatches"));
}

TEST(RocprofRealFiles, Rocprofv3JsonHasAQueuePerHsaQueueWithItsDispatchesAndBusyTime) {
  const fs::path trace = test_support::SharedDir() / kJson;
  const auto expected = Expected(trace);
  // What SOURCES.md says of the file, so that the script is known to read the right one.
  ASSERT_EQ(expected.at("dispatches"), 43915);
  ASSERT_EQ(expected.at("queues"), 5);
  ASSERT_EQ(expected.at("queue 0 18 packets"), 38761);

  test_support::ScratchDir dir;
  const fs::path db = Import(trace, dir);
  ExpectQueuesAsCounted(db, expected);

  // Every GPU agent an adapter named by its product; the CPU agents none.
  EXPECT_EQ(core::store::RunQuery(db, "SELECT count(*), count(DISTINCT s.value) FROM adapters a "
                                      "JOIN strings s ON s.id = a.name_sid WHERE s.value LIKE "
                                      "'AMD Instinct MI350X (GPU %, gfx950)'")
                .rows[0],
            (std::vector<std::string>{std::to_string(expected.at("gpus")),
                                      std::to_string(expected.at("gpus"))}));
  EXPECT_EQ(core::store::RunQuery(db, "SELECT count(*) FROM adapters").rows[0][0],
            std::to_string(expected.at("gpus")));

  // The HIP streams each queue carried: every dispatch's stream_id is kept with it.
  const auto per_stream = core::store::RunQuery(
      db,
      "SELECT s.value, a.int_value, count(*) FROM packet_submitted p JOIN queues q ON q.id = "
      "p.queue_id JOIN strings s ON s.id = q.name_sid JOIN event_args a ON a.event_rowid = "
      "p.event_id JOIN strings k ON k.id = a.key_sid AND k.value = 'stream_id' GROUP BY 1, 2");
  int64_t rows = 0;
  for (const auto& row : per_stream.rows) {
    SCOPED_TRACE(row[0] + " stream " + row[1]);
    EXPECT_EQ(std::to_string(expected.at(KeyOf(row[0]) + " stream " + row[1])), row[2]);
    ++rows;
  }
  int64_t streams = 0;
  for (const auto& [key, value] : expected) {
    if (key.ends_with(" streams")) streams += value;
  }
  EXPECT_EQ(rows, streams);
  // ... and said per queue in the trace's meta.
  EXPECT_EQ(core::store::RunQuery(db, "SELECT count(*) FROM meta WHERE key LIKE "
                                      "'queue_streams.GPU 0 queue %'")
                .rows[0][0],
            std::to_string(expected.at("queues")));
}

TEST(RocprofRealFiles, RocprofV2CsvHasItsDispatchesOnTheirQueue) {
  const fs::path trace = test_support::SharedDir() / kCsv;
  const auto expected = Expected(trace);
  ASSERT_EQ(expected.at("dispatches"), 3);
  test_support::ScratchDir dir;
  const fs::path db = Import(trace, dir);
  ExpectQueuesAsCounted(db, expected);
  // Named by their symbol, the descriptor's " (.kd)" left out.
  EXPECT_EQ(core::store::RunQuery(db, "SELECT DISTINCT s.value FROM packet_submitted p JOIN "
                                      "strings s ON s.id = p.name_sid")
                .rows,
            (std::vector<std::vector<std::string>>{
                {"vecCopy(double*, double*, double*, int, int)"}}));
}

}  // namespace
