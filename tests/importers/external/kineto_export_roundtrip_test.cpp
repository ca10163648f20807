// A real Kineto trace imported, exported and imported again keeps its packets with their exact
// submit and start times (ns timestamps above 2^53 must not pass through a double), its fence
// signals and waits, CPU waits and launch flows.
#include <gtest/gtest.h>

#include "core/store/query.h"
#include "core/export/chrome_json_export.h"
#include "importers/import_file.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;

std::vector<std::vector<std::string>> Rows(const fs::path& db, const std::string& sql) {
  return core::store::RunQuery(db, sql).rows;
}

TEST(KinetoExportRoundTrip, AlexnetKeepsPacketsSignalsWaitsAndTimes) {
  test_support::ScratchDir dir;
  const fs::path source = test_support::SharedDir() /
      "traces/external/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz";
  const fs::path first = dir / "first.db", json = dir / "export.json", second = dir / "second.db";
  importers::ImportFile(source, first);
  core::exporting::ExportChromeJson(first, json);
  importers::ImportFile(json, second);
  const std::string packets =
      "SELECT b.ts_ns, s.ts_ns, c.ts_ns FROM packet_submitted s JOIN packet_started b USING "
      "(packet_id) JOIN packet_completed c USING (packet_id) ORDER BY b.ts_ns, s.ts_ns";
  EXPECT_EQ(Rows(second, packets), Rows(first, packets));
  const std::string counts =
      "SELECT (SELECT count(*) FROM queues), (SELECT count(*) FROM fence_signal_executed), "
      "(SELECT count(*) FROM fence_wait_unblocked WHERE released_by_signal_id != 0), "
      "(SELECT count(*) FROM cpu_wait_released), (SELECT count(*) FROM flows WHERE kind = 1), "
      "(SELECT count(*) FROM cpu_slice)";
  EXPECT_EQ(Rows(second, counts), Rows(first, counts));
}

}  // namespace
