// Every Chrome / Kineto JSON trace under ../shared/traces/external imports, and what it holds
// matches counts computed from the raw file by chrome_expected_counts.py (Python's own json,
// gzip and zipfile, applying issue 7's mapping rules) - nothing of fencescope is used to make the
// expectations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "core/store/query.h"
#include "importers/common/compressed_input.h"
#include "importers/import_file.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::ScratchDir;

std::map<std::string, int64_t> ExpectedCounts(const fs::path& file) {
  const fs::path script =
      test_support::SourceDir() / "tests/importers/external/chrome_expected_counts.py";
  const std::string command = "python3 '" + script.string() + "' '" + file.string() + "'";
  std::map<std::string, int64_t> counts;
  for (const std::string& line : test_support::Lines(test_support::RunCommand(command).out)) {
    std::istringstream in(line);
    std::string key;
    int64_t value = 0;
    if (in >> key >> value) counts[key] = value;
  }
  return counts;
}

int64_t Scalar(const fs::path& db, const std::string& sql) {
  auto result = core::store::RunQuery(db, sql);
  if (result.rows.empty() || result.rows[0].empty() || result.rows[0][0].empty()) return 0;
  return std::stoll(result.rows[0][0]);
}

int64_t Problem(const fs::path& db, const std::string& name) {
  return Scalar(db, "SELECT count FROM import_problems WHERE name = '" + name + "'");
}

std::vector<fs::path> JsonTraces() {
  std::vector<fs::path> files;
  const fs::path root = test_support::SharedDir() / "traces/external";
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().filename() == "SOURCES.md") continue;
    // Content decides, not the name (the zip / gzip wrappers are undone first).
    try {
      const importers::DecodedInput input = importers::ReadInput(entry.path());
      // rocprofv3's JSON output is JSON of another program, not a Chrome trace.
      const bool rocprofv3 = input.bytes.view().substr(0, 64).find("\"rocprofiler-sdk-tool\"") !=
                             std::string_view::npos;
      if (input.content == importers::FileFormat::kJson && !rocprofv3) {
        files.push_back(entry.path());
      }
    } catch (const std::exception&) {
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(ExternalJson, FindsTheJsonTracesOfSources) {
  // From SOURCES.md's tables, by hand: catapult 29 files less android_systrace.txt and
  // trivial_systrace.html, all 21 hta files, 4 kineto, the 3 perfetto .json files and the 3
  // tracelens Kineto traces (its rocprofv3 JSON is not a Chrome trace).
  EXPECT_EQ(JsonTraces().size(), 27u + 21u + 4u + 3u + 3u);
}

TEST(ExternalJson, EveryJsonTraceImportsWithIndependentCounts) {
  ScratchDir dir;
  for (const fs::path& file : JsonTraces()) {
    SCOPED_TRACE(file.string());
    const auto expected = ExpectedCounts(file);
    ASSERT_FALSE(expected.empty()) << "chrome_expected_counts.py gave nothing";
    const fs::path db = dir / "trace.db";
    ASSERT_NO_THROW(importers::ImportFile(file, db));
    auto kind = [&](const std::string& name) {
      return Scalar(db, "SELECT count(*) FROM " + name);
    };
    EXPECT_EQ(kind("cpu_slice"), expected.at("cpu_slice"));
    EXPECT_EQ(kind("instant"), expected.at("instant"));
    EXPECT_EQ(kind("counter_samples"), expected.at("counter_samples"));
    EXPECT_EQ(kind("packet_started"), expected.at("packets"));
    EXPECT_EQ(kind("packet_completed"), expected.at("packets"));
    EXPECT_EQ(kind("queues"), expected.at("queues"));
    EXPECT_EQ(kind("fence_signal_queued"), expected.at("signals"));
    EXPECT_EQ(kind("fence_signal_executed"), expected.at("signals"));
    EXPECT_EQ(kind("fence_wait_queued"), expected.at("waits"));
    EXPECT_EQ(kind("fence_wait_unblocked"), expected.at("waits"));
    EXPECT_EQ(kind("cpu_wait_begin"), expected.at("cpu_waits"));
    // Every CPU sync that can be linked is: released by a signal of its fence reaching its value
    // by the release (SQL over the views); on these captures that is every one of them.
    EXPECT_EQ(Scalar(db, "SELECT count(*) FROM cpu_wait_begin b JOIN cpu_wait_released r USING "
                         "(waiter_id) WHERE EXISTS (SELECT 1 FROM fence_signal_executed e WHERE "
                         "e.fence_id = b.fence_id AND e.fence_value >= b.fence_value AND "
                         "e.ts_ns <= r.ts_ns)"),
              expected.at("cpu_waits_linked"));
    EXPECT_EQ(expected.at("cpu_waits_linked"), expected.at("cpu_waits"));
    EXPECT_EQ(Problem(db, "json_unclosed_begin"), expected.at("unclosed_begin"));
    EXPECT_EQ(Problem(db, "json_unmatched_end"), expected.at("unmatched_end"));
    // Packets per device stream, as a multiset of counts (queue names are fencescope's own).
    std::vector<int64_t> want, got;
    for (const auto& [key, value] : expected) {
      if (key.rfind("packets.", 0) == 0) want.push_back(value);
    }
    for (const auto& row :
         core::store::RunQuery(db, "SELECT count(*) FROM packet_started GROUP BY queue_id").rows) {
      got.push_back(std::stoll(row[0]));
    }
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, want);
    // Every wait whose record is found is linked to its signal, on the same fence and value;
    // the inferred ones are marked so.
    EXPECT_EQ(Scalar(db, "SELECT count(*) FROM fence_wait_unblocked w JOIN fence_signal_queued s "
                         "ON s.signal_id = w.released_by_signal_id AND s.fence_id = w.fence_id "
                         "AND s.fence_value = w.fence_value"),
              expected.at("waits_linked"));
    EXPECT_EQ(Scalar(db, "SELECT count(*) FROM fence_wait_unblocked WHERE release_link = 2"),
              expected.at("waits_inferred"));
  }
}

