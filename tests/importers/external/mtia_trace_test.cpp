// HTA's MTIA inference trace (../shared/traces/external/hta/mtia_inference_trace): twelve device
// streams whose event_wait events hold a stream for milliseconds until another stream records
// an event. Every figure is checked against mtia_counts.py, which reads the raw JSON with
// Python's own json - nothing of fencescope makes the expectations.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/report/fail_if.h"
#include "core/report/report_data.h"
#include "core/report/report_json.h"
#include "core/store/query.h"
#include "core/store/trace_store.h"
#include "importers/import_file.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using core::report::Json;

const fs::path kTrace = "traces/external/hta/mtia_inference_trace/mtia_inference_rank_0.json.gz";

std::string StreamOf(const std::string& queue_name) {  // "MTIA 17 Stream 108" -> "108"
  return queue_name.substr(queue_name.rfind(' ') + 1);
}

TEST(MtiaTrace, EveryWaitIsPlacedAndLinkedToTheRecordThatReleasedIt) {
  const fs::path trace = test_support::SharedDir() / kTrace;
  const auto expected = test_support::ScriptFigures(
      test_support::SourceDir() / "tests/importers/external/mtia_counts.py", trace);
  ASSERT_EQ(expected.at("streams"), 12) << "mtia_counts.py read another trace";
  // The property the link rests on: each wait ended within a microsecond of the record.
  ASSERT_EQ(expected.at("waits_linked"), expected.at("waits"));
  ASSERT_LT(expected.at("release_gap_max_ns"), 1000);

  test_support::ScratchDir dir;
  importers::ImportFile(trace, dir / "trace.db");
  auto store = core::store::LoadTrace(dir / "trace.db");
  const Json j = core::report::ReportJson(core::report::AnalyseTrace(store, true));

  const Json* queues = core::report::FindPath(j, "queues");
  ASSERT_NE(queues, nullptr);
  ASSERT_EQ(static_cast<int64_t>(queues->size()), expected.at("streams"));
  for (const Json& q : queues->items()) {
    const std::string name = q.Find("name")->String();
    SCOPED_TRACE(name);
    const std::string s = "stream " + StreamOf(name) + " ";
    EXPECT_EQ(name.rfind("MTIA 17 Stream ", 0), 0u);
    EXPECT_EQ(q.Find("packets_completed")->Int(), expected.at(s + "packets"));
    EXPECT_EQ(q.Find("busy_ns")->Int(), expected.at(s + "busy_ns"));
    // Its records, and one signal per host synchronizeStream of it.
    const auto syncs = expected.find(s + "host_syncs");
    EXPECT_EQ(q.Find("signals_executed")->Int(),
              expected.at(s + "records") + (syncs == expected.end() ? 0 : syncs->second));
    EXPECT_EQ(q.Find("waits_unblocked")->Int(), expected.at(s + "waits"));
    EXPECT_EQ(q.Find("waiting_ns")->Int(), expected.at(s + "waiting_ns"));
  }

  // Which stream held which, and for how long: every pair the script found, and no other.
  const Json* pairs = core::report::FindPath(j, "queue_pairs");
  ASSERT_NE(pairs, nullptr);
  std::map<std::string, int64_t> got;
  for (const Json& p : pairs->items()) {
    const std::string key = "pair " + StreamOf(p.Find("waiting")->String()) + " " +
                            StreamOf(p.Find("signalling")->String()) + " ";
    got[key + "waits"] = p.Find("waits")->Int();
    got[key + "waiting_ns"] = p.Find("waiting_ns")->Int();
  }
  std::map<std::string, int64_t> want;
  for (const auto& [key, value] : expected) {
    if (key.rfind("pair ", 0) == 0) want[key] = value;
  }
  EXPECT_EQ(got, want);

  // Each wait ended within a microsecond after the signal it is linked to executed (the
  // record that released it, not an earlier one of the same stream).
  EXPECT_EQ(core::store::RunQuery(dir / "trace.db",
                                  "SELECT min(u.ts_ns - x.ts_ns) >= 0, max(u.ts_ns - x.ts_ns) < "
                                  "1000, count(*) FROM fence_wait_unblocked u JOIN "
                                  "fence_signal_executed x ON x.signal_id = "
                                  "u.released_by_signal_id AND x.fence_id = u.fence_id AND "
                                  "x.fence_value = u.fence_value")
                .rows[0],
            (std::vector<std::string>{"1", "1", std::to_string(expected.at("waits"))}));

  // Every host synchronizeStream is a CPU wait on its thread, released after its stream's
  // earlier work had ended (or at its return, where the clocks disagree).
  EXPECT_EQ(core::store::RunQuery(dir / "trace.db",
                                  "SELECT count(*), sum(r.ts_ns - x.ts_ns) FROM "
                                  "cpu_wait_released r JOIN fence_signal_executed x ON "
                                  "x.fence_id = r.fence_id AND x.fence_value = r.fence_value")
                .rows[0],
            (std::vector<std::string>{std::to_string(expected.at("host_syncs")),
                                      std::to_string(expected.at("host_sync_tail_ns"))}));
  EXPECT_EQ(test_support::At(j, "fences.cpu_waits"), expected.at("host_syncs"));
  EXPECT_EQ(core::store::RunQuery(dir / "trace.db",
                                  "SELECT coalesce(sum(count), 0) FROM import_problems WHERE name "
                                  "= 'mtia_sync_before_work_end'")
                .rows[0][0],
            std::to_string(expected.at("host_syncs_late")));

  // Nothing left unlinked, and the summary says so.
  EXPECT_EQ(test_support::At(j, "fences.waits_never_unblocked"), 0);
  EXPECT_EQ(core::store::RunQuery(dir / "trace.db",
                                  "SELECT count(*) FROM fence_wait_unblocked "
                                  "WHERE released_by_signal_id = 0")
                .rows[0][0],
            "0");
}

}  // namespace
