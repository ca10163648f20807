// Every shared real Nsight Systems export (../shared/traces/external: pipit/, nvfuser/,
// test-cuda/) imports, and what it holds - packets per stream, launches linked to their API
// call, CPU waits, NVTX ranges - equals what nsys_counts.py counts in its raw tables with
// Python's sqlite3 and nothing of fencescope. The per-queue packets are read both from
// `fencescope stats --json` and by SQL over the trace's views.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <string>

#include "core/report/fail_if.h"
#include "tests/support/json_text.h"
#include "tests/support/sql_text.h"
#include "tests/support/test_support.h"

namespace {

namespace fs = std::filesystem;
using test_support::FirstCell;
using test_support::Quote;

struct Export {
  const char* path;     // under ../shared/traces/external
  const char* version;  // EXPORT_PRODUCT_VERSION, read from the file's meta table by hand
};

class NsysRealExport : public testing::TestWithParam<Export> {};

int64_t Count(const fs::path& trace, const std::string& sql) {
  return std::stoll(FirstCell(trace, sql));
}

TEST_P(NsysRealExport, ImportsWithEveryCountOfTheRawTables) {
  const fs::path input = test_support::SharedDir() / "traces/external" / GetParam().path;
  const auto expected = test_support::ScriptFigures(
      test_support::SourceDir() / "tests/importers/nsys/external/nsys_counts.py", input);
  ASSERT_GT(expected.at("packets"), 0) << "nsys_counts.py read no packet";

  test_support::ScratchDir dir;
  const fs::path trace = dir / "trace.db";
  const auto r = test_support::RunFencescope("import " + Quote(input) + " --output " +
                                             Quote(trace));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(FirstCell(trace, "SELECT value FROM meta WHERE key = 'nsys_version'"),
            GetParam().version);

  // Packets per stream: stats --json and SQL over the views.
  std::map<std::string, int64_t> want, from_stats, from_sql;
  for (const auto& [key, value] : expected) {
    if (key.rfind("stream ", 0) != 0) continue;
    // "stream D S packets" -> the queue "GPU D stream S ..."
    const size_t space = key.find(' ', 7);
    want["GPU " + key.substr(7, space - 7) + " stream " +
         key.substr(space + 1, key.rfind(' ') - space - 1)] = value;
  }
  const auto stats = test_support::RunFencescopeJson("stats " + Quote(trace) + " --json");
  for (const auto& q : core::report::FindPath(stats, "queues")->items()) {
    std::string name = q.Find("name")->String();
    name = name.substr(0, name.find(" ("));  // "GPU 0 stream 7 (NULL stream)"
    if (q.Find("packets")->Int() > 0) from_stats[name] = q.Find("packets")->Int();
  }
  EXPECT_EQ(from_stats, want);
  for (const std::string& line : test_support::Lines(test_support::RowsText(
           trace, "SELECT s.value, count(*) FROM packet_completed p JOIN queues q ON "
                  "q.id = p.queue_id JOIN strings s ON s.id = q.name_sid GROUP BY 1"))) {
    const std::string name = line.substr(0, line.find('|'));
    from_sql[name.substr(0, name.find(" ("))] = std::stoll(line.substr(line.find('|') + 1));
  }
  EXPECT_EQ(from_sql, want);

  EXPECT_EQ(Count(trace, "SELECT count(*) FROM packet_submitted"), expected.at("packets"));
  EXPECT_EQ(Count(trace, "SELECT count(*) FROM cpu_slice c JOIN strings s ON s.id = "
                         "c.category_sid WHERE s.value = 'cuda_runtime'"),
            expected.at("runtime_calls"));
  EXPECT_EQ(Count(trace, "SELECT count(*) FROM flows WHERE kind = 1"),
            expected.at("launches_linked"));
  EXPECT_EQ(Count(trace, "SELECT count(*) FROM cpu_slice c JOIN strings s ON s.id = "
                         "c.category_sid WHERE s.value = 'osrt'"),
            expected.at("os_calls"));
  EXPECT_EQ(Count(trace, "SELECT count(*) FROM cpu_slice c JOIN strings s ON s.id = "
                         "c.category_sid WHERE s.value = 'nvtx'"),
            expected.at("nvtx_ranges"));
  // The bytes of the copies of each direction and of the memsets, from the packets' args.
  std::map<std::string, int64_t> bytes_want, bytes_got;
  for (const auto& [key, value] : expected) {
    if (key.rfind("memcpy ", 0) == 0 || key == "memset bytes") bytes_want[key] = value;
  }
  for (const std::string& line : test_support::Lines(test_support::RowsText(
           trace, "SELECT CASE WHEN n.value = 'Memset' THEN 'memset' ELSE 'memcpy ' || "
                  "(SELECT t.value FROM event_args d JOIN strings dk ON dk.id = d.key_sid "
                  "JOIN strings t ON t.id = d.text_sid WHERE d.event_rowid = p.event_id AND "
                  "dk.value = 'direction') END, sum(a.int_value) FROM packet_submitted p JOIN "
                  "strings n ON n.id = p.name_sid JOIN event_args a ON a.event_rowid = "
                  "p.event_id JOIN strings k ON k.id = a.key_sid WHERE k.value = 'bytes' "
                  "GROUP BY 1"))) {
    bytes_got[line.substr(0, line.find('|')) + " bytes"] =
        std::stoll(line.substr(line.find('|') + 1));
  }
  EXPECT_EQ(bytes_got, bytes_want);
  // NVTX marks as instants, and the ranges of each named domain with it in their args.
  EXPECT_EQ(Count(trace, "SELECT count(*) FROM instant i JOIN strings s ON s.id = "
                         "i.category_sid WHERE s.value = 'nvtx'"),
            expected.at("nvtx_marks"));
  std::map<std::string, int64_t> domains_want, domains_got;
  for (const auto& [key, value] : expected) {
    if (key.rfind("nvtx_domain ", 0) == 0) domains_want[key] = value;
  }
  for (const std::string& line : test_support::Lines(test_support::RowsText(
           trace, "SELECT t.value, count(*) FROM cpu_slice c JOIN strings cat ON cat.id = "
                  "c.category_sid JOIN event_args a ON a.event_rowid = c.event_id JOIN "
                  "strings k ON k.id = a.key_sid JOIN strings t ON t.id = a.text_sid WHERE "
                  "cat.value = 'nvtx' AND k.value = 'domain' GROUP BY 1"))) {
    domains_got["nvtx_domain " + line.substr(0, line.find('|')) + " ranges"] =
        std::stoll(line.substr(line.find('|') + 1));
  }
  EXPECT_EQ(domains_got, domains_want);
  // No shared export's NVTX ranges mark iterations: nvtx_steps.py finds none, and neither
  // does the import (no range is taken for a step that is not one).
  const auto steps = test_support::ScriptFigures(
      test_support::SourceDir() / "tests/importers/nsys/nvtx_steps.py", input);
  EXPECT_EQ(Count(trace, "SELECT count(*) FROM cpu_slice c JOIN strings s ON s.id = "
                         "c.category_sid WHERE s.value = 'nvtx step'"),
            steps.at("steps"));
  // Every CPU sync is a CPU wait released by the signal of the work it waited for.
  EXPECT_EQ(Count(trace, "SELECT count(*) FROM cpu_wait_released"), expected.at("cpu_waits"));
  EXPECT_EQ(Count(trace, "SELECT count(*) FROM cpu_wait_released WHERE release_link != 0"),
            expected.at("cpu_waits"));
  EXPECT_EQ(Count(trace, "SELECT count(*) FROM fence_wait_unblocked"), expected.at("gpu_waits"));
}

INSTANTIATE_TEST_SUITE_P(
    Shared, NsysRealExport,
    testing::Values(Export{"test-cuda/report1.sqlite", "2026.1.1.204"},
                    Export{"nvfuser/report1.sqlite", "2025.1.1.110"},
                    Export{"pipit/perlmutter-cloverleaf-cuda.sqlite", "2024.5.1.113"},
                    Export{"pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite", "2022.2.1.31"}),
    [](const testing::TestParamInfo<Export>& info) {
      std::string name;
      for (const char* c = info.param.path; *c && *c != '.'; ++c) {
        name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
      }
      return name;
    });

// The .nsys-rep report beside nvfuser's export needs NVIDIA's nsys, which is not a Debian
// package: without it on PATH the import names the command that exports it.
TEST(NsysRealReport, WithoutNsysOnPathTheErrorNamesTheExportCommand) {
  const fs::path report = test_support::SharedDir() / "traces/external/nvfuser/report1.nsys-rep";
  test_support::ScratchDir dir;
  const auto r = test_support::RunCommand("PATH=/usr/bin:/bin " +
                                          Quote(FENCESCOPE_EXECUTABLE) + " import " +
                                          Quote(report) + " --output " + Quote(dir / "t.db"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("nsys export --type sqlite"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(report.string()), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "t.db"));
}

}  // namespace