TEST(ExternalJson, NamedProblemsSourcesLeadsUsToExpect) {
  ScratchDir dir;
  const fs::path ext = test_support::SharedDir() / "traces/external";
  const fs::path db = dir / "t.db";
  // SOURCES: "4 B events are never closed".
  importers::ImportFile(ext / "catapult/main_thread_has_unclosed_slices.json", db);
  EXPECT_EQ(Problem(db, "json_unclosed_begin"), 4);
  // SOURCES / trace-formats §1.6: control.json.gz has 24,692 'f' but only 9,450 's'.
  importers::ImportFile(ext / "hta/trace_diff/control/control.json.gz", db);
  EXPECT_GE(Problem(db, "json_flow_unmatched_end"), 24692 - 9450);
  // lthi_cats: legacy async steps T:750 and p:17, objects N:16 O:146 D:498, one unknown phase?
  importers::ImportFile(ext / "catapult/lthi_cats.json.gz", db);
  EXPECT_EQ(Problem(db, "json_async_steps"), 750 + 17);
  EXPECT_EQ(Problem(db, "json_object_events"), 16 + 146 + 498);
  // webview: one clock sync 'c', N:2 O:14 objects; fuchsia: systemTraceEvents sub-trace.
  importers::ImportFile(ext / "catapult/webview.json.gz", db);
  EXPECT_EQ(Problem(db, "json_clock_sync_events"), 1);
  EXPECT_EQ(Problem(db, "json_object_events"), 2 + 14);
  importers::ImportFile(ext / "catapult/fuchsia_trace.json.gz", db);
  EXPECT_EQ(Problem(db, "json_system_trace_skipped"), 1);
  // simple_trace: P:3 samples.
  importers::ImportFile(ext / "catapult/simple_trace.json", db);
  EXPECT_EQ(Problem(db, "json_sample_events"), 3);
}

}  // namespace

namespace {

// Runs kineto_releasing_kernels.py over a trace and its import: `checked N` and the mismatches.
std::pair<int64_t, std::string> ReleasingKernels(const fs::path& json, const fs::path& db) {
  const fs::path script =
      test_support::SourceDir() / "tests/importers/external/kineto_releasing_kernels.py";
  const std::string command =
      "python3 '" + script.string() + "' '" + json.string() + "' '" + db.string() + "'";
  int64_t checked = -1;
  std::string mismatches;
  for (const std::string& text : test_support::Lines(test_support::RunCommand(command).out)) {
    if (text.rfind("checked ", 0) == 0) checked = std::stoll(text.substr(8));
    else mismatches += text + "\n";
  }
  return {checked, mismatches};
}

}  // namespace

TEST(ExternalJson, HtaWaitsAreReleasedByTheKernelTheRawTraceNames) {
  // For every Stream Wait Event that names the recorded stream, the kernel that released it is
  // worked out from the raw JSON (the last to end among those launched on that stream before
  // the record); the import must link the wait to a signal on that stream executed after it.
  ScratchDir dir;
  const fs::path hta = test_support::SharedDir() / "traces/external/hta/critical_path";
  for (const char* name : {"alexnet/benchmark_result_2869224_1695835535_trace.json.gz",
                           "simple_add/benchmark_result_493459_1694039959_trace.json.gz",
                           "cuda_event_sync_multi_stream/event_sync_trace.json.gz"}) {
    SCOPED_TRACE(name);
    const fs::path db = dir / "trace.db";
    importers::ImportFile(hta / name, db);
    const auto [checked, mismatches] = ReleasingKernels(hta / name, db);
    EXPECT_GT(checked, 0);
    EXPECT_EQ(mismatches, "");
  }
}
